import Testing

import ComputedGenCore

/// Joins in the spec: a computed `IdentifiedList` whose body is one `join` or `leftJoin` call is
/// maintained by the runtime's join, which follows both sides; values chained from the rows follow
/// the rows' changes; the forms that would not compile are errors at the operator, with the form
/// that works.
@Suite("Joins: rows that show related data")
struct JoinTests {
    static let spec = """
        state Reader {
          var articles: IdentifiedList<Article> = []
          var feeds: IdentifiedList<Feed> = []
          var names: [Int: String] = [:]
          var query: String = ""
          computed rows: IdentifiedList<Row> { articles.join(feeds, on: \\.feedID) { Row(article: $0, feed: $1) } }
          computed all: IdentifiedList<Row> { return articles.leftJoin(feeds, on: \\.feedID) { Row(article: $0, feed: $1) } }
          computed named: IdentifiedList<Named> { rows.leftJoin(names, on: \\.folderID) { Named(row: $0, name: $1) } }
          computed counted: IdentifiedList<Row> { articles.join(feeds, on: \\.feedID) { Row(article: $0, feed: $1, of: feeds.count) } }
          computed matching: IdentifiedList<Row> { articles.join(feeds, on: \\.feedID) { Row(article: $0, feed: $1, query) } }
          computed timeline: ListView<Row> { rows.sorted(by: \\.date) }
          computed byFolder: ListGroups<Int, Row> { rows.grouped(by: \\.folderID) }
          computed sections: ListSections<Int, Row> { rows.grouped(by: \\.folderID).sortedKeys { names[$0, default: ""] < names[$1, default: ""] } }
          computed unread: Int { rows.count(where: { !$0.isRead }) }
          computed plain: IdentifiedList<Article> { IdentifiedList(articles.prefix(3)) }
        }
        """

    @Test("a join follows both sides; values chained from its rows follow the rows")
    func tableEntries() throws {
        #expect(FrontEnd.diagnostics(Self.spec).isEmpty)
        let swift = try #require(Generator.generate(source: Self.spec, path: "Reader.statespec").swift)
        #expect(swift.contains(#"table.joined("rows", \._rows, \.rows, inputs: "articles feeds", sourceInputs: "feeds") {"#))
        #expect(swift.contains(#"table.joined("all", \._all, \.all, inputs: "articles feeds", sourceInputs: "feeds") {"#))
        // A join of a join: the rows it starts from and the dictionary are both followed.
        #expect(swift.contains(#"table.joined("named", \._named, \.named, inputs: "rows names", sourceInputs: "rows names") {"#))
        // The other side read in a closure too: its moves evaluate the join in full.
        #expect(swift.contains(#"table.joined("counted", \._counted, \.counted, inputs: "articles feeds", unfollowedLists: "feeds") {"#))
        // Another input: evaluated in full when it moves.
        #expect(swift.contains(#"table.joined("matching", \._matching, \.matching, inputs: "articles feeds query", sourceInputs: "feeds") {"#))
        #expect(swift.contains(#"table.incremental("timeline", \._timeline, \.timeline, inputs: "rows", sourceInputs: "rows") {"#))
        #expect(swift.contains(#"table.grouped("byFolder", \._byFolder, \.byFolder, inputs: "rows", sourceInputs: "rows") {"#))
        #expect(swift.contains(#"inputs: "rows names", orderInputs: "names", sourceInputs: "rows") {"#))
        #expect(swift.contains(#"table.fold("unread", \._unread, \.unread, inputs: "rows", sourceInputs: "rows") {"#))
        // An IdentifiedList that is not a join is an ordinary computed value.
        #expect(swift.contains(#"table.computed("plain", \.plain, inputs: "articles") {"#))
        #expect(swift.contains("static func rows(_ articles: __articlesType, _ feeds: __feedsType) -> some ComputedRuntime.IncrementalListQuery<__rowsType> {"))
        #expect(swift.contains("/// Maintained incrementally: follows the changes of `articles` and `feeds`."))
        #expect(swift.contains("/// Maintained incrementally: follows the changes of `articles` and `feeds`; evaluated in full after `query` changes."))
        let state = try #require(SpecFrontEnd.run(source: Self.spec, path: "t.statespec").spec?.states.first)
        #expect(state.freshness(ofComputed: "rows")?.strategy == .join)
        #expect(state.freshness(ofComputed: "rows")?.followedLists == ["articles", "feeds"])
        #expect(state.freshness(ofComputed: "counted")?.followedLists == ["articles"])
        #expect(state.freshness(ofComputed: "timeline")?.followedLists == ["rows"])
        #expect(state.freshness(ofComputed: "plain")?.strategy == .memoized)
    }

