import ComputedGenCore
import Foundation
import Testing

@testable import ComputedGenLSP

/// Forwarding to a sourcekit-lsp stand-in (FakeSourceKitLSP), positions derived from the spec's
/// text: Swift diagnostics as the user types, requests that never hold up the others,
/// cancellation, deadlines, and completion, hover and definition mapped into the spec.
/// (`Tests/LSPClientTests/test_forwarding.py` does the same with the toolchain's sourcekit-lsp.)
@Suite("Swift forwarding: diagnostics, requests in flight, mapping", .timeLimit(.minutes(1)))
struct SwiftForwardingServiceTests {
    static func spec(body: String = "visibleTodos.count") throws -> String {
        try Repository.fixture("Todo.statespec").replacingOccurrences(of: "{ visibleTodos.count }", with: "{ \(body) }")
    }

    static func isDiagnostics(_ message: JSONValue) -> Bool { message["method"] == "textDocument/publishDiagnostics" }

    @Test("Swift's diagnostics in a body join the spec's at the spec position; outside every fragment, none; stale ones go")
    func diagnostics() throws {
        let harness = try ForwardingHarness()
        let text = try Self.spec(body: "visibleTodos.count + missingCount")
        #expect(ForwardingHarness.diagnostics(harness.open(text).first).isEmpty)
        let published = harness.pump { Self.isDiagnostics($0) && !ForwardingHarness.diagnostics($0).isEmpty }
        let diagnostics = ForwardingHarness.diagnostics(published)
        #expect(diagnostics.count == 1, "the stand-in's diagnostic in the generated header is not shown")
        let expected = try #require(harness.at("missingCount", in: text)["position"])
        #expect(diagnostics.first?["range"]?["start"] == expected)
        #expect(diagnostics.first?["range"]?["end"]?["character"] == .int((expected["character"]?.intValue ?? 0) + "missingCount".count))
        #expect(diagnostics.first?["message"] == "cannot find 'missingCount' in scope")
        #expect(published?["params"]?["version"] == 1)

        // A spec error: the spec's diagnostics at once, the Swift ones (now stale) gone for good.
        let brokenText = text.replacingOccurrences(of: "computed doneCount", with: "computed doneCount doneCount")
        let broken = harness.change(brokenText, version: 2)
        let brokenDiagnostics = ForwardingHarness.diagnostics(broken.first)
        #expect(!brokenDiagnostics.isEmpty && brokenDiagnostics.allSatisfy { $0["source"] == "computedgen" })
        #expect(!harness.settle(at: harness.at("visibleTodos.count", 13, in: brokenText)).contains(where: Self.isDiagnostics))

        // Mended, and the Swift error fixed: none left, from the spec or from Swift.
        let fixed = try Self.spec(body: "visibleTodos.count + 1")
        #expect(ForwardingHarness.diagnostics(harness.change(fixed, version: 3).first).isEmpty)
        let afterFix = harness.settle(at: harness.at("visibleTodos.count", 13, in: fixed))
        #expect(!afterFix.contains { Self.isDiagnostics($0) && !ForwardingHarness.diagnostics($0).isEmpty })
        #expect(try harness.methodsReceived().filter { $0 == "textDocument/diagnostic" }.count >= 2)
    }

