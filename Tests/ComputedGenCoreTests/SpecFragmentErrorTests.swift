import Foundation
import Testing

@testable import ComputedGenCore

/// A Swift error in a spec fragment — a type, a default value, an attribute argument, a body — is
/// reported by swiftc once, at the spec line and column that hold the mistake, and nothing is
/// reported in the generated file (where a misspelled type used to be reported eight or more
/// times, then at a column of the generated line, then also as a follow-on error in a selector).
@Suite("Errors in types, defaults, attributes and bodies land at their spec position, once", .serialized)
struct SpecFragmentErrorTests {
    struct Mistake: CustomTestStringConvertible, Sendable {
        var name: String
        /// The line of ``template`` to replace (1-based), and what to put there.
        var line: Int
        var replacement: String
        /// The text on that line where the one error must point.
        var column: String
        /// Whether the error is about the declaration rather than inside its type (a public alias
        /// of an internal type): it points at the alias's name, which the generated file writes
        /// just before the type, so its column is at most the type's.
        var atOrBefore = false

        var testDescription: String { name }
    }

    /// A state that uses every generated construct: an `@Edge` field (so the state has
    /// `dynamicMember` subscripts), a `@Shared` field, every conformance, computed values (one
    /// over the `@Shared` field, which is not in the state's table) and selectors reading fields
    /// and computed values, with zero, one and two parameters; `count(plus:times:)` shares its
    /// base name with the field `count`.
    static let template = """
        import Foundation

        public state Form: Equatable, Hashable, Codable {
          var title: String = "x"
          var mode: Mode = .a
          var count: Int = 0
          @Edge(onSet: { $0 = min($0, 99) }) var badge: Int = 0
          @Shared(.inMemory("form.total")) var total: Int = 0
          computed twice: Int { count * 2 }
          selector scaled(by factor: Int) -> Int { count * factor + twice }
          computed sharedTwice: Int { total * 2 }
          selector count(plus extra: Int, times factor: Int) -> Int { sharedTwice + extra * factor }
          selector titleLength() -> Int { title.count }
        }

        """

    static let support = """
        public enum Mode: Codable, Hashable, Sendable {
            case a, b
            public enum Kind: Codable, Hashable, Sendable { case x }
        }
        struct Hidden: Codable, Hashable, Sendable {}
        public struct Plain: Codable, Equatable, Sendable {}
        #if NEVER
        public struct Later: Codable, Hashable, Sendable {}
        #endif

        """

