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

    /// The state table's entries in `text` (`table.field("a", …)`, `table.computed("b", …, inputs:
    /// "a c shelf.items") {`): the fields in order, and each computed value with its inputs by
    /// name (`"a"`, `"c"`, `"shelf.items"` for a member input).
    static func table(in text: String) -> (fields: [String], computeds: [(name: String, inputs: [String])]) {
        var fields: [String] = []
        var computeds: [(name: String, inputs: [String])] = []
        func quoted(_ line: Substring) -> String {
            String(line.drop { $0 != "\"" }.dropFirst().prefix { $0 != "\"" })
        }
        for line in trimmedLines(text) {
            if line.hasPrefix("table.field(") || line.hasPrefix("table.edge(") || line.hasPrefix("table.shared(") {
                fields.append(quoted(line[...]))
            } else if line.hasPrefix("table.computed("), let open = line.range(of: "inputs: \"") {
                let names = line[open.upperBound...].prefix { $0 != "\"" }
                computeds.append((quoted(line[...]), names.split(separator: " ").map(String.init)))
            }
        }
        return (fields, computeds)
    }

    /// The computed values a write to `field` marks stale, by the runtime's rule applied to the
    /// emitted table: those that read it, directly or through other computed values; `nil` when
    /// none does (then its writes call no hook).
    static func invalidations(of field: String, in text: String) -> Set<String>? {
        invalidations(in: text)[field]
    }

    /// ``invalidations(of:in:)`` for every field at once (one pass: the table lists computed
    /// values after what they read).
    static func invalidations(in text: String) -> [String: Set<String>] {
        let table = table(in: text)
        let fields = Set(table.fields)
        var reads: [String: Set<String>] = [:]  // computed -> the fields it reads, directly or not
        var result: [String: Set<String>] = [:]
        for computed in table.computeds {
            var read: Set<String> = []
            for input in computed.inputs {
                let name = String(input.prefix { $0 != "." })
                if fields.contains(name) { read.insert(name) } else { read.formUnion(reads[name] ?? []) }
            }
            reads[computed.name] = read
            for field in read { result[field, default: []].insert(computed.name) }
        }
        return result
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
