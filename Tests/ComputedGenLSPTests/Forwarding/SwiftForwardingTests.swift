import ComputedGenCore
import Foundation
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
        let generated = LineTable(swift)
        let snapshot = SwiftForwarding.Snapshot(uri: "file:///tmp/Todo.statespec.swift", map: SourceMap(generated: swift), generated: generated, document: document, version: 1)
        let line = try #require(swift.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("$0.owner") })
        let column = try #require(swift.split(separator: "\n", omittingEmptySubsequences: false)[line].utf8.split(separator: UInt8(ascii: "$")).first?.count) + 3
        let at: JSONValue = ["line": .int(line), "character": .int(column)]
        let item: JSONValue = ["label": "owner", "textEdit": ["range": ["start": at, "end": at], "newText": "owner"], "data": [1]]
        let mapped = SwiftForwarding.mapBack(item, snapshot: snapshot, markdown: true)
        let specLine = text.components(separatedBy: "\n").firstIndex { $0.contains("$0.owner") } ?? -1
        #expect(mapped["textEdit"]?["range"]?["start"]?["line"] == .int(specLine))
        #expect(mapped["data"] == nil)
        let outside: JSONValue = ["label": "x", "textEdit": ["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "newText": "x"]]
        let dropped = SwiftForwarding.mapBack(outside, snapshot: snapshot, markdown: true)
        #expect(dropped["textEdit"] == nil)
        #expect(dropped["insertText"] == "x")
    }

    @Test("a spec with errors, a sourcekit-lsp that exits: said once each, spec completion still served")
    func unavailable() throws {
        let harness = try ForwardingHarness(executable: "/nonexistent/sourcekit-lsp")
        var text = try Repository.fixture("Todo.statespec")
        harness.open(text)
        let position = harness.at("visibleTodos.count", in: text)
        let first = harness.request("textDocument/completion", position)
        let exited = harness.pump { $0["method"] == "window/showMessage" }
        #expect(exited?["params"]?["message"]?.stringValue?.contains("exited") == true)
        #expect(harness.response(to: first.id)?["result"]?["items"]?.arrayValue?.contains { $0["label"] == "todos" } == true)
        for _ in 0..<2 {
            let replies = harness.request("textDocument/completion", position).replies
            #expect(replies.first?["result"]?["items"]?.arrayValue?.contains { $0["label"] == "todos" } == true)
        }
        #expect(harness.received.filter { $0["params"]?["message"]?.stringValue?.contains("exited") == true }.count == 1)

        text += "state {"
        harness.change(text, version: 2)
        let replies = harness.request("textDocument/completion", position).replies
        let message = replies.first { $0["method"] == "window/showMessage" }?["params"]?["message"]?.stringValue ?? ""
        #expect(message.contains("needs a spec without errors"))
        #expect(harness.request("textDocument/completion", position).replies.allSatisfy { $0["method"] == nil })
    }

    @Test("the generated document: the build's file under .build/index-build, found by the spec it names; directives blanked")
    func generatedDocument() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = root.appendingPathComponent("Sources/App/Todo.statespec").path
        #expect(GeneratedDocument.buildFile(ofSpec: spec, root: root.path) == nil)
        let outputs = root.appendingPathComponent(".build/index-build/plugins/outputs/app/App/destination/ComputedGen/Generated")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let swift = try #require(Generator.generate(source: try Repository.fixture("Todo.statespec"), path: spec).swift)
        try "// another spec's\n#sourceLocation(file: \"/elsewhere/Todo.statespec\", line: 1)\n".write(to: outputs.appendingPathComponent("Todo.statespec.swift"), atomically: true, encoding: .utf8)
        #expect(GeneratedDocument.buildFile(ofSpec: spec, root: root.path) == nil)
        try swift.write(to: outputs.appendingPathComponent("Todo.statespec.swift"), atomically: true, encoding: .utf8)
        #expect(GeneratedDocument.buildFile(ofSpec: spec, root: root.path) == outputs.appendingPathComponent("Todo.statespec.swift").path)

        let blanked = GeneratedDocument.blankingDirectives(swift)
        #expect(swift.contains("#sourceLocation(") && !blanked.contains("#sourceLocation("))
        let lines = swift.split(separator: "\n", omittingEmptySubsequences: false)
        let blankedLines = blanked.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == blankedLines.count)
        #expect(zip(lines, blankedLines).allSatisfy { $0 == $1 || ($0.hasPrefix("#sourceLocation(") && $1.isEmpty) })
    }

    @Test("a generated position on a fragment's line but in generated code around it has no spec position")
    func generatedCodeAround() throws {
        let text = try Repository.fixture("Todo.statespec")
        let document = SpecDocument(uri: "file:///tmp/Todo.statespec", version: 1, text: text)
        let swift = try #require(Generator.generate(source: text, path: "/tmp/Todo.statespec").swift)
        let map = SourceMap(generated: swift)
        let snapshot = SwiftForwarding.Snapshot(uri: "file:///tmp/Todo.statespec.swift", map: map, generated: LineTable(swift), document: document, version: 1)
        let specLines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        var around = 0
        var wrong: [String] = []
        for block in map.blocks {
            for line in block.generatedLines {
                let generated = map.generatedLines[line]
                let spec = specLines[block.specLine - 1 + line - block.generatedLines.lowerBound]
                for column in 1..<max(1, generated.count) where column < spec.count {
                    let offset = SwiftForwarding.specOffset(of: Position(line: line, character: column), snapshot: snapshot)
                    if generated[column] != spec[column] && generated[column - 1] != spec[column - 1] {
                        around += 1
                        if offset != nil { wrong.append("generated \(line):\(column) shown in the spec") }
                    } else if generated[column - 1] == spec[column - 1], offset == nil {
                        wrong.append("generated \(line):\(column), the spec's text, not mapped")
                    }
                }
            }
        }
        #expect(around > 0, "the fixture has generated code on its fragments' lines")
        #expect(wrong.isEmpty, "\(wrong.count): \(wrong.prefix(5))")
    }

    @Test("the package root is the nearest folder with a Package.swift")
    func packageRoot() {
        let spec = Repository.root.appendingPathComponent("Examples/TodoList/Sources/TodoList/Todo.statespec").path
        #expect(SwiftForwarding.packageRoot(of: spec) == Repository.root.appendingPathComponent("Examples/TodoList").path)
        #expect(SwiftForwarding.packageRoot(of: "/nowhere/at/all.statespec") == nil)
    }
}
