import Testing

import ComputedGenCore

/// Which values maintained incrementally have their query built once (`source:` in the table
/// entry): those whose only input is the list their chain starts from, read nowhere else in the
/// body, so that the query's closures read nothing that can change.
@Suite("Queries built once: the table's source argument")
struct QuerySourceTests {
    @Test("values that read only their list, where the chain starts, name it as their source")
    func sources() throws {
        let spec = """
            state Reader {
              var articles: IdentifiedList<Article> = []
              var query: String = ""
              var names: [Int: String] = [:]
              computed unread: ListView<Article> { articles.filter { !$0.isRead }.sorted(by: \\.date) }
              computed top: ListView<String> { return articles.sorted(by: \\.date).prefix(5).map(\\.title) }
              computed unreadCount: Int { articles.count(where: { !$0.isRead }) }
              computed byFeed: KeyedTotals<Int, Int> { articles.filter { !$0.isRead }.count(by: \\.feedID) }
              computed groups: ListGroups<Int, Article> { articles.sorted(by: \\.date).grouped(by: \\.feedID) }
              computed matching: ListView<Article> { articles.filter { $0.title.contains(query) } }
              computed newest: ListView<Article> { articles.filter { $0.date == articles.last?.date } }
              computed unreadInView: ListView<Article> { unread.filter { $0.isStarred } }
              computed sections: ListSections<Int, Article> { articles.grouped(by: \\.feedID).sortedKeys { names[$0, default: ""] < names[$1, default: ""] } }
              computed plain: [Article] { articles.elements.filter { $0.isRead } }
            }
            """
        #expect(FrontEnd.diagnostics(spec).isEmpty)
        let swift = try #require(Generator.generate(source: spec, path: "Reader.statespec").swift)
        for name in ["unread", "top", "groups"] {
            #expect(swift.contains(#"(""# + name + #"", \._"# + name + #", \."# + name + #", inputs: "articles", source: \._articles) {"#))
        }
        #expect(swift.contains(#"table.fold("unreadCount", \._unreadCount, \.unreadCount, inputs: "articles", source: \._articles) {"#))
        #expect(swift.contains(#"table.fold("byFeed", \._byFeed, \.byFeed, inputs: "articles", source: \._articles) {"#))
        // Another input, the list read in a closure too (then not followed either), a view's source,
        // an order reading another field, an ordinary value: built on each refresh.
        #expect(swift.contains(#"table.incremental("matching", \._matching, \.matching, inputs: "articles query") {"#))
        #expect(swift.contains(#"table.incremental("newest", \._newest, \.newest, inputs: "articles", unfollowedLists: "articles") {"#))
        #expect(swift.contains(#"inputs: "unread", sourceInputs: "unread") {"#))
        #expect(swift.contains(#"inputs: "articles names", orderInputs: "names") {"#))
        #expect(!swift.contains(#"table.computed("plain", \.plain, inputs: "articles", source:"#))
        #expect(swift.components(separatedBy: "source: ").count - 1 == 5)
    }
}
