import Foundation
import Testing

/// The documentation tests cannot lose a document: every Markdown file of the repository that holds
/// a ` ```swift ` or ` ```statespec ` block is one of the documents that `DocumentationTests` and
/// `DocumentationSnippetTests` check (or is excluded here, with a reason), and every such block of a
/// checked document is one of the blocks they check (issue 37).
@Suite("Documentation coverage")
struct DocumentationCoverageTests {
    /// Markdown files with Swift or spec blocks that the documentation tests do not check, each with
    /// the reason. Add a file only when its blocks cannot be compiled here (another package's
    /// documentation, say); documentation of this package belongs in README.md, CONTRIBUTING.md,
    /// `Docs/` or the DocC catalog, which are checked.
    static let excluded: [String: String] = [:]

    /// Folders never searched, at any depth: build products (`.build`, `.build-docs`,
    /// `Benchmarks/.build` with its checkouts, `docc preview`'s `.docc-build`), version control,
    /// editor and SwiftPM state.
    static func isSkipped(folder name: String) -> Bool {
        name.hasPrefix(".build") || [".git", ".swiftpm", ".docc-build", "node_modules", "DerivedData"].contains(name)
    }

    /// The repository-relative paths of the Markdown files that hold a Swift or spec block.
    static func documentsWithCode() -> [String] {
        let root = Documentation.repository.standardizedFileURL
        guard
            let walk = FileManager.default.enumerator(
                at: root,
                includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey],
                options: []
            )
        else { return [] }
        var found: [String] = []
        for case let url as URL in walk {
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            if values?.isDirectory == true {
                if isSkipped(folder: url.lastPathComponent) || values?.isSymbolicLink == true { walk.skipDescendants() }
                continue
            }
            guard url.pathExtension.lowercased() == "md" else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            if !codeFences(in: Documentation.text(of: path)).isEmpty { found.append(path) }
        }
        return found.sorted()
    }

    /// The 1-based lines of `markdown` that open a ` ```swift ` or ` ```statespec ` block, at any
    /// indentation (a block inside a list item is indented).
    static func codeFences(in markdown: String) -> [Int] {
        markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("```") else { return nil }
            let language = trimmed.dropFirst(3).drop { $0 == " " }.prefix { $0.isLetter }
            return language == "swift" || language == "statespec" ? index + 1 : nil
        }
    }

    @Test("every Markdown file with Swift or spec blocks is a checked document")
    func everyDocumentIsChecked() {
        let found = Self.documentsWithCode()
        let checked = Set(Documentation.documents)
        #expect(found.count >= 10, "the walk found only \(found)")
        let unchecked = found.filter { !checked.contains($0) && Self.excluded[$0] == nil }
        #expect(
            unchecked.isEmpty,
            """
            these Markdown files hold Swift or spec blocks that no documentation test checks: \(unchecked). \
            Put them where Documentation.units looks (README.md, CONTRIBUTING.md, Docs/, \
            \(Documentation.catalog)), extend Documentation.units, or add them to \
            DocumentationCoverageTests.excluded with the reason.
            """
        )
        for (path, reason) in Self.excluded {
            #expect(!reason.isEmpty, "\(path): say why it is not checked")
            #expect(found.contains(path), "\(path) is excluded but holds no Swift or spec block (or is gone): remove it from the list")
        }
    }

    @Test("every Swift or spec block of a checked document is a checked block")
    func everyBlockIsChecked() {
        for document in Documentation.documents {
            let fences = Self.codeFences(in: Documentation.text(of: document))
            let blocks = Documentation.blocks(in: Documentation.text(of: document), document: document)
                .filter { $0.language == "swift" || $0.language == "statespec" }
                .map { $0.line - 1 }
            #expect(blocks == fences, "\(document): blocks opened at lines \(fences), the tests read those at \(blocks)")
        }
    }

    @Test("the walk finds a block at any depth and indentation, and skips build folders")
    func walkFindsNestedDocuments() throws {
        let markdown = """
            # Probe

            - An item:

              ```swift
              let x = 1
              ```

            ```statespec
            state A { var x: Int = 0 }
            ```

            ```sh
            swift test
            ```
            """
        #expect(Self.codeFences(in: markdown) == [5, 9])
        #expect(Self.isSkipped(folder: ".build") && Self.isSkipped(folder: ".build-docs") && Self.isSkipped(folder: ".git"))
        #expect(!Self.isSkipped(folder: "Articles") && !Self.isSkipped(folder: "Docs"))
    }
}
