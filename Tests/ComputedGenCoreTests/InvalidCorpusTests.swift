import Foundation
import Testing

@testable import ComputedGenCore

/// Runs the front end over every bad spec in `Fixtures/Invalid` and compares its diagnostics,
/// exactly, with the `.diagnostics` file next to it (one `name.statespec:LINE:COL: error: message`
/// per line).
@Suite("Invalid spec corpus")
struct InvalidCorpusTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let directory = fixtures.appendingPathComponent("Invalid")

    static var caseNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".statespec") }.map { String($0.dropLast(".statespec".count)) }.sorted()
    }

    @Test("the corpus has at least 20 cases, each with expected diagnostics")
    func corpusIsComplete() {
        #expect(Self.caseNames.count >= 20)
        for name in Self.caseNames {
            let expected = Self.directory.appendingPathComponent("\(name).diagnostics")
            #expect(FileManager.default.fileExists(atPath: expected.path), "\(name).diagnostics is missing")
        }
    }

    @Test("each bad spec produces exactly its expected diagnostics", arguments: caseNames)
    func diagnostics(_ name: String) throws {
        let specName = "\(name).statespec"
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(specName)))
        let expectedText = try String(contentsOf: Self.directory.appendingPathComponent("\(name).diagnostics"), encoding: .utf8)
        let expected = expectedText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let actual: [String]
        switch SpecSource.decode(bytes, path: specName) {
        case .success(let source):
            let result = SpecFrontEnd.run(source: source, path: specName)
            actual = result.diagnostics.map(\.description)
            #expect(result.spec == nil, "\(specName) produced a spec")
        case .failure(let diagnostic):
            actual = [diagnostic.description]
        }
        if actual != expected {
            Issue.record("\(specName): diagnostics differ\n\(Self.diff(expected: expected, actual: actual))")
        }
    }

    /// A readable line diff: `-` for expected lines that are missing, `+` for unexpected ones.
    static func diff(expected: [String], actual: [String]) -> String {
        let difference = actual.difference(from: expected)
        var lines: [String] = []
        for change in difference {
            switch change {
            case .remove(_, let line, _): lines.append("- \(line)")
            case .insert(_, let line, _): lines.append("+ \(line)")
            }
        }
        return (["expected:"] + expected.map { "  \($0)" } + ["actual:"] + actual.map { "  \($0)" } + ["diff:"] + lines)
            .joined(separator: "\n")
    }
}
