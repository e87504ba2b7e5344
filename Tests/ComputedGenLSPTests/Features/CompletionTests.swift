import Testing

@testable import ComputedGenLSP

@Suite("Completion")
struct CompletionTests {
    static let text = """
        import Foundation

        state S {
          /// All of them.
          var todos: [Todo] = []
          var query: String = ""
          @Shared(.) var session: Session = Session()
          @Edge() var badge: Int = 0
          computed visible: [Todo] { todos.filter { $0.title.contains(query) } }
          computed count: Int from todos,  { visible.count }
          selector matching(_ text: String) -> [Todo] {  }
          computed total: Int 
          @ // attribute
        }

        """

    static func items(at needle: String, delta: Int = 0, in text: String = text, snippets: Bool = false) -> [JSONValue] {
        let harness = ServerHarness.initialized(snippets: snippets)
        harness.open(text)
        return harness.request("textDocument/completion", ServerHarness.position(of: needle, in: text, delta: delta))["result"]?.arrayValue ?? []
    }

    static func labels(at needle: String, delta: Int = 0, in text: String = text) -> [String] {
        items(at: needle, delta: delta, in: text).compactMap { $0["label"]?.stringValue }
    }

    @Test("in a body: the state's fields and computed values, not the value itself, with type and doc")
    func body() throws {
        #expect(Self.labels(at: "visible.count", delta: 2) == ["todos", "query", "session", "badge", "visible", "total"])
        #expect(Self.labels(at: "todos.filter", delta: 0) == ["todos", "query", "session", "badge", "count", "total"])
        let todos = try #require(Self.items(at: "visible.count").first { $0["label"] == "todos" })
        #expect(todos["detail"] == "[Todo]")
        #expect(todos["documentation"]?["value"]?.stringValue?.hasPrefix("All of them.") == true)
        #expect(todos["kind"] == 5)
    }

    @Test("in a selector's body, its parameters come first")
    func selectorBody() {
        #expect(Self.labels(at: "String) -> [Todo] {  }", delta: 20).prefix(2) == ["text", "todos"])
    }

    @Test("after '.' in Swift code, and in types and default values: nothing (Swift's)")
    func swiftCode() {
        #expect(Self.labels(at: "$0.title", delta: 3).isEmpty)
        #expect(Self.labels(at: "[Todo] = []", delta: 2).isEmpty)
        #expect(Self.labels(at: "\"\"", delta: 1).isEmpty)
    }

    @Test("in a from list: fields and computed values")
    func fromList() {
        #expect(Self.labels(at: "from todos,  {", delta: 12) == ["todos", "query", "session", "badge", "visible", "count", "total"])
        #expect(Self.labels(at: "from todos", delta: 5) == ["todos", "query", "session", "badge", "visible", "count", "total"])
    }

    @Test("attributes after '@', their arguments inside @Shared( and @Edge(")
    func attributes() throws {
        let names = Self.labels(at: "@ // attribute", delta: 1)
        #expect(names.contains("@Edge") && names.contains("@Shared(.fileStorage)") && names.contains("@NoCutoff"))
        #expect(Self.labels(at: "@Shared(.)", delta: 9) == [".inMemory", ".fileStorage", ".appStorage"])
        #expect(Self.labels(at: "@Edge()", delta: 6) == ["assert:", "onSet:", "middleware:"])
        let strategy = try #require(Self.items(at: "@Shared(.)", delta: 9).first)
        #expect(strategy["textEdit"]?["range"]?["start"]?["character"] == 10)  // Replaces the typed '.'.
        #expect(strategy["textEdit"]?["newText"] == ".inMemory(\"key\")")
        let snippet = try #require(Self.items(at: "@Shared(.)", delta: 9, snippets: true).first)
        #expect(snippet["textEdit"]?["newText"] == ".inMemory(\"${1:key}\")")
        #expect(snippet["insertTextFormat"] == 2)
    }

    @Test("keywords: at a member's start, after a computed value's type, at the top level")
    func keywords() {
        let member = Self.labels(at: "  /// All", delta: 0)
        #expect(member.prefix(3) == ["var", "computed", "selector"])
        #expect(Self.labels(at: "computed total: Int ", delta: 20) == ["from"])
        #expect(Self.labels(at: "selector matching", delta: 0).prefix(3) == ["var", "computed", "selector"])
        #expect(Self.labels(at: "String) -> [Todo] {", delta: 17) == ["from", "cache"])
        #expect(Self.labels(at: "import Foundation", delta: 0) == ["state", "import", "public"])
    }
}
