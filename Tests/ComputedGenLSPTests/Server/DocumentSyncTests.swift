import ComputedGenCore
import Testing

@testable import ComputedGenLSP

@Suite("Document sync and diagnostics")
struct DocumentSyncTests {
    static let uri = "file:///tmp/Spec.statespec"

    @Test("diagnostics are the build's: same messages, starting where the build's line:column points")
    func sameAsBuild() throws {
        let text = "state S {\n  var é: Int = 0\n  computed 😀x: Int { é }\n  computed total: Int { missing + é }\n  @Bogus var b: Int = 0\n}\n"
        let harness = ServerHarness.initialized()
        let published = harness.open(text)
        let build = Generator.generate(source: text, path: DocumentURI.path(of: Self.uri)).diagnostics
        #expect(!build.isEmpty)
        #expect(published.map { $0["message"]?.stringValue } == build.map(\.message))
        let lines = text.components(separatedBy: "\n")
        for (lsp, diagnostic) in zip(published, build) {
            let line = lines[diagnostic.location.line - 1]
            let prefix = String(decoding: Array(line.utf8)[..<(diagnostic.location.column - 1)], as: UTF8.self)
            #expect(lsp["range"]?["start"] == ["line": .int(diagnostic.location.line - 1), "character": .int(prefix.utf16.count)])
            #expect(lsp["severity"] == 1)
            #expect(lsp["source"] == "computedgen")
        }
    }

    @Test("a diagnostic's range covers the token it points at")
    func ranges() throws {
        let harness = ServerHarness.initialized()
        let published = harness.open("state S {\n  var a: Int = 0\n  computed b: Int from nothing { a }\n}\n")
        let range = try #require(published.first?["range"])
        #expect(range == ["start": ["line": 2, "character": 23], "end": ["line": 2, "character": 30]])
    }

    @Test("full and incremental changes, each publishing the new version's diagnostics; close clears them")
    func changes() throws {
        let harness = ServerHarness.initialized()
        #expect(harness.open("state S {\n  var a: Int = 0\n}\n").isEmpty)
        // Incremental: `a` → `é😀` (a name the checker rejects), in UTF-16 positions.
        var replies = harness.notify("textDocument/didChange", [
            "textDocument": ["uri": .string(Self.uri), "version": 2],
            "contentChanges": [["range": ["start": ["line": 1, "character": 6], "end": ["line": 1, "character": 7]], "text": "é😀"]],
        ])
        #expect(harness.server.documents[Self.uri]?.text == "state S {\n  var é😀: Int = 0\n}\n")
        #expect(replies.first?["params"]?["version"] == 2)
        // Then a second edit in the same notification, after the surrogate pair.
        replies = harness.notify("textDocument/didChange", [
            "textDocument": ["uri": .string(Self.uri), "version": 3],
            "contentChanges": [
                ["range": ["start": ["line": 1, "character": 6], "end": ["line": 1, "character": 9]], "text": "b"],
                ["range": ["start": ["line": 1, "character": 7], "end": ["line": 1, "character": 7]], "text": "c"],
            ],
        ])
        #expect(harness.server.documents[Self.uri]?.text == "state S {\n  var bc: Int = 0\n}\n")
        #expect(replies.first?["params"]?["diagnostics"] == [])
        replies = harness.notify("textDocument/didChange", ["textDocument": ["uri": .string(Self.uri), "version": 4], "contentChanges": [["text": "state {"]]])
        #expect(replies.first?["params"]?["diagnostics"]?.arrayValue?.isEmpty == false)
        replies = harness.notify("textDocument/didClose", ["textDocument": ["uri": .string(Self.uri)]])
        #expect(replies.first?["params"]?["diagnostics"] == [])
        #expect(harness.server.documents.isEmpty)
    }

    @Test("a spec mid-edit gets diagnostics and every feature still answers", arguments: [
        "state S {\n  var a: Int = 0\n  computed b: Int { a +\n",
        "state S {\n  var a: Int = 0\n  computed b: Int { (a + \n}\n}\n",
        "state S {\n  var a: \n  computed b: Int from a, { a }\n",
        "state S {\n  @Shared(.inMemory(\"k\"\n  var a: Int = 0\n}\n",
        "state S {\n  selector f(_ x: -> Int { \"\\(x\" }\n}\n",
        "}}}}{{{{ state state state \"\"\" /* ",
        "",
    ])
    func midEdit(_ text: String) throws {
        let harness = ServerHarness.initialized()
        let diagnostics = harness.open(text)
        if !text.isEmpty { #expect(!diagnostics.isEmpty) }
        FeatureSweep.everyPosition(in: text, harness: harness)
    }

    @Test("a 1 MB spec is analysed, its diagnostics published, its features answer")
    func oneMegabyte() throws {
        var text = LargeSpecs.members(15_000)
        text += String(repeating: "// padding\n", count: max(0, (1 << 20) - text.utf8.count) / 11)
        #expect(text.utf8.count >= 1 << 20 - 16)
        let harness = ServerHarness.initialized()
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(harness.open(text).isEmpty) }
        print("1 MB spec (15,000 members): diagnostics in \(elapsed)")
        let symbols = harness.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])
        #expect(symbols["result"]?.arrayValue?.first?["children"]?.arrayValue?.count == 15_000)
        let tokens = harness.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Self.uri)]])
        #expect((tokens["result"]?["data"]?.arrayValue?.count ?? 0) > 15_000 * 5)
    }
}
