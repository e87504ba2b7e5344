import Testing

import ComputedGenCore

/// A derived collection whose chain starts from another derived collection value: reported at
/// the reference, naming the value, why it is not maintained, and the forms that are.
@Suite("Views of views: a chain from another view's value")
struct ViewChainTests {
    @Test("a chain from a ListView or ListGroups value is an error at the reference, with both fixes")
    func chainFromAView() {
        let errors = FrontEnd.diagnostics("""
            state Reader {
              var articles: IdentifiedList<Article> = []
              computed timeline: ListView<Article> { articles.sorted(by: \\.date) }
              computed unread: ListView<Article> { timeline.filter { !$0.isRead } }
              computed byFeed: ListGroups<Int, Article> { articles.grouped(by: \\.feedID) }
              computed top: ListSections<Int, Article> { return byFeed.sortedKeys() }
            }
            """)
        #expect(errors == [
            "4:40: computed 'unread' starts its chain from 'timeline', a 'ListView' value: a view is the result of a query, "
                + "not a list that records its edits, so a chain from it is not maintained incrementally; start from the list "
                + "'timeline' is built from ('articles', with 'timeline''s operators first), or declare 'unread' as '[Article]' "
                + "to recompute it in full after each change of 'timeline'",
            "6:53: computed 'top' starts its chain from 'byFeed', a 'ListGroups' value: a view is the result of a query, "
                + "not a list that records its edits, so a chain from it is not maintained incrementally; start from the list "
                + "'byFeed' is built from ('articles', with 'byFeed''s operators first), or declare 'top' as an ordinary type "
                + "(such as a dictionary of arrays) to recompute it in full after each change of 'byFeed'",
            "6:60: 'sortedKeys' orders the keys of groups: call it on 'grouped(by:)', as in 'articles.grouped(by: \\.feedID).sortedKeys()'",
        ])
    }

    @Test("an ordinary value over a view, and a view over the list, are not errors")
    func notErrors() {
        #expect(FrontEnd.diagnostics("""
            state Reader {
              var articles: IdentifiedList<Article> = []
              computed timeline: ListView<Article> { articles.sorted(by: \\.date) }
              computed unread: [Article] { timeline.filter { !$0.isRead } }
              computed count: Int { timeline.count }
              computed latest: ListView<Article> { articles.sorted(by: \\.date, descending: true).prefix(3) }
            }
            """).isEmpty)
    }
}