    @Test("a forwarded request holds up nothing; $/cancelRequest answers it with RequestCancelled and cancels it in sourcekit-lsp")
    func inFlight() throws {
        let harness = try ForwardingHarness(delay: 30)
        let text = try Self.spec()
        harness.open(text)
        let completion = harness.request("textDocument/completion", harness.at("visibleTodos.count", 13, in: text))
        #expect(completion.replies.allSatisfy { $0["id"] == nil }, "answered later, by service")

        // Meanwhile: a member's hover, the outline and diagnostics, at once.
        let hover = harness.request("textDocument/hover", harness.at("computed visibleCount", 10, in: text))
        #expect(hover.replies.first?["result"]?["contents"]?["value"]?.stringValue?.contains("visibleCount") == true)
        let symbols = harness.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(harness.uri)]])
        #expect(symbols.replies.first?["result"]?.arrayValue?.isEmpty == false)
        #expect(harness.change(text + "\n", version: 2).first.map(Self.isDiagnostics) == true)

        let cancelled = harness.notify("$/cancelRequest", ["id": .int(completion.id)])
        #expect(cancelled.first?["id"] == .int(completion.id))
        #expect(cancelled.first?["error"]?["code"] == -32800)
        #expect(harness.notify("$/cancelRequest", ["id": .int(completion.id)]).isEmpty, "answered once")
        #expect(try harness.waitForMethods { $0.contains("$/cancelRequest") })
        #expect(!harness.received.contains { $0["id"] == .int(completion.id) && $0["result"] != nil })
    }

    @Test("a request sourcekit-lsp does not answer in time gets the spec's part alone")
    func deadline() throws {
        let harness = try ForwardingHarness(delay: 30, timeout: .milliseconds(200))
        let text = try Self.spec()
        harness.open(text)
        let completion = harness.request("textDocument/completion", harness.at("visibleTodos.count", in: text))
        let labels = harness.response(to: completion.id)?["result"]?["items"]?.arrayValue?.compactMap { $0["label"]?.stringValue } ?? []
        #expect(labels.contains("todos"))
        #expect(!labels.contains("fakeSwiftMember"))
    }

    @Test("before the package is prepared: said once; the build's generated file is taken up once it appears")
    func buildFile() throws {
        let harness = try ForwardingHarness()
        let text = try Self.spec()
        harness.open(text)
        let told = harness.pump { $0["method"] == "window/showMessage" }
        #expect(told?["params"]?["message"]?.stringValue?.contains(".build/index-build") == true)
        harness.change(text + "\n", version: 2)
        _ = harness.settle(at: harness.at("visibleTodos.count", 13, in: text + "\n"))
        #expect(harness.received.filter { $0["method"] == "window/showMessage" }.count == 1)
        #expect(try !harness.methodsReceived().contains("textDocument/didClose"))

        // The package is prepared: the plugin's output appears, and the generated document moves there.
        let specPath = DocumentURI.path(of: harness.uri)
        let outputs = harness.folder.appendingPathComponent(".build/index-build/plugins/outputs/app/App/destination/ComputedGen/Generated")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let swift = try #require(Generator.generate(source: text, path: specPath).swift)
        try swift.write(to: outputs.appendingPathComponent("Todo.statespec.swift"), atomically: true, encoding: .utf8)
        #expect(try harness.waitForMethods { $0.filter { $0 == "textDocument/didOpen" }.count == 2 && $0.contains("textDocument/didClose") })
    }

    @Test("a spec outside any package: said once, when it opens; its own features answered at once")
    func outsidePackage() throws {
        let harness = try ForwardingHarness()
        let text = try Self.spec()
        let uri = "file:///nowhere/at/all/Todo.statespec"
        for version in 1...2 {
            let method = version == 1 ? "textDocument/didOpen" : "textDocument/didChange"
            let replies = harness.notify(method, ["textDocument": ["uri": .string(uri), "languageId": "statespec", "version": .int(version), "text": .string(text)], "contentChanges": [["text": .string(text)]]])
            // Said on opening (waited for, however busy the machine); not again on a change (up
            // to a barrier: the answer to a request sent after it).
            if version == 1 {
                let told = harness.pump(for: .seconds(30)) { $0["method"] == "window/showMessage" }
                #expect(told?["params"]?["message"]?.stringValue?.contains("in a Swift package") == true)
            } else {
                let settled = harness.settle(at: ServerHarness.position(of: "visibleTodos.count", in: text, delta: 13, uri: uri))
                #expect(!(replies + settled).contains { $0["method"] == "window/showMessage" })
            }
        }
        let completion = harness.request("textDocument/completion", ServerHarness.position(of: "visibleTodos.count", in: text, uri: uri))
        #expect(completion.replies.first?["result"]?["items"]?.arrayValue?.contains { $0["label"] == "todos" } == true)
    }

    @Test("completion, hover and definition come from sourcekit-lsp, mapped into the spec; other files pass through")
    func mapped() throws {
        let harness = try ForwardingHarness()
        let text = try Self.spec()
        harness.open(text)
        let position = harness.at("visibleTodos.count", 13, in: text)

        let start = harness.at("visibleTodos.count", in: text)
        let completion = harness.request("textDocument/completion", start)
        let items = harness.response(to: completion.id)?["result"]?["items"]?.arrayValue ?? []
        let swift = items.first { $0["label"] == "fakeSwiftMember" }
        #expect(swift?["textEdit"]?["range"]?["start"] == start["position"])
        #expect(items.contains { $0["label"] == "todos" }, "the spec's members too")

        let hover = harness.request("textDocument/hover", position)
        let answer = harness.response(to: hover.id)?["result"]
        #expect(answer?["contents"]?["value"] == "fake Swift hover")
        #expect(answer?["range"]?["start"] == position["position"])

        let definition = harness.request("textDocument/definition", position)
        let locations = harness.response(to: definition.id)?["result"]?.arrayValue ?? []
        #expect(locations.count == 2, "the generated header's location is dropped")
        #expect(locations.first?["uri"] == .string(harness.uri))
        #expect(locations.first?["range"]?["start"] == position["position"])
        #expect(locations.last?["uri"] == "file:///elsewhere/Other.swift")

        // A member's definition stays the spec's own, answered at once.
        let member = harness.request("textDocument/definition", harness.at("visibleTodos.count", 2, in: text))
        #expect(member.replies.first?["result"]?["uri"] == .string(harness.uri))
    }
}
