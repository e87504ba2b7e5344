import Testing

import ComputedGenCore

/// A derived collection whose chain starts from another derived collection value: a `ListView`
/// from a `ListView` is maintained incrementally (the table follows the upstream view's changes);
/// the forms that are not are reported at the reference, naming the value, why it is not
/// maintained, and the forms that are.
@Suite("Views of views: a chain from another view's value")
struct ViewChainTests {
    @Test("a view of a view is followed through the upstream view's changes")
    func viewOfAView() throws {
        let spec = """
            state Reader {
              var articles: IdentifiedList<Article> = []
              var query: String = ""
              computed timeline: ListView<Article> { articles.sorted(by: \\.date) }
              computed unread: ListView<Article> { timeline.filter { !$0.isRead } }
              computed firstUnread: ListView<Article> { return unread.prefix(20) }
              computed matching: ListView<Article> { timeline.filter { $0.title.contains(query) } }
              computed newest: ListView<Article> { timeline.filter { $0.date == timeline.last?.date } }
            }
            """
        #expect(FrontEnd.diagnostics(spec).isEmpty)
        let swift = try #require(Generator.generate(source: spec, path: "Reader.statespec").swift)
        #expect(swift.contains(#"table.incremental("unread", \._unread, \.unread, inputs: "timeline", sourceInputs: "timeline") {"#))
        #expect(swift.contains(#"table.incremental("firstUnread", \._firstUnread, \.firstUnread, inputs: "unread", sourceInputs: "unread") {"#))
        #expect(swift.contains(#"inputs: "timeline query", sourceInputs: "timeline") {"#))
        // Read in a closure too: evaluated in full when it moves.
        #expect(swift.contains(#"table.incremental("newest", \._newest, \.newest, inputs: "timeline") {"#))
        #expect(swift.contains("/// Maintained incrementally: follows the changes of `timeline`."))
        #expect(swift.contains("/// Maintained incrementally: follows the changes of `timeline`; evaluated in full after `query` changes."))
        let state = try #require(SpecFrontEnd.run(source: spec, path: "t.statespec").spec?.states.first)
        #expect(state.freshness(ofComputed: "unread")?.followedLists == ["timeline"])
        #expect(state.freshness(ofComputed: "newest")?.followedLists == [])
    }

