import Testing

@testable import ComputedGenLSP

/// Asks every feature at every position of a text: none may trap, each must answer with a
/// result (never an error other than RequestFailed for a rename where nothing is named).
enum FeatureSweep {
    static func everyPosition(in text: String, harness: ServerHarness, uri: String = "file:///tmp/Spec.statespec") {
        let document: JSONValue = ["uri": .string(uri)]
        #expect(harness.request("textDocument/documentSymbol", ["textDocument": document])["result"] != nil)
        #expect(harness.request("textDocument/semanticTokens/full", ["textDocument": document])["result"]?["data"] != nil)
        let lines = text.components(separatedBy: "\n")
        for (line, content) in lines.enumerated() {
            for character in 0...(content.utf16.count + 1) {
                let params: JSONValue = ["textDocument": document, "position": ["line": .int(line), "character": .int(character)]]
                for method in ["textDocument/completion", "textDocument/hover", "textDocument/definition", "textDocument/prepareRename"] {
                    #expect(harness.request(method, params)["error"] == nil, "\(method) at \(line):\(character)")
                }
                var references = params
                if case .object(var members) = references { members["context"] = ["includeDeclaration": true]; references = .object(members) }
                #expect(harness.request("textDocument/references", references)["error"] == nil)
                var rename = params
                if case .object(var members) = rename { members["newName"] = "renamed"; rename = .object(members) }
                let code = harness.request("textDocument/rename", rename)["error"]?["code"]
                #expect(code == nil || code == -32803, "rename at \(line):\(character)")
            }
        }
    }
}
