import ComputedGenCore
import Testing

@testable import ComputedGenLSP

/// The map that forwarding to sourcekit-lsp needs: every name in a body maps to the same name in
/// the generated file, and back.
@Suite("Source map: spec positions ↔ generated positions")
struct SourceMapTests {
    @Test("every name in every body of every fixture maps to itself in the generated file, and back", arguments: try Repository.fixtureNames())
    func bodies(_ name: String) throws {
        let text = try Repository.fixture(name)
        let generated = try #require(Generator.generate(source: text, path: "Fixtures/Specs/\(name)").swift)
        let map = SourceMap(generated: generated)
        let specLines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let document = SpecDocument(uri: "file:///\(name)", version: 1, text: text)
        var checked = 0
        for member in document.index.members.values {
            guard let body = member.body else { continue }
            for reference in IdentifierReferences.list(in: body) {
                let location = reference.location
                let mapped = try #require(map.generatedPosition(line: location.line, column: location.column, specLine: specLines[location.line - 1]),
                                          "\(name): \(reference.name) at \(location)")
                let generatedText = map.generatedLines[mapped.line].dropFirst(mapped.column)
                let spelling = reference.isEscaped ? "`\(reference.name)`" : reference.name
                #expect(generatedText.starts(with: Array(spelling.utf8)), "\(name): \(reference.name) at \(location)")
                let back = map.specPosition(generatedLine: mapped.line, column: mapped.column)
                #expect(back?.line == location.line && back?.column == location.column)
                checked += 1
            }
        }
        #expect(checked > 0 || !text.contains("computed"))
    }

    @Test("`$0.` inside a body maps to right after the same `.`, where Swift completes Todo's members")
    func memberAccess() throws {
        let text = try Repository.fixture("Todo.statespec")
        let generated = try #require(Generator.generate(source: text, path: "Todo.statespec").swift)
        let map = SourceMap(generated: generated)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let line = try #require(lines.firstIndex { String(decoding: $0, as: UTF8.self).contains("$0.owner") })
        let column = String(decoding: lines[line], as: UTF8.self).utf8.split(separator: UInt8(ascii: "$")).first!.count + 4
        let mapped = try #require(map.generatedPosition(line: line + 1, column: column, specLine: lines[line]))
        #expect(String(decoding: map.generatedLines[mapped.line][..<mapped.column], as: UTF8.self).hasSuffix("$0."))
        #expect(map.specPosition(generatedLine: 0, column: 0) == nil)
    }
}
