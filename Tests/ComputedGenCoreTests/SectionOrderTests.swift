import Testing

import ComputedGenCore

/// Computed values declared as `ListSections<…>`: the body's key order is found, the inputs only
/// it reads are passed to the runtime (which then sorts the keys again rather than evaluating the
/// groups in full), and misuse is reported at the spec's line and column.
@Suite("Sections in order (ListSections computed values)")
struct SectionOrderTests {
    static let reader = """
        state Reader {
          var articles: IdentifiedList<Article> = []
          var names: [Int: String] = [:]
          var query: String = ""
          computed sidebar: ListSections<Int, Article> {
            articles.filter { $0.title.contains(query) }.grouped(by: \\.feedID)
              .sortedKeys { names[$0, default: ""] < names[$1, default: ""] }
          }
          computed byCount: ComputedRuntime.ListSections<Int, Article> {
            articles.grouped { $0.feedID }.sortedKeys { a, b in articles.count { $0.feedID == a } > articles.count { $0.feedID == b } }
          }
          computed byQuery: ListSections<Int, Article> {
            articles.grouped(by: \\.feedID).sortedKeys { _, _ in query.isEmpty }
          }
          computed ascending: ListSections<Int, Article> { articles.grouped(by: \\.feedID).sortedKeys() }
        }
        """

    @Test("the entry is sections, with the inputs only the key order reads (and the list, when the order reads it)")
    func emitsOrderInputs() throws {
        #expect(DerivedCollectionTypes.isListSections("ListSections<Int, Article>"))
        #expect(DerivedCollectionTypes.isListSections("ComputedRuntime.ListSections<Int, Article>"))
        #expect(!DerivedCollectionTypes.isListSections("ListGroups<Int, Article>"))
        #expect(FrontEnd.diagnostics(Self.reader).isEmpty)
        let swift = try Emit.swift(Self.reader)
        #expect(swift.contains("table.sections(\"sidebar\", \\._sidebar, \\.sidebar, inputs: \"articles query names\", orderInputs: \"names\") {"))
        #expect(swift.contains("table.sections(\"byCount\", \\._byCount, \\.byCount, inputs: \"articles\", orderInputs: \"articles\") {"))
        // `query` is read by the order and by nothing else here: an order input too.
        #expect(swift.contains("table.sections(\"byQuery\", \\._byQuery, \\.byQuery, inputs: \"articles query\", orderInputs: \"query\") {"))
        #expect(swift.contains("table.sections(\"ascending\", \\._ascending, \\.ascending, inputs: \"articles\", source: \\._articles) {"))
        #expect(swift.contains("static func sidebar(_ articles: __articlesType, _ query: __queryType, _ names: __namesType) "
                               + "-> some ComputedRuntime.IncrementalListQuery<__sidebarType> {"))
        #expect(swift.contains("Maintained incrementally: follows the changes of `articles`; sorts its sections again after `names` changes; "
                               + "evaluated in full after `query` changes."))
    }

    @Test("the key order's call, the member before it and its references are found in the tokens")
    func findsCalls() {
        let body = Body(text: " articles.grouped(by: \\.feed) { x }.sortedKeys(by: \\.name) { names[$0]! < names[$1]! } ",
                        at: SourceLocation(line: 3, column: 10, offset: 40), openBrace: SourceLocation(line: 3, column: 9, offset: 39))
        let calls = SectionOrders.calls(in: body)
        #expect(calls.count == 1)
        #expect(calls.first?.previousMember == "grouped")
        #expect(calls.first?.orderReferences == ["names"])
        #expect(calls.first?.otherReferences == ["articles", "x"])
        #expect(calls.first?.location.line == 3 && calls.first?.location.column == 46)
    }

    @Test("misuse is an error at the type or at 'sortedKeys', with the form that works")
    func misuse() {
        let errors = FrontEnd.diagnostics("""
            state S {
              var articles: IdentifiedList<Article> = []
              computed a: ListSections<Int, Article> { articles.grouped(by: \\.feedID) }
              computed b: ListSections<Int, Article> { articles.sorted(by: \\.date).sortedKeys() }
              computed c: ListGroups<Int, Article> { articles.grouped(by: \\.feedID).sortedKeys() }
            }
            """)
        #expect(errors == [
            "3:15: computed 'a' is a 'ListSections', groups in an order of their keys, but its body orders no keys; "
                + "end it with '.grouped(by: …).sortedKeys(…)', as in 'articles.grouped(by: \\.feedID).sortedKeys()'",
            "4:72: 'sortedKeys' orders the keys of groups: call it on 'grouped(by:)', as in 'articles.grouped(by: \\.feedID).sortedKeys()'",
            "5:73: 'grouped(by:).sortedKeys' gives sections in order: declare 'c' as 'ListSections<Key, Element>' "
                + "(or drop 'sortedKeys' and declare it as 'ListGroups<Key, Element>')",
        ])
        let overArray = FrontEnd.diagnostics("""
            state S {
              var articles: [Article] = []
              computed a: ListSections<Int, Article> { articles.grouped(by: \\.feedID).sortedKeys() }
            }
            """)
        #expect(overArray.first?.hasPrefix("3:15: computed 'a' is a 'ListSections', maintained incrementally from an 'IdentifiedList' field") == true)
    }
}
