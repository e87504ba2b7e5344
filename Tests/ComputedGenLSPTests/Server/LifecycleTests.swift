import ComputedGenCore
import Testing

@testable import ComputedGenLSP

@Suite("Server lifecycle and bad input")
struct LifecycleTests {
    @Test("requests before initialize get ServerNotInitialized; initialize declares the features")
    func initialize() {
        let harness = ServerHarness()
        #expect(harness.request("textDocument/hover", [:])["error"]?["code"] == -32002)
        #expect(harness.open("state S {}").isEmpty)  // Dropped: not initialized.
        let result = harness.request("initialize", ["capabilities": [:]])["result"]
        let capabilities = result?["capabilities"]
        #expect(capabilities?["textDocumentSync"]?["change"] == 2)
        #expect(capabilities?["hoverProvider"] == true)
        #expect(capabilities?["renameProvider"]?["prepareProvider"] == true)
        #expect(capabilities?["semanticTokensProvider"]?["legend"]?["tokenTypes"]?.arrayValue?.count == SemanticTokensFeature.tokenTypes.count)
        #expect(result?["serverInfo"]?["name"] == "computedgen-lsp")
        #expect(result?["serverInfo"]?["version"] == .string(ComputedGenVersion.string), "the release the changelog names")
        #expect(harness.request("initialize", ["capabilities": [:]])["error"]?["code"] == -32600)
    }

    @Test("unknown requests get MethodNotFound; unknown notifications are ignored")
    func unknownMethods() {
        let harness = ServerHarness.initialized()
        let response = harness.request("workspace/unknownThing", [:])
        #expect(response["error"]?["code"] == -32601)
        #expect(harness.notify("$/unknownNotification", [:]).isEmpty)
        #expect(harness.notify("$/cancelRequest", ["id": 1]).isEmpty)
    }

    @Test("content that is not JSON gets ParseError with a null id; a bad message gets InvalidRequest")
    func badContent() {
        let harness = ServerHarness.initialized()
        let parseError = harness.server.handle(content: Array("{\"jsonrpc\": \"2.0\", \"id\": 1, ".utf8))
        #expect(parseError.first?["error"]?["code"] == -32700)
        #expect(parseError.first?["id"] == .null)
        let invalid = harness.server.handle(content: Array(#"{"jsonrpc":"2.0","id":9,"method":false}"#.utf8))
        #expect(invalid.first?["error"]?["code"] == -32600)
        #expect(invalid.first?["id"] == 9)
        #expect(harness.server.handle(content: Array(#"{"jsonrpc":"2.0","id":1,"result":null}"#.utf8)).isEmpty)
    }

    @Test("parameters of the wrong shape get InvalidParams, a document that is not open an empty answer")
    func badParams() {
        let harness = ServerHarness.initialized()
        #expect(harness.request("textDocument/hover", ["textDocument": [:]])["error"]?["code"] == -32602)
        #expect(harness.request("textDocument/hover", ["textDocument": ["uri": "file:///x"], "position": "here"])["error"]?["code"] == -32602)
        #expect(harness.request("textDocument/rename", ["textDocument": ["uri": "file:///x"], "position": ["line": 0, "character": 0]])["error"]?["code"] == -32602)
        let notOpen = harness.request("textDocument/hover", ["textDocument": ["uri": "file:///x"], "position": ["line": 0, "character": 0]])
        #expect(notOpen["result"] == .null)
        #expect(notOpen["error"] == nil)
        #expect(harness.request("textDocument/completion", ["textDocument": ["uri": "file:///x"], "position": ["line": 0, "character": 0]])["result"] == [])
    }

    @Test("shutdown, then requests get InvalidRequest and exit ends with status 0")
    func shutdown() {
        let harness = ServerHarness.initialized()
        harness.open("state S { var a: Int = 0 }")
        #expect(harness.request("shutdown")["result"] == .null)
        #expect(harness.request("textDocument/documentSymbol", ["textDocument": ["uri": "file:///tmp/Spec.statespec"]])["error"]?["code"] == -32600)
        harness.notify("exit", .null)
        #expect(harness.server.phase == .exited(status: 0))
    }

    @Test("exit without shutdown ends with status 1")
    func exitWithoutShutdown() {
        let harness = ServerHarness.initialized()
        harness.notify("exit", .null)
        #expect(harness.server.phase == .exited(status: 1))
    }
}