    static let mistakes: [Mistake] = [
        // Types: each at the first character of the misspelled name.
        Mistake(name: "misspelled field type", line: 5, replacement: "  var mode: Moed = .a", column: "Moed"),
        Mistake(name: "misspelled field type in brackets", line: 5, replacement: "  var mode: [Moed] = []", column: "Moed"),
        Mistake(name: "misspelled type of a field a selector reads, whose name a selector shares", line: 6, replacement: "  var count: Intt = 0", column: "Intt"),
        Mistake(name: "misspelled type of a field a selector without parameters reads", line: 4, replacement: #"  var title: Strng = "x""#, column: "Strng"),
        Mistake(name: "misspelled type of a @Shared field", line: 8, replacement: #"  @Shared(.inMemory("form.total")) var total: Intt = 0"#, column: "Intt"),
        Mistake(name: "misspelled computed type, read by a selector", line: 9, replacement: "  computed twice: Intt { count * 2 }", column: "Intt"),
        Mistake(name: "misspelled type of a computed value over @Shared, read by a selector", line: 11, replacement: "  computed sharedTwice: Intt { total * 2 }", column: "Intt"),
        Mistake(name: "misspelled selector parameter type", line: 10, replacement: "  selector scaled(by factor: Intt) -> Int { count * factor + twice }", column: "Intt"),
        Mistake(name: "misspelled second selector parameter type", line: 12, replacement: "  selector count(plus extra: Int, times factor: Intt) -> Int { sharedTwice + extra * factor }", column: "Intt"),
        Mistake(name: "misspelled selector return type", line: 10, replacement: "  selector scaled(by factor: Int) -> Intt { count * factor + twice }", column: "Intt"),
        Mistake(name: "internal field type in a public state", line: 5, replacement: "  var mode: Hidden = Hidden()", column: "Hidden", atOrBefore: true),
        Mistake(name: "misspelled nested type of a type the target declares", line: 5, replacement: "  var mode: Mode.Kidn = .a", column: "Kidn"),
        Mistake(name: "a conditionally declared type", line: 5, replacement: "  var mode: Later? = nil", column: "Later"),
        Mistake(name: "a target's type that is not Hashable as a set element", line: 5, replacement: "  var mode: Set<Plain> = []", column: "Set"),
        // Values and attribute arguments.
        Mistake(name: "default of the wrong type", line: 4, replacement: "  var title: String = 42", column: "42"),
        Mistake(name: "default naming nothing", line: 6, replacement: "  var count: Int = zero", column: "zero"),
        Mistake(name: "onSet closure of the wrong type", line: 7, replacement: #"  @Edge(onSet: { $0 = "x" }) var badge: Int = 0"#, column: #""x""#),
        Mistake(name: "assert closure that is not a condition", line: 7, replacement: "  @Edge(assert: { $0 + 1 }) var badge: Int = 0", column: "+"),
        Mistake(name: "Shared strategy of another type", line: 8, replacement: #"  @Shared(SharedStrategy<String>.inMemory("k")) var total: Int = 0"#, column: "inMemory"),
        // Bodies.
        Mistake(name: "computed body of the wrong type", line: 9, replacement: #"  computed twice: Int { count * "2" }"#, column: #""2""#),
        Mistake(name: "selector body returning the wrong type", line: 13, replacement: "  selector titleLength() -> Int { title }", column: "title }"),
        Mistake(name: "selector body naming nothing", line: 10, replacement: "  selector scaled(by factor: Int) -> Int { count * factr + twice }", column: "factr"),
    ]

    @Test("the template itself compiles, without warnings")
    func templateCompiles() throws {
        let result = try check(Self.template)
        #expect(result.diagnostics.isEmpty, "\(result.output)")
        // The type the target declares is spelled in the public interface, as the spec wrote it.
        #expect(result.swift.contains("public var mode: Mode {"), "\(result.swift)")
    }

    @Test("one mistake, one error at its spec line and column, none in the generated file", arguments: mistakes)
    func errorAtSpecPosition(_ mistake: Mistake) throws {
        var lines = Self.template.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[mistake.line - 1] = mistake.replacement
        let result = try check(lines.joined(separator: "\n"))
        let range = try #require(mistake.replacement.range(of: mistake.column), "\(mistake.column) is not on the line")
        let column = mistake.replacement.utf8.distance(from: mistake.replacement.startIndex, to: range.lowerBound) + 1
        try #require(result.errors.count == 1, "expected one error at \(mistake.line):\(column):\n\(result.output)")
        let error = result.errors[0]
        let prefix = "\(result.spec):\(mistake.line):"
        #expect(error.hasPrefix(prefix), "\(error)")
        if mistake.atOrBefore {
            let reported = Int(error.dropFirst(prefix.count).prefix { $0.isNumber }) ?? .max
            #expect(reported <= column, "\(error)")
        } else {
            #expect(error.hasPrefix("\(prefix)\(column): error: "), "expected \(mistake.line):\(column):\n\(result.output)")
        }
        let inGenerated = result.diagnostics.filter { $0.hasPrefix(result.generated + ":") }
        #expect(inGenerated.isEmpty, "\(inGenerated.joined(separator: "\n"))")
    }

    @Test("a curly quote outside a string is reported by the generator, once per quote, at its column")
    func curlyQuotes() throws {
        let directory = try TemporaryDirectory()
        let spec = try directory.write("""
            state Q {
              var name: String = “x”
              computed hello: String { “Hello” + name + "“fine”" }  // “fine”
            }

            """, to: "Q.statespec")
        let result = Command().run(["generate", spec, "--output", spec + ".swift"])
        #expect(result.status == 1)
        let message = "error: unicode curly quote found, replace with '\"'"
        #expect(result.standardError.split(separator: "\n").map(String.init) == [
            "\(spec):2:22: \(message)", "\(spec):2:26: \(message)",
            "\(spec):3:28: \(message)", "\(spec):3:36: \(message)",
        ])
        #expect(!FileManager.default.fileExists(atPath: spec + ".swift"))
    }

    @Test("a single-quoted literal is reported by the generator at its quote, and its braces close nothing")
    func singleQuotes() throws {
        let directory = try TemporaryDirectory()
        // Found by the fuzz test: Swift reads `'}` as an unterminated literal, so the body's
        // closing brace vanished and the generated file's structure broke at its own lines.
        let spec = try directory.write("""
            state Q {
              var badge: Int = 0
              computed text: String { badge >= 99 ? "99+" : "\\(badge)"'}
              computed letter: Character { 'a' }
              computed fine: String { "it's" }  // it's fine here too
            }

            """, to: "Q.statespec")
        let result = Command().run(["generate", spec, "--output", spec + ".swift"])
        #expect(result.status == 1)
        let message = "error: single-quoted string literal found, use '\"'"
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["\(spec):3:59: \(message)", "\(spec):4:32: \(message)"], "\(result.standardError)")
        #expect(!lines.contains { $0.contains(":5:") })
        #expect(!FileManager.default.fileExists(atPath: spec + ".swift"))
    }

    /// Generates `source`, type-checks it with the support types, and returns swiftc's error
    /// lines and every diagnostic line (errors, warnings, notes), each as swiftc printed it in the
    /// one-line `llvm` style, not deduplicated: an error printed twice counts twice.
    private func check(_ source: String) throws -> (spec: String, generated: String, swift: String, errors: [String], diagnostics: [String], output: String) {
        let directory = try TemporaryDirectory()
        let spec = try directory.write(source, to: "Form.statespec")
        let generated = spec + ".swift"
        // As the plugin runs the tool: the index of the target's Swift, then the generator with it.
        let supportPath = try directory.write(Self.support, to: "Support.swift")
        let index = spec + ".types.swift"
        let indexing = Command().run(["index-types", supportPath, "--output", index])
        try #require(indexing.status == 0, "\(indexing.standardError)")
        let generation = Command().run(["generate", spec, "--output", generated, "--type-index", index])
        try #require(generation.status == 0, "\(generation.standardError)")
        let result = try BuildProducts.typecheck(
            [generated, supportPath], moduleName: "FragmentCheck", extraArguments: ["-diagnostic-style", "llvm"]
        )
        let diagnostics = result.standardError.split(separator: "\n").map(String.init)
            .filter { $0.contains(": error: ") || $0.contains(": warning: ") || $0.contains(": note: ") }
        let errors = diagnostics.filter { $0.contains(": error: ") }
        let swift = try String(contentsOfFile: generated, encoding: .utf8)
        return (spec, generated, swift, errors, diagnostics, result.standardError)
    }
}
