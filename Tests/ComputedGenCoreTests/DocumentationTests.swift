import Foundation
import Testing

@testable import ComputedGenCore

/// Runs every `statespec` code block of the documentation (README.md, CONTRIBUTING.md, the
/// Markdown files under Docs/ and under the DocC catalog; see `Documentation`) through
/// `ComputedGenTool check` (the same `Command` the executable runs), so the documentation
/// cannot drift from the tool. (`DocumentationSnippetTests` compiles the Swift blocks.)
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

    static var examples: [Example] {
        Documentation.documents.flatMap { extractExamples(from: Documentation.text(of: $0), document: $0) }
    }

    /// The `statespec` blocks of a Markdown text, each with the diagnostics block after it when it
    /// is marked `expect-error`.
    static func extractExamples(from markdown: String, document: String) -> [Example] {
        let blocks = Documentation.blocks(in: markdown, document: document)
        var examples: [Example] = []
        for (position, block) in blocks.enumerated() where block.language == "statespec" {
            var expected: String?
            if block.words.contains("expect-error") {
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
