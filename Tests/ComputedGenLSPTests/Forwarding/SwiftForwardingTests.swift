import ComputedGenCore
import Testing

@testable import ComputedGenLSP

/// Forwarding to sourcekit-lsp without sourcekit-lsp: what it sends back is mapped into the spec,
/// and every reason it cannot forward is told once while the spec's own completion goes on.
/// (`Tests/LSPClientTests/test_forwarding.py` drives the toolchain's sourcekit-lsp over a package.)
@Suite("Swift forwarding: mapping back and telling why not")
struct SwiftForwardingTests {
    @Test("an item's edit range moves from the generated file to the spec; one outside it is dropped")
    func mapBack() throws {
        let text = try Repository.fixture("Todo.statespec")
        let document = SpecDocument(uri: "file:///tmp/Todo.statespec", version: 1, text: text)
        let swift = try #require(Generator.generate(source: text, path: "/tmp/Todo.statespec").swift)
        let map = SourceMap(generated: swift)
        let generated = LineTable(swift)
        let line = try #require(swift.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("$0.owner") })
        let column = try #require(swift.split(separator: "\n", omittingEmptySubsequences: false)[line].utf8.split(separator: UInt8(ascii: "$")).first?.count) + 3
        let at: JSONValue = ["line": .int(line), "character": .int(column)]
        let item: JSONValue = ["label": "owner", "textEdit": ["range": ["start": at, "end": at], "newText": "owner"], "data": [1]]
        let mapped = SwiftForwarding.mapBack(item, map: map, generated: generated, document: document)
        let specLine = text.components(separatedBy: "\n").firstIndex { $0.contains("$0.owner") } ?? -1
        #expect(mapped["textEdit"]?["range"]?["start"]?["line"] == .int(specLine))
        #expect(mapped["data"] == nil)
        let outside: JSONValue = ["label": "x", "textEdit": ["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "newText": "x"]]
        let dropped = SwiftForwarding.mapBack(outside, map: map, generated: generated, document: document)
        #expect(dropped["textEdit"] == nil)
        #expect(dropped["insertText"] == "x")
    }

    @Test("a spec with errors, a sourcekit-lsp that does not answer: said once each, spec completion still served")
    func unavailable() throws {
        let server = LanguageServer(sourceKitLSP: "/nonexistent/sourcekit-lsp")
        _ = server.handle(.request(id: .int(1), method: "initialize", params: ["capabilities": [:]]))
        let uri = Repository.root.appendingPathComponent("Fixtures/Specs/Todo.statespec").absoluteString
        var text = try Repository.fixture("Todo.statespec")
        _ = server.handle(.notification(method: "textDocument/didOpen", params: ["textDocument": ["uri": .string(uri), "version": 1, "text": .string(text)]]))
        let position = ServerHarness.position(of: "visibleTodos.count", in: text, uri: uri)
        for expectedMessages in [1, 0] {
            let replies = server.handle(.request(id: .int(2), method: "textDocument/completion", params: position))
            #expect(replies.filter { $0["method"] == "window/showMessage" }.count == expectedMessages)
            #expect(replies.first?["result"]?["items"]?.arrayValue?.contains { $0["label"] == "todos" } == true)
            #expect(replies.first?["result"]?["isIncomplete"] == true)
        }
        text += "state {"
        _ = server.handle(.notification(method: "textDocument/didChange", params: ["textDocument": ["uri": .string(uri), "version": 2], "contentChanges": [["text": .string(text)]]]))
        let replies = server.handle(.request(id: .int(3), method: "textDocument/completion", params: position))
        let message = replies.first { $0["method"] == "window/showMessage" }?["params"]?["message"]?.stringValue ?? ""
        #expect(message.contains("need a spec without errors"))
    }

    @Test("the package root is the nearest folder with a Package.swift")
    func packageRoot() {
        let spec = Repository.root.appendingPathComponent("Examples/TodoList/Sources/TodoList/Todo.statespec").path
        #expect(SwiftForwarding.packageRoot(of: spec) == Repository.root.appendingPathComponent("Examples/TodoList").path)
        #expect(SwiftForwarding.packageRoot(of: "/nowhere/at/all.statespec") == nil)
    }
}
