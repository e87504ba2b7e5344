import Foundation

/// The documentation the tests check, and its fenced code blocks.
///
/// The documents are README.md, CONTRIBUTING.md, every Markdown file under `Docs/`, and every
/// article and extension file under the DocC catalog `Sources/Runtime/ComputedRuntime.docc`, at any
/// depth (`Articles/`, `Extensions/`). For compiling Swift snippets they form *units*: README.md,
/// CONTRIBUTING.md and each file under `Docs/` is a unit of its own, and the catalog's files are one
/// unit together (they share the states they talk about). `DocumentationCoverageTests` fails when
/// a Markdown file elsewhere holds a Swift or spec block.
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
        /// Whether the snippets are compiled with `Fixtures/Support/TodoModel.swift` (`Todo`,
        /// `Filter`, `Avatar`, `Session`, `Settings`). README.md is not: its example declares its
        /// own model types, so that it compiles as written.
        var usesFixtureModel = true

        /// The context files' repository-relative paths, Swift first.
        var contextPaths: [String] {
            ["swift", "statespec"].map { "Tests/DocumentationContext/\(context).\($0)" }
        }
    }

    /// README.md, whose example is complete (no model types or context given); CONTRIBUTING.md;
    /// each file under `Docs/` (`Docs/X.md` and `Docs/Guides/X.md` have the context `X`); the
    /// catalog's files, with the context `ComputedRuntime`.
    static var units: [Unit] {
        [
            Unit(name: "README.md", documents: ["README.md"], context: "README", usesFixtureModel: false),
            Unit(name: "CONTRIBUTING.md", documents: ["CONTRIBUTING.md"], context: "CONTRIBUTING"),
        ]
            + markdownFiles(under: "Docs").map { document in
                Unit(name: document, documents: [document], context: String((document as NSString).lastPathComponent.dropLast(3)))
            }
            + [Unit(name: catalog, documents: markdownFiles(under: catalog), context: "ComputedRuntime")]
    }

    /// Every document, in the order of `units`.
    static var documents: [String] {
        units.flatMap(\.documents)
    }

    /// The Markdown files under `folder`, at any depth, as repository-relative paths in order
    /// (none inside hidden folders, such as the `.docc-build` that `docc preview` may leave).
    static func markdownFiles(under folder: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: repository.appendingPathComponent(folder).path)?.allObjects as? [String] ?? []
        return names.filter { name in
            name.hasSuffix(".md") && !name.split(separator: "/").dropLast().contains { $0.hasPrefix(".") }
        }.sorted().map { "\(folder)/\($0)" }
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

    /// The fenced blocks of `markdown`: fences of three backticks at the start of a line, or
    /// indented as the list item they belong to (the block's lines lose that indentation).
    static func blocks(in markdown: String, document: String) -> [Block] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let indentation = lines[index].prefix { $0 == " " }.count
            let fence = lines[index].dropFirst(indentation)
            guard fence.hasPrefix("```"), fence.count > 3 else {
                index += 1
                continue
            }
            var directives: [String] = []
            var above = index - 1
            while above >= 0, case let comment = lines[above].trimmingCharacters(in: .whitespaces),
                comment.hasPrefix("<!--"), comment.hasSuffix("-->")
            {
                directives.insert(
                    String(comment.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces),
                    at: 0
                )
                above -= 1
            }
            let info = String(fence.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            let first = index + 1
            index = first
            while index < lines.count, !lines[index].drop(while: { $0 == " " }).hasPrefix("```") {
                index += 1
            }
            let body = lines[first..<index].map { line in
                line.dropFirst(min(indentation, line.prefix { $0 == " " }.count)) + "\n"
            }.joined()
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

    /// The unit's specs in plain Swift: `swift` blocks whose first line is a comment naming a
    /// `.state.swift` file (`// Sources/TodoSpecs/Todo.state.swift`). Each is compiled as the
    /// plain Swift it is, and its states are generated too, as the plugin would.
    static func swiftFormSpecs(of unit: Unit) -> [Block] {
        blocks(of: unit).filter { $0.isSwiftFormSpec && !$0.isSwiftFormTwin }
    }
}

extension Documentation.Block {
    /// Whether the block is marked `<!-- snippet: twin -->`: the plain Swift form of the
    /// `statespec` block before it, whose state that block generates.
    var isSwiftFormTwin: Bool {
        directives.contains { $0.replacingOccurrences(of: " ", with: "") == "snippet:twin" }
    }

    /// Whether the block is a spec in plain Swift: a `swift` block whose first line is a comment
    /// naming a `.state.swift` file.
    var isSwiftFormSpec: Bool {
        guard language == "swift", let first = body.split(separator: "\n").first else { return false }
        return first.hasPrefix("//") && first.trimmingCharacters(in: .whitespaces).hasSuffix(".state.swift")
    }
}
