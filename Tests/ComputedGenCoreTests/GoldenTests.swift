import Foundation
import Testing

@testable import ComputedGenCore

/// Compares the generator's output for every spec in `Fixtures/Specs` with the golden file in
/// `Fixtures/Generated`.
///
/// To refresh the goldens after an intended change to the emitter, run
/// `COMPUTEDGEN_UPDATE_GOLDENS=1 swift test --filter GoldenTests`, then review `git diff Fixtures`.
/// The GoldenStates target compiles the goldens and GoldenStatesTests exercises them.
@Suite("Golden files")
struct GoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static var specNames: [String] {
        let directory = fixtures.appendingPathComponent("Specs").path
        let specs = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return specs.filter { $0.hasSuffix(".statespec") }.sorted()
    }

    @Test("the fixtures hold specs")
    func fixturesExist() {
        #expect(Self.specNames.count >= 6)
    }

    /// The fixture specs as one target's: each is generated with the others as its context, as
    /// the plugin does (`Nested.statespec` nests `Shared.statespec`'s `ChildState`).
    static let context = SpecContext(specs: specNames.compactMap { name in
        (try? String(contentsOf: fixtures.appendingPathComponent("Specs/\(name)"), encoding: .utf8)).map { ($0, "Fixtures/Specs/\(name)") }
    })

    /// The types of the golden target's own Swift (`Fixtures/Support`), indexed as the plugin
    /// indexes a target's sources: the goldens spell them as the specs do.
    static let typeIndex: TypeIndex = {
        var scanner = TypeIndexScanner()
        let support = fixtures.appendingPathComponent("Support")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: support.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".swift") {
            if let text = try? String(contentsOf: support.appendingPathComponent(file), encoding: .utf8) { scanner.scan(text) }
        }
        return scanner.index
    }()

    /// The options the goldens are generated with.
    static let options = EmitOptions(typeIndex: typeIndex)

    @Test("each spec generates its golden file", arguments: specNames)
    func golden(_ specName: String) throws {
        let specURL = Self.fixtures.appendingPathComponent("Specs").appendingPathComponent(specName)
        let goldenURL = Self.fixtures.appendingPathComponent("Generated").appendingPathComponent(specName + ".swift")
        let source = try String(contentsOf: specURL, encoding: .utf8)
        let output = Generator.generate(source: source, path: "Fixtures/Specs/\(specName)", options: Self.options, context: Self.context)
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics.map(\.description).joined(separator: "\n"))")
        let generated = try #require(output.swift)

        if ProcessInfo.processInfo.environment["COMPUTEDGEN_UPDATE_GOLDENS"] != nil {
            try Data(generated.utf8).write(to: goldenURL, options: .atomic)
            return
        }
        let expected = (try? String(contentsOf: goldenURL, encoding: .utf8)) ?? ""
        if generated != expected {
            Issue.record("""
                \(goldenURL.lastPathComponent) differs from the generator's output \
                (refresh with COMPUTEDGEN_UPDATE_GOLDENS=1 swift test --filter GoldenTests):
                \(LineDiff.describe(expected: expected, actual: generated))
                """)
        }
    }

    @Test("generating twice gives the same bytes", arguments: specNames)
    func deterministic(_ specName: String) throws {
        let source = try String(contentsOf: Self.fixtures.appendingPathComponent("Specs/\(specName)"), encoding: .utf8)
        let first = Generator.generate(source: source, path: specName, options: Self.options, context: Self.context).swift
        let second = Generator.generate(source: source, path: specName, options: Self.options, context: Self.context).swift
        #expect(first != nil)
        #expect(first == second)
    }
}

/// A small line diff for readable golden-file failures.
enum LineDiff {
    /// The lines that differ, as `N -expected` / `N +actual`, at most `limit` lines.
    static func describe(expected: String, actual: String, limit: Int = 40) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) where lines.count < limit {
            let before = index < old.count ? String(old[index]) : nil
            let after = index < new.count ? String(new[index]) : nil
            if before != after {
                if let before { lines.append("\(index + 1) -\(before)") }
                if let after { lines.append("\(index + 1) +\(after)") }
            }
        }
        return lines.joined(separator: "\n")
    }
}
