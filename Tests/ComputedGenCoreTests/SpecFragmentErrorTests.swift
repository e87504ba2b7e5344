import Foundation
import Testing

@testable import ComputedGenCore

/// A Swift error in a spec fragment outside bodies — a type, a default value, an attribute
/// argument — is reported by swiftc once, at the spec line that holds the mistake, and never in
/// the generated file (where it used to be reported eight or more times).
@Suite("Errors in types, defaults and attributes land on the spec line, once", .serialized)
struct SpecFragmentErrorTests {
    struct Mistake: CustomTestStringConvertible, Sendable {
        var name: String
        /// The line of ``template`` to replace (1-based), and what to put there.
        var line: Int
        var replacement: String
        /// Text on that line where the error must point, when its column is exact.
        var column: String?
        /// How many errors swiftc may report (all on that line): a computed type is spelled in
        /// its alias and in its body's signature, so a typo there is reported twice.
        var maximum = 1

        var testDescription: String { name }
    }

    /// A state that uses every generated construct: an `@Edge` field (so the state has
    /// `dynamicMember` subscripts), a `@Shared` field, every conformance, a computed value and a
    /// selector with a parameter.
    static let template = """
        import Foundation

        public state Form: Equatable, Hashable, Codable {
          var title: String = "x"
          var mode: Mode = .a
          var count: Int = 0
          @Edge(onSet: { $0 = min($0, 99) }) var badge: Int = 0
          @Shared(.inMemory("form.total")) var total: Int = 0
          computed twice: Int { count * 2 }
          selector scaled(by factor: Int) -> Int { count * factor }
        }

        """

    static let support = """
        public enum Mode: Codable, Hashable, Sendable { case a, b }
        struct Hidden: Codable, Hashable, Sendable {}

        """

    static let mistakes: [Mistake] = [
        Mistake(name: "misspelled field type", line: 5, replacement: "  var mode: Moed = .a"),
        Mistake(name: "default of the wrong type", line: 4, replacement: "  var title: String = 42", column: "42"),
        Mistake(name: "onSet closure of the wrong type", line: 7, replacement: #"  @Edge(onSet: { $0 = "x" }) var badge: Int = 0"#, column: #""x""#),
        Mistake(name: "assert closure that is not a condition", line: 7, replacement: "  @Edge(assert: { $0 + 1 }) var badge: Int = 0", column: "+"),
        Mistake(name: "Shared strategy of another type", line: 8, replacement: #"  @Shared(SharedStrategy<String>.inMemory("k")) var total: Int = 0"#),
        Mistake(name: "internal field type in a public state", line: 5, replacement: "  var mode: Hidden = Hidden()"),
        Mistake(name: "misspelled computed type", line: 9, replacement: "  computed twice: Intt { count * 2 }", maximum: 2),
        Mistake(name: "misspelled selector parameter type", line: 10, replacement: "  selector scaled(by factor: Intt) -> Int { count * factor }"),
        Mistake(name: "misspelled selector return type", line: 10, replacement: "  selector scaled(by factor: Int) -> Intt { count * factor }", maximum: 2),
    ]

    @Test("the template itself compiles")
    func templateCompiles() throws {
        let result = try check(Self.template)
        #expect(result.errors.isEmpty, "\(result.output)")
    }

    @Test("one mistake, one error at its spec line", arguments: mistakes)
    func errorAtSpecLine(_ mistake: Mistake) throws {
        var lines = Self.template.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[mistake.line - 1] = mistake.replacement
        let result = try check(lines.joined(separator: "\n"))
        #expect(!result.errors.isEmpty, "no error for \(mistake.name)")
        #expect(result.errors.count <= mistake.maximum, "\(result.errors.joined(separator: "\n"))")
        for error in result.errors {
            #expect(error.hasPrefix("\(result.spec):\(mistake.line):"), "\(error)")
        }
        if let needle = mistake.column, let range = mistake.replacement.range(of: needle) {
            let column = mistake.replacement.utf8.distance(from: mistake.replacement.startIndex, to: range.lowerBound) + 1
            #expect(result.errors.contains { $0.hasPrefix("\(result.spec):\(mistake.line):\(column):") }, "\(result.errors)")
        }
    }

    /// Generates `source`, type-checks it with the support types, and returns the distinct
    /// error lines (swiftc prints each error again in its source excerpt).
    private func check(_ source: String) throws -> (spec: String, errors: [String], output: String) {
        let directory = try TemporaryDirectory()
        let spec = directory.path("Form.statespec")
        try Data(source.utf8).write(to: URL(fileURLWithPath: spec))
        let generated = spec + ".swift"
        let generation = Command().run(["generate", spec, "--output", generated])
        try #require(generation.status == 0, "\(generation.standardError)")
        let supportPath = directory.path("Support.swift")
        try Data(Self.support.utf8).write(to: URL(fileURLWithPath: supportPath))
        let result = try BuildProducts.typecheck([generated, supportPath], moduleName: "FragmentCheck")
        var seen: Set<String> = []
        let errors = result.standardError.split(separator: "\n").map(String.init)
            .filter { $0.contains(": error: ") && !$0.hasPrefix(" ") && seen.insert($0).inserted }
        return (spec, errors, result.standardError)
    }
}
