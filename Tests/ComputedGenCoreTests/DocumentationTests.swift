import Foundation
import Testing

@testable import ComputedGenCore

/// Runs every `statespec` code block of README.md and Docs/*.md through `ComputedGenTool check`
/// (the same `Command` the executable runs), so the documentation cannot drift from the tool.
///
/// A block fenced as ` ```statespec ` must check cleanly. A block fenced as
/// ` ```statespec expect-error ` must fail, and the ` ```diagnostics ` block right after it holds
/// the exact diagnostics, with the spec named `example.statespec`.
@Suite("Documentation examples")
struct DocumentationTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var document: String
        var line: Int
        var source: String
        var expectedDiagnostics: String?

        var testDescription: String { "\(document):\(line)" }
    }

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var documents: [URL] {
        let docs = root.appendingPathComponent("Docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return [root.appendingPathComponent("README.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    static var examples: [Example] {
        documents.flatMap { url -> [Example] in
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            return extractExamples(from: text, document: url.path.replacingOccurrences(of: root.path + "/", with: ""))
        }
    }

    /// The `statespec` blocks of a Markdown text, each with the diagnostics block after it when it
    /// is marked `expect-error`.
    static func extractExamples(from markdown: String, document: String) -> [Example] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [(info: String, line: Int, body: String)] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```"), line.count > 3 else {
                index += 1
                continue
            }
            let info = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            blocks.append((info, index - body.count + 1, body.joined(separator: "\n") + "\n"))
            index += 1
        }
        var examples: [Example] = []
        for (position, block) in blocks.enumerated() {
            let words = block.info.split(separator: " ")
            guard words.first == "statespec" else { continue }
            var expected: String?
            if words.contains("expect-error") {
                let next = position + 1 < blocks.count ? blocks[position + 1] : nil
                expected = next?.info == "diagnostics" ? next?.body : ""
            }
            examples.append(Example(document: document, line: block.line, source: block.body, expectedDiagnostics: expected))
        }
        return examples
    }

    @Test("the documents hold examples, including failing ones")
    func examplesExist() {
        let examples = Self.examples
        #expect(examples.count >= 20)
        #expect(examples.filter { $0.expectedDiagnostics != nil }.count >= 4)
        #expect(Set(examples.map(\.document)).count >= 4)
    }

    @Test("every statespec example checks as documented", arguments: examples)
    func example(_ example: Example) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("example.statespec")
        try Data(example.source.utf8).write(to: spec)

        let result = Command().run(["check", spec.path])
        let diagnostics = result.standardError.replacingOccurrences(of: directory.path + "/", with: "")
        if let expected = example.expectedDiagnostics {
            #expect(result.status == 1, "\(example.testDescription) is marked expect-error but checks cleanly")
            #expect(
                diagnostics == expected,
                "\(example.testDescription): diagnostics differ from the documented ones:\n\(LineDiff.describe(expected: expected, actual: diagnostics))"
            )
        } else {
            #expect(result.status == 0, "\(example.testDescription) should check cleanly:\n\(diagnostics)")
        }
    }

    @Test("the extractor pairs a failing block with its diagnostics")
    func extractor() {
        let markdown = """
            ```statespec
            state A { var x: Int = 0 }
            ```

            ```statespec expect-error
            state B { var y }
            ```

            ```diagnostics
            example.statespec:1:15: error: something
            ```

            ```swift
            let ignored = 1
            ```
            """
        let examples = Self.extractExamples(from: markdown, document: "test.md")
        #expect(examples.count == 2)
        #expect(examples[0].expectedDiagnostics == nil)
        #expect(examples[0].line == 2)
        #expect(examples[1].expectedDiagnostics == "example.statespec:1:15: error: something\n")
    }
}
