import Testing

@testable import ComputedGenLSP

@Suite("Definition, references and rename")
struct NavigationTests {
    static let text = """
        state S {
          var todos: [Int] = []
          computed count: Int from todos { todos.count }
          computed twice: Int { count * 2 }
          selector todos(ownedBy owner: Int) -> [Int] { todos.filter { $0 == owner } }
        }
        """

    static func harness() -> ServerHarness {
        let harness = ServerHarness.initialized()
        harness.open(text)
        return harness
    }

    static func range(_ line: Int, _ start: Int, _ end: Int) -> JSONValue {
        ["start": ["line": .int(line), "character": .int(start)], "end": ["line": .int(line), "character": .int(end)]]
    }

    @Test("definition from a body, a from list and the declaration itself")
    func definition() {
        let harness = Self.harness()
        for (needle, delta) in [("count * 2", 0), ("count * 2", 5), ("from todos", 6), ("var todos", 5)] {
            let result = harness.request("textDocument/definition", ServerHarness.position(of: needle, in: Self.text, delta: delta))["result"]
            let expected = needle.hasPrefix("count") ? Self.range(2, 11, 16) : Self.range(1, 6, 11)
            #expect(result?["range"] == expected, "\(needle)")
        }
        #expect(harness.request("textDocument/definition", ServerHarness.position(of: "[Int]", in: Self.text, delta: 2))["result"] == .null)
    }

    @Test("references of a field: declaration, from list and bodies, not the selector of the same name")
    func references() {
        let harness = Self.harness()
        var params = ServerHarness.position(of: "var todos", in: Self.text, delta: 6)
        if case .object(var members) = params { members["context"] = ["includeDeclaration": false]; params = .object(members) }
        let result = harness.request("textDocument/references", params)["result"]?.arrayValue ?? []
        #expect(result.map { $0["range"] } == [Self.range(2, 27, 32), Self.range(2, 35, 40), Self.range(4, 48, 53)])
    }

    @Test("prepareRename gives the name's range; rename edits every occurrence")
    func rename() throws {
        let harness = Self.harness()
        let position = ServerHarness.position(of: "todos.count", in: Self.text, delta: 2)
        let prepared = harness.request("textDocument/prepareRename", position)["result"]
        #expect(prepared?["range"] == Self.range(2, 35, 40))
        #expect(prepared?["placeholder"] == "todos")
        var params = position
        if case .object(var members) = params { members["newName"] = "items"; params = .object(members) }
        let edits = harness.request("textDocument/rename", params)["result"]?["changes"]?["file:///tmp/Spec.statespec"]?.arrayValue ?? []
        #expect(edits.count == 4)
        #expect(edits.allSatisfy { $0["newText"] == "items" })
        #expect(harness.request("textDocument/prepareRename", ServerHarness.position(of: "state", in: Self.text))["result"] == .null)
    }

    @Test("rename refuses what would change the spec's meaning or is not a name", arguments: [
        ("count", "twice", true), ("count", "9lives", true), ("count", "a b", true), ("count", "_hidden", true),
        ("todos", "owner", true), ("count", "default", false), ("count", "`total`", false), ("todos", "todos", false),
    ])
    func renameChecks(_ member: String, _ newName: String, _ refused: Bool) {
        let harness = Self.harness()
        var params = ServerHarness.position(of: member == "count" ? "count * 2" : "var todos", in: Self.text, delta: member == "count" ? 1 : 5)
        if case .object(var members) = params { members["newName"] = .string(newName); params = .object(members) }
        let response = harness.request("textDocument/rename", params)
        #expect((response["error"]?["code"] == -32803) == refused, "\(newName): \(response)")
        if newName == "default" {
            #expect(response["result"]?["changes"]?["file:///tmp/Spec.statespec"]?.arrayValue?.first?["newText"] == "`default`")
        }
    }
}
