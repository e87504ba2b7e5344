import Testing

@testable import ComputedGenLSP

@Suite("Hover")
struct HoverTests {
    static func hover(_ needle: String, delta: Int = 1, in text: String) -> String? {
        let harness = ServerHarness.initialized()
        harness.open(text)
        return harness.request("textDocument/hover", ServerHarness.position(of: needle, in: text, delta: delta))["result"]?["contents"]?["value"]?.stringValue
    }

    @Test("a computed value: declaration, doc comment, inputs and readers, upkeep and why")
    func computed() throws {
        let text = try Repository.fixture("Todo.statespec")
        let value = try #require(Self.hover("visibleTodos: [Todo]", in: text))
        #expect(value.hasPrefix("```swift\ncomputed visibleTodos: [Todo]\n```"))
        #expect(value.contains("The todos the list shows."))
        #expect(value.contains("Recomputed when `todos`, `filter` or `query` changes; read by `visibleCount`."))
        #expect(value.contains("Recomputed in full, on the first read after a change: it reads no `IdentifiedList` field"))
        // From a reference in another body, the same hover.
        #expect(Self.hover("visibleTodos.count", in: text) == value)
        #expect(Self.hover("doneCount", in: text)?.contains("Recomputed when `todos` changes (its `from` list).") == true)
    }

    @Test("a field: its storage and what reads it")
    func field() throws {
        let text = try Repository.fixture("Todo.statespec")
        let value = try #require(Self.hover("var todos", delta: 5, in: text))
        #expect(value.contains("Every todo, in display order."))
        #expect(value.contains("Read by `visibleTodos`, `doneCount` and `todos(ownedBy:)`."))
        #expect(Self.hover("unread", in: text)?.contains("An `@Edge` field") == true)
    }

    @Test("incremental values say so and why; folds and values that are not one say why not")
    func incremental() throws {
        let text = try Repository.fixture("Inbox.statespec")
        let unread = try #require(Self.hover("computed unread:", delta: 10, in: text))
        #expect(unread.contains("Maintained incrementally: follows the changes of `messages`."))
        #expect(unread.contains("It is a `ListView`"))
        let matching = try #require(Self.hover("computed matching:", delta: 10, in: text))
        #expect(matching.contains("evaluated in full after `query` changes"))
        let total = try #require(Self.hover("computed unreadTotal", delta: 10, in: text))
        #expect(total.contains("a fold (count, sum or reversible reduce) of `messages`"))
        let plus = try #require(Self.hover("computed b", delta: 10, in: "state S {\n  var m: IdentifiedList<M> = []\n  computed b: Int { m.count(where: { $0.x }) + 1 }\n}\n"))
        #expect(plus.contains("its type is not a `ListView` and its body is not a recognised fold of `m`"))
    }

    @Test("a selector: what it reads and its cache; an attribute; nothing on other text")
    func selectorAndAttributes() throws {
        let text = try Repository.fixture("Todo.statespec")
        let selector = try #require(Self.hover("selector todos", delta: 10, in: text))
        #expect(selector.contains("selector todos(ownedBy owner: Int) -> [Todo]"))
        #expect(selector.contains("Reevaluated when `todos` changes, memoized per argument (the last 256 arguments, the runtime's default)."))
        #expect(Self.hover("@Edge(assert", delta: 2, in: text)?.hasPrefix("`@Edge`") == true)
        #expect(Self.hover("import Foundation", delta: 2, in: text) == nil)
    }

    @Test("a client that reads only plain text gets plain text, without code fences")
    func plainText() throws {
        let text = try Repository.fixture("Todo.statespec")
        let harness = ServerHarness.initialized(markdown: false)
        harness.open(text)
        let contents = harness.request("textDocument/hover", ServerHarness.position(of: "visibleCount", in: text, delta: 2))["result"]?["contents"]
        #expect(contents?["kind"] == "plaintext")
        #expect(contents?["value"]?.stringValue?.hasPrefix("computed visibleCount: Int\n\nRecomputed when `visibleTodos` changes.") == true)
        let completion = harness.request("textDocument/completion", ServerHarness.position(of: "visibleTodos.count", in: text))
        #expect(completion["result"]?.arrayValue?.first?["documentation"]?["kind"] == "plaintext")
    }

    @Test("while the spec has errors, the members still hover, without the upkeep")
    func withErrors() throws {
        let value = try #require(Self.hover("computed b", delta: 10, in: "state S {\n  var a: Int = 0\n  computed b: Int { a }\n  computed c: Int { b + 1 }\n  @Bogus var d: Int = 0\n}\n"))
        #expect(value.contains("Recomputed when `a` changes; read by `c`."))
        #expect(value.contains("shown once the spec has no errors"))
    }
}
