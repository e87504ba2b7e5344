import Foundation
import Testing

@testable import ComputedGenCore

/// Generated files sit in users' source trees (committed under `GeneratedSources/`, or opened from
/// the build folder), where teams run formatters and linters on every commit. A rewrite would move
/// the spec text that `#sourceLocation` places at its spec line and column, so errors would land
/// on the wrong spec lines: the header tells those tools to leave the file alone. These tests run
/// the toolchain's `swift-format` over every golden, as a team's pre-commit hook would.
@Suite("Generated files: formatters and linters leave them alone")
struct GeneratedFormattingTests {
    /// The toolchain's `swift-format`, found on `PATH` (it ships with Swift 6 toolchains).
    static let swiftFormat: URL? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return paths.map { URL(fileURLWithPath: String($0)).appendingPathComponent("swift-format") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static var goldens: [String] {
        let directory = GoldenTests.fixtures.appendingPathComponent("Generated").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// `swift-format lint --strict` and `swift-format format` on a copy of `text`.
    static func swiftFormat(_ text: String, name: String) throws -> (lint: BuildProducts.Run, formatted: String) {
        let tool = try #require(swiftFormat, "swift-format is not on PATH")
        let directory = try TemporaryDirectory()
        let file = try directory.write(text, to: name)
        let lint = try BuildProducts.run(tool, ["lint", "--strict", file])
        let format = try BuildProducts.run(tool, ["format", file])
        #expect(format.status == 0, "swift-format format \(name): \(format.standardError)")
        return (lint, format.standardOutput)
    }

    @Test("swift-format lints every golden clean and formats it to the same bytes", .enabled(if: swiftFormat != nil), arguments: goldens)
    func goldenUntouched(_ name: String) throws {
        let text = try String(contentsOf: GoldenTests.fixtures.appendingPathComponent("Generated/\(name)"), encoding: .utf8)
        let result = try Self.swiftFormat(text, name: name)
        #expect(result.lint.status == 0 && result.lint.standardError.isEmpty && result.lint.standardOutput.isEmpty,
                "swift-format lint reported on \(name):\n\(result.lint.standardError.prefix(2_000))")
        #expect(result.formatted == text, "swift-format format changes \(name):\n\(LineDiff.describe(expected: text, actual: result.formatted))")
    }

    /// Without the header's directives swift-format would rewrite the file (so the test above is
    /// about the directives, not about a layout that happens to suit the formatter).
    @Test("without the header's directives swift-format would rewrite a golden", .enabled(if: swiftFormat != nil))
    func directivesAreWhatKeepsItUntouched() throws {
        let name = "Todo.statespec.swift"
        let text = try String(contentsOf: GoldenTests.fixtures.appendingPathComponent("Generated/\(name)"), encoding: .utf8)
        for directive in SwiftEmitter.formatterDirectives { #expect(text.contains("\n\(directive)\n"), "\(directive)") }
        let bare = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !SwiftEmitter.formatterDirectives.contains(String($0)) }.joined(separator: "\n")
        let result = try Self.swiftFormat(bare, name: name)
        #expect(result.formatted != bare)
        #expect(result.lint.status != 0 || !result.lint.standardError.isEmpty)
    }
}
