import Foundation
import Testing

@testable import ComputedGenCore

/// Helpers for the emitter tests: generate Swift from spec text and pick fragments out of it.
enum Emit {
    /// The Swift generated for `source`, failing the test when the spec has diagnostics.
    static func swift(
        _ source: String,
        path: String = "t.statespec",
        options: EmitOptions = EmitOptions(),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> String {
        let output = Generator.generate(source: source, path: path, options: options)
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics.map(\.description))", sourceLocation: sourceLocation)
        return try #require(output.swift, sourceLocation: sourceLocation)
    }

    /// The checked spec of `source`, failing the test when it has errors.
    static func checked(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CheckedSpec {
        let result = SpecFrontEnd.run(source: source, path: "t.statespec")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))", sourceLocation: sourceLocation)
        return try #require(result.spec, sourceLocation: sourceLocation)
    }

    /// The lines of `text`, each trimmed of leading and trailing spaces.
    static func trimmedLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The trimmed lines strictly inside the first block whose header line (trimmed) starts with
    /// `header`, up to its closing brace at the same indentation.
    static func block(startingWith header: String, in text: String) -> [String]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.drop { $0 == " " }.hasPrefix(header) }) else { return nil }
        let indentation = lines[start].prefix { $0 == " " }
        var body: [String] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix(indentation + "}") {
                return body.map { String($0.drop { $0 == " " }) }
            }
            body.append(line)
        }
        return nil
    }

    /// The components `_x` of `_x.invalidate()` lines in `__<field>DidChange()`, or `nil` when
    /// there is no such hook.
    static func invalidations(of field: String, in text: String) -> [String]? {
        // `fileprivate` in an internal state, `@usableFromInline internal` in a public one.
        let header = "mutating func __\(field)DidChange()"
        guard let body = block(startingWith: "fileprivate " + header, in: text)
            ?? block(startingWith: "@usableFromInline internal " + header, in: text) else { return nil }
        return body.compactMap { line in
            guard line.hasSuffix(".invalidate()") else { return nil }
            return String(line.dropFirst().prefix { $0 != "." })
        }
    }

    /// How many times `fragment` occurs in `text`.
    static func count(of fragment: String, in text: String) -> Int {
        guard !fragment.isEmpty else { return 0 }
        var count = 0
        var rest = Substring(text)
        while let range = rest.range(of: fragment) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}
