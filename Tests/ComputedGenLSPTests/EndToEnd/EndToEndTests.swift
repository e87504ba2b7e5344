import Foundation
import Testing

@testable import ComputedGenLSP

/// The built server, started as an editor starts it and driven over pipes.
@Suite("End to end: the computedgen-lsp executable over pipes", .serialized, .timeLimit(.minutes(2)))
struct EndToEndTests {
    static let uri = "file:///tmp/e2e/Todo.statespec"

    static func at(_ needle: String, _ delta: Int, in text: String) -> JSONValue {
        ServerHarness.position(of: needle, in: text, delta: delta, uri: uri)
    }

    @Test("initialize, open, change, completion, hover, definition, symbols, semantic tokens, shutdown, exit")
    func session() throws {
        let server = try ServerProcess()
        let initialized = try server.request("initialize", ["processId": .null, "rootUri": .null, "capabilities": [:]])
        #expect(initialized["result"]?["capabilities"]?["completionProvider"] != nil)
        server.notify("initialized", [:])

        var text = try Repository.fixture("Todo.statespec")
        server.notify("textDocument/didOpen", ["textDocument": ["uri": .string(Self.uri), "languageId": "statespec", "version": 1, "text": .string(text)]])
        let opened = try server.notification("textDocument/publishDiagnostics")
        #expect(opened["params"]?["diagnostics"] == [])

        // An edit that breaks the spec, then one that mends it.
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains("computed visibleCount") } ?? 0
        server.notify("textDocument/didChange", [
            "textDocument": ["uri": .string(Self.uri), "version": 2],
            "contentChanges": [["range": ["start": ["line": .int(line), "character": 31], "end": ["line": .int(line), "character": 43]], "text": "visibleTodoz"]],
        ])
        let broken = try server.notification("textDocument/publishDiagnostics")
        #expect(broken["params"]?["version"] == 2)
        let message = broken["params"]?["diagnostics"]?.arrayValue?.first?["message"]?.stringValue ?? ""
        #expect(!message.isEmpty)
        text = text.replacingOccurrences(of: "{ visibleTodos.count }", with: "{ visibleTodos.count + unread }")
        server.notify("textDocument/didChange", ["textDocument": ["uri": .string(Self.uri), "version": 3], "contentChanges": [["text": .string(text)]]])
        #expect(try server.notification("textDocument/publishDiagnostics")["params"]?["diagnostics"] == [])

        let completion = try server.request("textDocument/completion", Self.at("visibleTodos.count", 0, in: text))
        let labels = completion["result"]?.arrayValue?.compactMap { $0["label"]?.stringValue } ?? []
        #expect(labels.contains("todos") && labels.contains("visibleTodos") && !labels.contains("visibleCount"))

        let hover = try server.request("textDocument/hover", Self.at("visibleCount", 3, in: text))
        #expect(hover["result"]?["contents"]?["value"]?.stringValue?.contains("Recomputed when `visibleTodos` or `unread` changes.") == true)

        let definition = try server.request("textDocument/definition", Self.at("+ unread", 3, in: text))
        #expect(definition["result"]?["range"]?["start"] == ["line": 12, "character": 33])
        #expect(definition["result"]?["uri"] == .string(Self.uri))

        let symbols = try server.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])
        #expect(symbols["result"]?.arrayValue?.first?["children"]?.arrayValue?.count == 10)

        let tokens = try server.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Self.uri)]])
        let data = tokens["result"]?["data"]?.arrayValue ?? []
        #expect(data.count % 5 == 0 && data.count > 100)

        #expect(try server.request("shutdown")["result"] == .null)
        server.notify("exit", .null)
        #expect(server.finish() == 0)
    }

    @Test("malformed headers, invalid JSON and unknown methods get errors, and the session goes on")
    func badInput() throws {
        let server = try ServerProcess()
        try server.request("initialize", ["capabilities": [:]])
        server.write(Array("Content-Length: nope\r\n\r\n".utf8))
        #expect(try server.receive()["error"]?["code"] == -32700)
        server.write(Array("Content-Type: text/plain\r\n\r\n".utf8))
        #expect(try server.receive()["error"]?["code"] == -32700)
        let notJSON = Array("{\"jsonrpc\": 2.0, oops".utf8)
        server.write(MessageFramer.frame(notJSON))
        let parseError = try server.receive()
        #expect(parseError["error"]?["code"] == -32700)
        #expect(parseError["id"] == .null)
        #expect(try server.request("textDocument/unknown")["error"]?["code"] == -32601)
        server.notify("$/unknown", [:])
        // A 1 MB spec, mid-edit, with unbalanced braces.
        let text = LargeSpecs.members(15_000) + "state Broken {\n  computed x: Int { (1 + \n"
        server.notify("textDocument/didOpen", ["textDocument": ["uri": .string(Self.uri), "languageId": "statespec", "version": 1, "text": .string(text)]])
        let diagnostics = try server.notification("textDocument/publishDiagnostics")["params"]?["diagnostics"]?.arrayValue ?? []
        #expect(diagnostics.contains { $0["message"]?.stringValue?.contains("unbalanced braces") == true })
        #expect(try server.request("textDocument/hover", Self.at("var field7:", 5, in: text))["result"] != .null)
        // The end of the input without shutdown and exit: status 1.
        #expect(server.finish() == 1)
    }
}