    @Test("an operator before or after a join, or a join declared as another type, is an error at it")
    func mistakes() {
        let errors = FrontEnd.diagnostics("""
            state Timeline {
              var articles: IdentifiedList<Article> = []
              var feeds: IdentifiedList<Feed> = []
              computed timeline: ListView<Row> {
                articles.join(feeds, on: \\.feedID) { Row(article: $0, feed: $1) }.sorted(by: \\.date)
              }
              computed unread: IdentifiedList<Row> { articles.filter { !$0.isRead }.join(feeds, on: \\.feedID) { Row(article: $0, feed: $1) } }
              computed view: ListView<Row> { articles.join(feeds, on: \\.feedID) { Row(article: $0, feed: $1) } }
              computed array: [Row] { articles.leftJoin(feeds, on: \\.feedID) { Row(article: $0, feed: $1) } }
            }
            """)
        #expect(errors == [
            "5:71: computed 'timeline' chains 'sorted' after 'join': a join's rows are a value of their own, which views, sections "
                + "and folds start from; declare them ('computed rows: IdentifiedList<Row> { articles.join(…) { … } }') and start "
                + "'timeline' from them ('rows.sorted(…)')",
            "7:73: computed 'unread' calls 'join' after 'filter': a join starts from the list itself; declare the join as a value of "
                + "its own ('computed rows: IdentifiedList<Row> { articles.join(…) { … } }') and apply 'filter' to its rows, in "
                + "'unread' ('rows.filter(…)')",
            "8:18: computed 'view' is a join, whose value is the 'IdentifiedList' of its rows, not a 'ListView<Row>'; declare 'view' "
                + "as 'IdentifiedList<Row>', and start a view of the rows from it in another value ('view.sorted(…)')",
            "9:19: computed 'array' is a join, whose value is the 'IdentifiedList' of its rows, not a '[Row]'; declare 'array' as "
                + "'IdentifiedList<Row>', and start a view of the rows from it in another value ('array.sorted(…)')",
        ])
    }

    @Test("recognised by the whole body's form only")
    func recognition() {
        let lists: Set<String> = ["articles", "rows"]
        let type = "IdentifiedList<Row>"
        #expect(IncrementalJoins.join(inBody: "articles.join(feeds, on: \\.feedID) { Row($0, $1) }", type: type, lists: lists)
                == .init(list: "articles", other: "feeds"))
        #expect(IncrementalJoins.join(inBody: "return rows.leftJoin(names, on: \\.id, { Row($0, $1) })", type: type, lists: lists)
                == .init(list: "rows", other: "names"))
        // The other side is not a plain name: nothing to follow.
        #expect(IncrementalJoins.join(inBody: "articles.join(self.feeds, on: \\.feedID) { Row($0, $1) }", type: type, lists: lists)
                == .init(list: "articles", other: nil))
        #expect(IncrementalJoins.join(inBody: "articles.join(feeds, on: \\.feedID) { Row($0, $1) }", type: "[Row]", lists: lists) == nil)
        #expect(IncrementalJoins.join(inBody: "drafts.join(feeds, on: \\.feedID) { Row($0, $1) }", type: type, lists: lists) == nil)
        #expect(IncrementalJoins.join(inBody: "articles.join(feeds, on: \\.feedID) { Row($0, $1) }.reversed()", type: type, lists: lists) == nil)
        #expect(IncrementalJoins.join(inBody: "articles.joined(feeds)", type: type, lists: lists) == nil)
        #expect(IncrementalJoins.join(inBody: "articles.join(feeds, on: \\.feedID) { Row($0, $1) } + []", type: type, lists: lists) == nil)
    }
}
