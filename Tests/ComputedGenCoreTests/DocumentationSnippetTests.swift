import Foundation
import Testing

@testable import ComputedGenCore

/// Compiles every Swift snippet of the documentation (README.md, CONTRIBUTING.md, the Markdown
/// files under Docs/ and under the DocC catalog; see `Documentation`) against the runtime built
/// with these tests, together with the code generated from the `statespec` blocks of its document,
/// so that no documented call can drift from the API.
///
/// The convention the documents follow:
///
/// - A ` ```swift ` block is compiled. When it holds only declarations that belong at file scope
///   (types, extensions, functions, with their attributes: `@main`, `@Test`), it is compiled as a
///   file; otherwise as the body of an `async throws` function, so statements and `for await`
///   need no wrapping in the document.
/// - It is compiled with the code generated from every `statespec` block of its *unit* (its
///   document; the catalog's files form one unit) and from every spec in plain Swift (a `swift`
///   block whose first line is a comment naming a `.state.swift` file, itself compiled as written), `Fixtures/Support/TodoModel.swift` (`Todo`,
///   `Filter`, `Avatar`, `Session`, `Settings`; not for README.md, whose complete example declares
///   its own), and the unit's context, `Tests/DocumentationContext/<document>.swift` and
///   `.statespec` (`ComputedRuntime.*` for the catalog): what the text assumes but does not show
///   (a `Profile` type, a `store1` to assign from, a parent state that holds a `TodoState`). Each snippet file imports `ComputedRuntime`, `Foundation` and
///   `AppleSDKNames` (as an Apple app's file sees Foundation's and SwiftUI's names, with stand-ins
///   for SwiftUI's `View` and `Text`; a block that is a whole file starting with its own imports
///   gets `AppleSDKNames` only when it imports SwiftUI), and `Testing` when it uses `@Test` or
///   `#expect`. An `import XSpecs` line (the specs target of the layout the Swift form
///   recommends) is left out: the snippets' module holds the specs' types itself.
/// - `…` stands for code left out. It is compiled as an editor placeholder, which type-checks as
///   an expression of any type.
/// - Errors are reported at the document's own lines (the snippets and the spec bodies are
///   wrapped in `#sourceLocation`), each in the test case named `document:line` of its block.
/// - A block that imports `PackageDescription` is a package manifest: its first line must be the
///   `// swift-tools-version:` comment, and it type-checks against the toolchain's
///   `PackageDescription`.
///
/// An HTML comment on the line right above the opening fence changes that:
///
/// - `<!-- snippet: continues -->`: the block continues the previous compiled block of its
///   document (same function or file), so it sees that block's declarations.
/// - `<!-- snippet: generated -->`: the block is an excerpt of generated code. Its lines, without
///   comments and indentation, must appear in that order in the code generated from one of the
///   document's `statespec` blocks, with the spec named after its first state (`Cart.statespec`).
/// - `<!-- compiled in PATH -->`: the block is compiled by the test file at PATH (the Combine
///   snippets, in `Compat/`, where OpenCombine stands in for Combine), which must contain it.
/// - `<!-- snippet: twin -->`: the block is a spec in plain Swift shown beside the `statespec`
///   block before it: compiled as plain Swift, not generated, and the two must generate the same
///   state.
/// - `<!-- snippet: no-compile: REASON -->`: the block is not compiled, for the reason given
///   (code written for another library, shown for comparison). Such a block must indeed fail to
///   compile (otherwise the marker goes), and there are at most ``maximumOptOuts`` of them.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    /// What the test does with a Swift block.
    enum Kind: Equatable, Sendable {
        case compiled(continues: Bool)
        case manifest
        case generated
        case compiledElsewhere(String)
        /// A spec in plain Swift beside a `statespec` block: compiled on its own and compared.
        case twin
        case optedOut(reason: String)
        case malformed(String)
    }

    struct Snippet: CustomTestStringConvertible, Sendable {
        var unit: Documentation.Unit
        var block: Documentation.Block
        var kind: Kind

        var testDescription: String { "\(block.document):\(block.line)" }

        var isOptedOut: Bool {
            if case .optedOut = kind { true } else { false }
        }
    }

    /// The most blocks that may opt out of compiling. Raise it only for code that cannot compile
    /// here (another library's API, shown for comparison), never for a snippet that is merely
    /// wrong.
    static let maximumOptOuts = 6

    static let snippets: [Snippet] = Documentation.units.flatMap { unit in
        snippets(in: Documentation.blocks(of: unit), unit: unit)
    }

    static func snippets(in blocks: [Documentation.Block], unit: Documentation.Unit) -> [Snippet] {
        blocks.filter { $0.language == "swift" }.map { Snippet(unit: unit, block: $0, kind: kind(of: $0)) }
    }

    static func kind(of block: Documentation.Block) -> Kind {
        var kind: Kind = block.body.contains("import PackageDescription") ? .manifest : .compiled(continues: false)
        for directive in block.directives {
            if directive.hasPrefix("compiled in ") {
                kind = .compiledElsewhere(String(directive.dropFirst("compiled in ".count)))
                continue
            }
            guard directive.hasPrefix("snippet:") else { continue }
            let value = directive.dropFirst("snippet:".count).trimmingCharacters(in: .whitespaces)
            if value == "continues" {
                kind = .compiled(continues: true)
            } else if value == "generated" {
                kind = .generated
            } else if value == "twin" {
                kind = .twin
            } else if value.hasPrefix("no-compile:") {
                kind = .optedOut(reason: value.dropFirst("no-compile:".count).trimmingCharacters(in: .whitespaces))
            } else {
                kind = .malformed("unknown directive '<!-- \(directive) -->'; use 'snippet: continues', 'snippet: generated', 'snippet: twin' or 'snippet: no-compile: <reason>'")
            }
        }
        return kind
    }

    // MARK: The tests

    @Test("the documents hold Swift snippets, and few opt out of compiling")
    func snippetsExist() {
        let snippets = Self.snippets
        #expect(snippets.count >= 30)
        #expect(Set(snippets.map(\.unit.name)).count >= 4)
        let optedOut = snippets.filter(\.isOptedOut)
        #expect(
            optedOut.count <= Self.maximumOptOuts,
            "\(optedOut.count) snippets opt out of compiling (at most \(Self.maximumOptOuts)): \(optedOut.map(\.testDescription))"
        )
    }

    /// The blocks marked `<!-- snippet: twin -->`, each with the `statespec` block right before it
    /// in its document.
    static let twins: [Twin] = Documentation.units.flatMap { unit in
        let blocks = Documentation.blocks(of: unit)
        return blocks.indices.compactMap { index -> Twin? in
            guard blocks[index].isSwiftFormTwin else { return nil }
            let spec = blocks[..<index].last { $0.language == "statespec" && $0.document == blocks[index].document }
            return Twin(swift: blocks[index], spec: spec)
        }
    }

    struct Twin: CustomTestStringConvertible, Sendable {
        var swift: Documentation.Block
        var spec: Documentation.Block?
        var testDescription: String { "\(swift.document):\(swift.line)" }
    }

    @Test("a spec in plain Swift shown beside a statespec block generates the same state", arguments: twins)
    func swiftFormTwin(_ twin: Twin) throws {
        let spec = try #require(twin.spec, "\(twin.testDescription): no statespec block before this twin in its document")
        // The plain Swift compiles on its own (with the fixtures' model types and the document's
        // context), before anything is generated from it.
        let unit = try #require(Documentation.units.first { $0.documents.contains(twin.swift.document) })
        let alone = Snippet(unit: unit, block: twin.swift, kind: .compiled(continues: false))
        let compilation = try Self.compile([Group(members: [alone])], unit: unit, specs: [])
        #expect(compilation.status == 0, "\(twin.testDescription) does not compile as plain Swift:\n\(compilation.output)")
        let specOutput = Generator.generate(source: spec.body, path: "twin.statespec")
        let swiftOutput = Generator.generate(source: twin.swift.body, path: "twin.state.swift")
        #expect(swiftOutput.diagnostics.isEmpty, "\(twin.testDescription): \(swiftOutput.diagnostics.map(\.description))")
        let fromSpec = SwiftFormEquivalence.comparable(try #require(specOutput.swift), specPath: "twin.statespec")
        let fromSwift = SwiftFormEquivalence.comparable(try #require(swiftOutput.swift), specPath: "twin.state.swift")
        guard let first = fromSpec.indices.first(where: { $0 >= fromSwift.count || fromSpec[$0] != fromSwift[$0] })
            ?? (fromSpec.count == fromSwift.count ? nil : fromSpec.count) else { return }
        let around = { (words: [String]) in words[max(0, first - 12)..<min(words.count, first + 12)].joined(separator: " ") }
        Issue.record("\(twin.testDescription) and \(spec.document):\(spec.line) generate different code:\nspec:  \(around(fromSpec))\nswift: \(around(fromSwift))")
    }

    @Test("the spec language reference shows its constructs in plain Swift too")
    func referenceHasTwins() {
        #expect(Self.twins.filter { $0.swift.document == "Docs/SpecLanguage.md" }.count >= 1)
    }

    @Test("every Swift snippet of the documentation compiles, or says where or why not", arguments: snippets)
    func snippet(_ snippet: Snippet) throws {
        switch snippet.kind {
        case .compiled:
            let compilation = try Self.compilations.value(for: snippet.unit.name) {
                try Self.compile(Self.compiledSnippets(of: snippet.unit), unit: snippet.unit)
            }
            Self.expectCompiles(snippet, in: compilation)
        case .manifest:
            try Self.checkManifest(snippet)
        case .generated:
            Self.checkExcerpt(snippet)
        case .twin:
            #expect(Self.twins.contains { $0.swift.document == snippet.block.document && $0.swift.line == snippet.block.line })
        case .compiledElsewhere(let path):
            let text = try? String(contentsOf: Documentation.repository.appendingPathComponent(path), encoding: .utf8)
            #expect(
                text.map { Self.lines($0).containsRun(Self.lines(snippet.block.body)) } == true,
                "\(snippet.testDescription) says it is compiled in \(path), which does not contain it"
            )
        case .optedOut(let reason):
            #expect(!reason.isEmpty, "\(snippet.testDescription): say why the snippet is not compiled")
            let optedOut = Self.snippets.filter { $0.unit.name == snippet.unit.name && $0.isOptedOut }
            let compilation = try Self.optOutCompilations.value(for: snippet.unit.name) {
                try Self.compile(optedOut.map { Group(members: [$0]) }, unit: snippet.unit)
            }
            #expect(
                !compilation.errors(in: snippet).isEmpty,
                "\(snippet.testDescription) is marked no-compile but compiles: remove the marker"
            )
        case .malformed(let message):
            Issue.record("\(snippet.testDescription): \(message)")
        }
    }

    /// Proves the test can fail: a document with a broken snippet fails at that snippet's lines,
    /// and only there, while `continues`, `…` and file-scope snippets compile.
    @Test("a snippet that does not compile fails, at its own lines")
    func brokenSnippetFails() throws {
        let markdown = """
            # Probe

            ```statespec
            state Probe {
              var count: Int = 0
              computed doubled: Int { count * 2 }
            }
            ```

            ```swift
            var probe = Probe()
            probe.count = 2
            for await value in AsyncStream<Int> { _ in } { … }
            ```

            <!-- snippet: continues -->
            ```swift
            probe.count += Probe(count: …).computed.doubled   // sees `probe`
            ```

            ```swift
            let broken: Int = Probe().computed.tripled
            ```

            ```swift
            @Test func probeDoubles() {
                #expect(Probe(count: 2).computed.doubled == 4)
            }
            ```
            """
        let unit = Documentation.Unit(name: "Probe.md", documents: ["Probe.md"], context: "Probe")
        let blocks = Documentation.blocks(in: markdown, document: "Probe.md")
        let snippets = Self.snippets(in: blocks, unit: unit)
        #expect(snippets.map(\.kind) == [.compiled(continues: false), .compiled(continues: true), .compiled(continues: false), .compiled(continues: false)])
        let compilation = try Self.compile(Self.groups(snippets), unit: unit, specs: blocks.filter { $0.language == "statespec" })
        #expect(compilation.status != 0)
        #expect(snippets.map { compilation.errors(in: $0).isEmpty } == [true, true, false, true], "\(compilation.output)")
        #expect(compilation.errors(outside: snippets).isEmpty, "\(compilation.output)")
    }

    // MARK: Compiling

    /// Snippets compiled in one file: a block and the blocks that continue it.
    struct Group {
        var members: [Snippet]
    }

    /// What one swiftc run reported.
    struct Compilation: Sendable {
        var status: Int32
        var output: String
        /// Each error as `file:line:column: error: message`, with its file and line.
        var errors: [(file: String, line: Int, text: String)]

        func errors(in snippet: Snippet) -> [String] {
            errors.filter { Compilation.is($0, in: snippet) }.map(\.text)
        }

        /// Errors in none of `snippets`: in the context file, the generated code, a spec's body.
        func errors(outside snippets: [Snippet]) -> [String] {
            errors.filter { error in !snippets.contains { Compilation.is(error, in: $0) } }.map(\.text)
        }

        private static func `is`(_ error: (file: String, line: Int, text: String), in snippet: Snippet) -> Bool {
            (error.file == snippet.block.document || error.file.hasSuffix("/" + snippet.block.document))
                && snippet.block.contains(line: error.line)
        }
    }

    static let compilations = OncePerKey<Compilation>()
    static let optOutCompilations = OncePerKey<Compilation>()

    static func compiledSnippets(of unit: Documentation.Unit) -> [Group] {
        groups(snippets.filter { $0.unit.name == unit.name })
    }

    /// The compiled snippets in groups, a `continues` block joining the group before it.
    static func groups(_ snippets: [Snippet]) -> [Group] {
        var groups: [Group] = []
        for snippet in snippets {
            guard case .compiled(let continues) = snippet.kind else { continue }
            if continues, let last = groups.last?.members.last, last.block.document == snippet.block.document {
                groups[groups.count - 1].members.append(snippet)
            } else {
                groups.append(Group(members: [snippet]))
            }
        }
        return groups
    }

    /// Type-checks `groups` with the code generated from `specs` (by default the unit's), the
    /// fixtures' model types and the unit's context file.
    static func compile(_ groups: [Group], unit: Documentation.Unit, specs: [Documentation.Block]? = nil) throws -> Compilation {
        let directory = try TemporaryDirectory()
        let repository = Documentation.repository
        var files = unit.usesFixtureModel ? [repository.appendingPathComponent("Fixtures/Support/TodoModel.swift").path] : []
        var specFiles = (specs ?? Documentation.specs(of: unit)).map { spec in
            // Blank lines before the spec make its line numbers the document's.
            (source: String(repeating: "\n", count: spec.line - 1) + spec.body, path: spec.document)
        }
        for path in unit.contextPaths where FileManager.default.fileExists(atPath: repository.appendingPathComponent(path).path) {
            if path.hasSuffix(".swift") {
                files.append(repository.appendingPathComponent(path).path)
            } else {
                specFiles.append((try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8), path))
            }
        }
        for (index, spec) in specFiles.enumerated() {
            let output = Generator.generate(source: spec.source, path: spec.path)
            let swift = try #require(output.swift, "\(spec.path): \(output.diagnostics.map(\.description))")
            files.append(try directory.write(swift, to: "spec\(index).statespec.swift"))
        }
        // Specs in plain Swift: compiled as snippets, and generated as the plugin would (read in
        // the Swift form, `#sourceLocation` at the document's lines).
        if specs == nil {
            let swiftSpecs = Documentation.swiftFormSpecs(of: unit).map { spec in
                (source: String(repeating: "\n", count: spec.line - 1) + spec.body, path: spec.document + ".state.swift", document: spec.document)
            }
            let context = SpecContext(specs: swiftSpecs.map { ($0.source, $0.path) })
            for (index, spec) in swiftSpecs.enumerated() {
                let output = Generator.generate(source: spec.source, path: spec.path, options: EmitOptions(sourceLocationPath: spec.document), context: context)
                let swift = try #require(output.swift, "\(spec.document): \(output.diagnostics.map(\.description))")
                files.append(try directory.write(swift, to: "spec\(index).state.generated.swift"))
            }
        }
        for (index, group) in groups.enumerated() {
            files.append(try directory.write(source(of: group, function: "snippet\(index)"), to: "snippet\(index).swift"))
        }
        let result = try BuildProducts.typecheck(
            files,
            moduleName: "App",
            extraArguments: ["-wmo", "-parse-as-library", "-diagnostic-style", "llvm", "-Xfrontend", "-warn-on-editor-placeholder"]
        )
        return Compilation(status: result.status, output: result.standardError, errors: errors(in: result.standardError))
    }

    /// The Swift file of a group: its blocks at file scope, or in an `async throws` function.
    static func source(of group: Group, function: String) -> String {
        let code = group.members.map(\.block.body).joined()
        let atFileScope = group.members.allSatisfy { isFileScope($0.block.body) }
        var text = "import ComputedRuntime\nimport Foundation\n"
        // A block that is a whole file, with imports of its own (a spec in plain Swift), sees
        // SwiftUI's names only when it imports SwiftUI, as that file would.
        if !(atFileScope && startsWithImports(code)) || code.contains("import SwiftUI") { text += "import AppleSDKNames\n" }
        if code.contains("@Test") || code.contains("#expect") { text += "import Testing\n" }
        if !atFileScope { text += "\nfunc \(function)() async throws {\n" }
        for snippet in group.members {
            text += "#sourceLocation(file: \"\(snippet.block.document)\", line: \(snippet.block.line))\n"
            text += withoutSpecsImports(snippet.block.body).replacingOccurrences(of: "…", with: "<#…#>")
            text += "#sourceLocation()\n"
        }
        if !atFileScope { text += "}\n" }
        return text
    }

    /// `code` with each `import XSpecs` line (the specs target of the layout the Swift form
    /// recommends, whose types the snippet's module holds itself here) left blank.
    static func withoutSpecsImports(_ code: String) -> String {
        code.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let words = line.split(separator: " ")
            return words.count == 2 && words[0] == "import" && words[1].hasSuffix("Specs") ? "" : String(line)
        }.joined(separator: "\n")
    }

    /// Whether the first line of `code` that is not a comment or blank is an `import`.
    static func startsWithImports(_ code: String) -> Bool {
        let first = code.split(separator: "\n").first { line in
            let trimmed = line.drop { $0 == " " }
            return !trimmed.isEmpty && !trimmed.hasPrefix("//")
        }
        return first?.hasPrefix("import ") ?? false
    }

    /// Whether every line of `code` that starts at column 0 begins a declaration that belongs at
    /// file scope (or is a comment or a closing brace).
    static func isFileScope(_ code: String) -> Bool {
        let keywords: Set<Substring> = [
            "import", "struct", "class", "enum", "actor", "protocol", "extension", "func", "typealias",
            "final", "public", "package", "internal", "fileprivate", "private",
        ]
        return code.split(separator: "\n").allSatisfy { line in
            guard let first = line.first, first != " " else { return true }
            if line.hasPrefix("//") || line.hasPrefix("}") || line.hasPrefix("@") { return true }
            return keywords.contains(line.prefix { $0.isLetter })
        }
    }

    /// The errors of swiftc's output (`-diagnostic-style llvm`).
    static func errors(in output: String) -> [(file: String, line: Int, text: String)] {
        output.split(separator: "\n").compactMap { line in
            guard let marker = line.range(of: ": error: ") else { return nil }
            let location = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            guard location.count >= 3, let number = Int(location[location.count - 2]) else {
                return ("", 0, String(line))
            }
            return (location.dropLast(2).joined(separator: ":"), number, String(line))
        }
    }

    static func expectCompiles(_ snippet: Snippet, in compilation: Compilation) {
        let own = compilation.errors(in: snippet)
        #expect(own.isEmpty, "\(snippet.testDescription) does not compile:\n\(own.joined(separator: "\n"))")
        let unitSnippets = snippets.filter { $0.unit.name == snippet.unit.name }
        let outside = compilation.errors(outside: unitSnippets)
        #expect(
            outside.isEmpty && (compilation.status == 0 || !compilation.errors.isEmpty),
            """
            \(snippet.unit.name): errors outside its snippets (in \(snippet.unit.contextPaths.joined(separator: " or ")), \
            the generated code or a spec's body):
            \(compilation.output)
            """
        )
    }

    // MARK: Manifests and excerpts

    static func checkManifest(_ snippet: Snippet) throws {
        let firstLine = snippet.block.body.prefix { $0 != "\n" }
        let prefix = "// swift-tools-version:"
        try #require(
            firstLine.hasPrefix(prefix),
            "\(snippet.testDescription): a manifest's first line must be '\(prefix) X.Y' (SwiftPM reads it there)"
        )
        let version = firstLine.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        let api = try #require(BuildProducts.manifestAPIDirectory, "the toolchain's PackageDescription module was not found")
        let directory = try TemporaryDirectory()
        let manifest = try directory.write(
            "#sourceLocation(file: \"\(snippet.block.document)\", line: \(snippet.block.line))\n" + snippet.block.body,
            to: "Package.swift"
        )
        let result = try BuildProducts.typecheck(
            [manifest],
            moduleName: "Manifest",
            extraArguments: ["-I", api.path, "-Xfrontend", "-package-description-version", "-Xfrontend", version]
        )
        #expect(result.status == 0, "\(snippet.testDescription): the manifest does not compile:\n\(result.standardError)")
    }

    static func checkExcerpt(_ snippet: Snippet) {
        let excerpt = lines(snippet.block.body, droppingComments: true)
        let specs = Documentation.specs(of: snippet.unit).filter { $0.document == snippet.block.document }
        let generated = specs.compactMap { spec -> [String]? in
            let name = SpecFrontEnd.run(source: spec.body, path: "spec.statespec").spec?.states.first?.name ?? "Spec"
            return Generator.generate(source: spec.body, path: "\(name).statespec").swift.map { lines($0, droppingComments: true) }
        }
        #expect(!excerpt.isEmpty)
        #expect(
            generated.contains { $0.containsRun(excerpt) },
            "\(snippet.testDescription) is not an excerpt of the code generated from the document's specs"
        )
    }

    /// The non-empty lines of `text`, without indentation (and without `//` comments).
    static func lines(_ text: String, droppingComments: Bool = false) -> [String] {
        text.split(separator: "\n").map { line in
            var line = Substring(line)
            if droppingComments, let comment = commentStart(in: line) { line = line[..<comment] }
            return line.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    /// Where a `//` comment starts in `line`, outside string literals.
    private static func commentStart(in line: Substring) -> Substring.Index? {
        var inString = false
        var index = line.startIndex
        while index < line.endIndex {
            let next = line.index(after: index)
            if line[index] == "\"" {
                inString.toggle()
            } else if line[index] == "\\", inString, next < line.endIndex {
                index = line.index(after: next)
                continue
            } else if !inString, line[index] == "/", next < line.endIndex, line[next] == "/" {
                return index
            }
            index = next
        }
        return nil
    }
}

extension Array where Element == String {
    /// Whether `other` appears in this array as a contiguous run.
    func containsRun(_ other: [String]) -> Bool {
        guard !other.isEmpty, other.count <= count else { return other.isEmpty }
        return (0...(count - other.count)).contains { Array(self[$0..<($0 + other.count)]) == other }
    }
}

/// A value computed once per key, however many tests ask for it at once.
final class OncePerKey<Value: Sendable>: @unchecked Sendable {
    // Safety: `values` and `locks` are reached only under `lock`; each key's value is computed
    // under that key's own lock.
    private let lock = NSLock()
    private var values: [String: Value] = [:]
    private var locks: [String: NSLock] = [:]

    func value(for key: String, make: () throws -> Value) rethrows -> Value {
        let keyLock = lock.withLock {
            if let existing = locks[key] { return existing }
            let created = NSLock()
            locks[key] = created
            return created
        }
        keyLock.lock()
        defer { keyLock.unlock() }
        if let value = lock.withLock({ values[key] }) { return value }
        let value = try make()
        lock.withLock { values[key] = value }
        return value
    }
}
