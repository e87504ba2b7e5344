import Foundation

/// The documentation the tests check, and its fenced code blocks.
///
/// The documents are README.md, every Markdown file of `Docs/`, and the articles of the DocC
/// catalog `Sources/Runtime/ComputedRuntime.docc`. For compiling Swift snippets they form
/// *units*: README.md and each file of `Docs/` is a unit of its own, and the catalog's articles
/// are one unit together (they share the states they talk about).
enum Documentation {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let catalog = "Sources/Runtime/ComputedRuntime.docc"

    /// Documents compiled together, with the code that their snippets assume but do not show.
    struct Unit: Sendable {
        /// `README.md`, `Docs/Migrating.md`, or the catalog's folder.
        var name: String
        /// Repository-relative paths, in order.
        var documents: [String]
        /// The base name of the unit's context files, `Tests/DocumentationContext/<context>.swift`
        /// and `<context>.statespec` (either may be missing).
        var context: String

        /// The context files' repository-relative paths, Swift first.
        var contextPaths: [String] {
            ["swift", "statespec"].map { "Tests/DocumentationContext/\(context).\($0)" }
        }
    }

    /// README.md; each file of `Docs/`; the catalog's articles, which retell the README's
    /// examples and share its context.
    static var units: [Unit] {
        [Unit(name: "README.md", documents: ["README.md"], context: "README")]
            + markdownFiles(in: "Docs").map { document in
                Unit(name: document, documents: [document], context: String((document as NSString).lastPathComponent.dropLast(3)))
            }
            + [Unit(name: catalog, documents: markdownFiles(in: catalog), context: "README")]
    }

    /// Every document, in the order of `units`.
    static var documents: [String] {
        units.flatMap(\.documents)
    }

    private static func markdownFiles(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
    }

    static func text(of document: String) -> String {
        (try? String(contentsOf: repository.appendingPathComponent(document), encoding: .utf8)) ?? ""
    }

    /// A fenced code block of a Markdown document.
    struct Block: Sendable {
        var document: String
        /// The opening fence's info string: `swift`, `statespec expect-error`, `` (none).
        var info: String
        /// The 1-based line of the block's first line of code.
        var line: Int
        /// The code, each line ending in a newline.
        var body: String
        /// The contents of the HTML comments on the lines right above the opening fence
        /// (`<!-- snippet: continues -->` gives `snippet: continues`), top to bottom.
        var directives: [String]

        var words: [Substring] { info.split(separator: " ") }
        var language: Substring? { words.first }
        var lineCount: Int { body.reduce(0) { $1 == "\n" ? $0 + 1 : $0 } }
        /// Whether `line` of the document is one of the block's lines of code.
        func contains(line other: Int) -> Bool { other >= line && other < line + lineCount }
    }

    /// The fenced blocks of `markdown` (fences of three backticks at the start of a line).
    static func blocks(in markdown: String, document: String) -> [Block] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("```"), lines[index].count > 3 else {
                index += 1
                continue
            }
            var directives: [String] = []
            var above = index - 1
            while above >= 0, lines[above].hasPrefix("<!--"), lines[above].hasSuffix("-->") {
                directives.insert(
                    String(lines[above].dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces),
                    at: 0
                )
                above -= 1
            }
            let info = String(lines[index].dropFirst(3)).trimmingCharacters(in: .whitespaces)
            let first = index + 1
            index = first
            while index < lines.count, !lines[index].hasPrefix("```") {
                index += 1
            }
            let body = lines[first..<index].map { $0 + "\n" }.joined()
            blocks.append(Block(document: document, info: info, line: first + 1, body: body, directives: directives))
            index += 1
        }
        return blocks
    }

    /// The blocks of every document of `unit`.
    static func blocks(of unit: Unit) -> [Block] {
        unit.documents.flatMap { blocks(in: text(of: $0), document: $0) }
    }

    /// The `statespec` blocks that must check cleanly (not `expect-error`).
    static func specs(of unit: Unit) -> [Block] {
        blocks(of: unit).filter { $0.language == "statespec" && !$0.words.contains("expect-error") }
    }
}