    @Test("the chains that are not maintained incrementally are errors at the reference, with the fixes")
    func chainsNotMaintained() {
        let errors = FrontEnd.diagnostics("""
            state Reader {
              var articles: IdentifiedList<Article> = []
              computed timeline: ListView<Article> { articles.sorted(by: \\.date) }
              computed top: ListView<Article> { articles.sorted(by: \\.date).prefix(10) }
              computed titles: ListView<String> { timeline.map(\\.title) }
              computed topUnread: ListView<Article> { top.filter { !$0.isRead } }
              computed long: ListView<String> { titles.filter { $0.count > 10 } }
              computed byFeedOfTimeline: ListGroups<Int, Article> { timeline.grouped(by: \\.feedID) }
              computed byFeed: ListGroups<Int, Article> { articles.grouped(by: \\.feedID) }
              computed sections: ListSections<Int, Article> { return byFeed.sortedKeys() }
            }
            """)
        #expect(errors == [
            "6:43: computed 'topUnread' starts its chain from 'top', a 'ListView' value cut by 'prefix': such a view keeps no "
                + "record of its changes, so a chain from it is not maintained incrementally; chain from a view without 'prefix' "
                + "(and apply 'prefix' last, in 'topUnread'), start from the list 'top' is built from ('articles', with 'top''s "
                + "operators first), or declare 'topUnread' as '[Article]' to recompute it in full after each change of 'top'",
            "7:37: computed 'long' starts its chain from 'titles', a 'ListView' value transformed by 'map': such a view keeps no "
                + "record of its changes, so a chain from it is not maintained incrementally; chain from a view without 'map' "
                + "(and apply 'map' last, in 'long'), start from the list 'titles' is built from ('timeline', with 'titles''s "
                + "operators first), or declare 'long' as '[String]' to recompute it in full after each change of 'titles'",
            "8:57: computed 'byFeedOfTimeline' starts its chain from 'timeline', a 'ListView' value, into a 'ListGroups': a chain "
                + "from a view is maintained incrementally up to a 'ListView' ('filter', 'sorted', 'map', 'prefix'), not grouped; "
                + "start from the list 'timeline' is built from ('articles', with 'timeline''s operators first), or declare "
                + "'byFeedOfTimeline' as an ordinary type (such as a dictionary of arrays) to recompute it in full after each "
                + "change of 'timeline'",
            "10:58: computed 'sections' starts its chain from 'byFeed', a 'ListGroups' value: groups are the result of a query, "
                + "not a list that records its edits, so a chain from them is not maintained incrementally; start from the list "
                + "'byFeed' is built from ('articles', with 'byFeed''s operators first), or declare 'sections' as an ordinary type "
                + "(such as a dictionary of arrays) to recompute it in full after each change of 'byFeed'",
            "10:65: 'sortedKeys' orders the keys of groups: call it on 'grouped(by:)', as in 'articles.grouped(by: \\.feedID).sortedKeys()'",
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

    @Test("a fold of a view is a warning at the reference, giving the fold of the list that is maintained per change")
    func foldsOfViews() throws {
        let spec = """
            state Mail {
              var messages: IdentifiedList<Message> = []
              computed unread: ListView<Message> {
                messages.filter { !$0.isRead }
                  .sorted(by: \\.date)
              }
              computed latest: ListView<Message> { messages.sorted(by: \\.date).prefix(10) }
              computed starredUnread: Int { unread.count(where: { $0.isStarred }) }
              computed unreadSize: Int { return unread.filter { $0.size > 0 }.sum(of: \\.size) }
              computed unreadCount: Int { unread.count }
              computed latestStarred: Int { latest.count(where: { $0.isStarred }) }
              computed unreadList: [Message] { Array(unread) }
            }
            """
        let result = SpecFrontEnd.run(source: spec, path: "t.statespec")
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
        let tail = "is updated per changed element instead (a view's order does not change a count or a sum)"
        #expect(result.diagnostics.map { "\($0.location): \($0.message)" } == [
            "8:33: computed 'starredUnread' folds the 'ListView' value 'unread', which is recomputed in full (every element of "
                + "'unread') after each change of it; 'messages.filter { !$0.isRead }.count(where: { $0.isStarred })' \(tail)",
            "9:37: computed 'unreadSize' folds the 'ListView' value 'unread', which is recomputed in full (every element of "
                + "'unread') after each change of it; 'messages.filter { !$0.isRead }.filter { $0.size > 0 }.sum(of: \\.size)' \(tail)",
        ])
        // A warning does not stop the generator: the spec still generates, and the command succeeds.
        #expect(Generator.generate(source: spec, path: "t.statespec").swift != nil)
        // The suggested form is itself a fold of the list, maintained per change.
        let suggested = try #require(SpecFrontEnd.run(source: """
            state Mail {
              var messages: IdentifiedList<Message> = []
              computed starredUnread: Int { messages.filter { !$0.isRead }.count(where: { $0.isStarred }) }
            }
            """, path: "t.statespec").spec?.states.first)
        #expect(suggested.freshness(ofComputed: "starredUnread")?.strategy == .fold(list: "messages"))
    }

    @Test("a fold of a view chained from another view is given as a fold of the first view's list")
    func foldsOfChainedViews() {
        let diagnostics = FrontEnd.diagnostics("""
            state Mail {
              var messages: IdentifiedList<Message> = []
              computed timeline: ListView<Message> { messages.sorted(by: \\.date) }
              computed unread: ListView<Message> { timeline.filter { !$0.isRead } }
              computed count: Int { unread.count(where: { $0.isStarred }) }
            }
            """)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("5:25: computed 'count' folds the 'ListView' value 'unread'") == true)
        #expect(diagnostics.first?.contains("'messages.filter { !$0.isRead }.count(where: { $0.isStarred })'") == true)
    }
}
