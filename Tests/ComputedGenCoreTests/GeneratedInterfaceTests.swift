import Foundation
import Testing

@testable import ComputedGenCore

/// The generated public interface in the spec's own types: Quick Help, DocC, completion and
/// compiler messages show `[Todo]` and `[String: Int]`, not `__todosType`, wherever the generator
/// knows the type exists (see ``KnownTypes`` and ``TypeIndex``); a type it cannot vouch for keeps
/// the alias that reports a mistake in it once.
@Suite("Generated interface: the spec's own types")
struct GeneratedInterfaceTests {
    /// The public declarations of `swift` (lines declaring public members, and the parameters of
    /// public initializers) that name one of the type aliases the file declares, with the alias.
    static func aliasesInPublicDeclarations(of swift: String) -> [(line: String, alias: String)] {
        let aliases = Set(swift.matches(of: /typealias\s+(__[A-Za-z0-9_]+)\s*=/).map { String($0.output.1) })
        var result: [(String, String)] = []
        var inPublicInit = false
        for line in swift.split(separator: "\n").map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("init(") { inPublicInit = trimmed.hasPrefix("public ") }
            let isPublic = inPublicInit || (trimmed.contains("public ") && !trimmed.contains("typealias"))
            if inPublicInit, trimmed.hasPrefix(")") { inPublicInit = false }
            guard isPublic else { continue }
            for match in trimmed.matches(of: /__[A-Za-z0-9_]+/) where aliases.contains(String(match.output)) {
                result.append((trimmed, String(match.output)))
            }
        }
        return result
    }

    /// The spec type each alias of the state stands for, by alias name.
    static func typesByAlias(_ spec: CheckedSpec) -> [String: String] {
        var types: [String: String] = [:]
        for state in spec.states {
            for field in state.fields { types[SpecFragmentNames.type(of: field.name)] = field.decl.type?.text }
            for computed in state.computeds { types[SpecFragmentNames.type(of: computed.name)] = computed.decl.type?.text }
        }
        return types
    }

    @Test("no public declaration of a fixture names an alias", arguments: GoldenTests.specNames)
    func publicTypes(_ specName: String) throws {
        // The goldens are generated with the index of their target's own Swift (Fixtures/Support),
        // as the plugin generates an app's: every type the fixtures use is one it can vouch for.
        let path = "Fixtures/Specs/\(specName)"
        let source = try String(contentsOf: GoldenTests.fixtures.appendingPathComponent("Specs/\(specName)"), encoding: .utf8)
        let swift = try #require(Generator.generate(source: source, path: path, options: GoldenTests.options, context: GoldenTests.context).swift)
        let named = Self.aliasesInPublicDeclarations(of: swift)
        #expect(named.isEmpty, "\(specName): \(named.map { "'\($0.line)' names \($0.alias)" }.joined(separator: "\n"))")
    }

    @Test("without an index, a public declaration names an alias only for a type the generator cannot vouch for", arguments: GoldenTests.specNames)
    func publicTypesWithoutIndex(_ specName: String) throws {
        let path = "Fixtures/Specs/\(specName)"
        let source = try String(contentsOf: GoldenTests.fixtures.appendingPathComponent("Specs/\(specName)"), encoding: .utf8)
        let checked = try #require(SpecFrontEnd.run(source: source, path: path, context: GoldenTests.context).spec)
        let swift = try #require(Generator.generate(source: source, path: path, context: GoldenTests.context).swift)
        let importsFoundation = checked.file.imports.contains { ["Foundation", "SwiftUI"].contains($0.module) }
        let known = KnownTypes(importsFoundation: importsFoundation, stateNames: checked.states.map(\.name))
        let types = Self.typesByAlias(checked)
        for (line, alias) in Self.aliasesInPublicDeclarations(of: swift) {
            guard let type = types[alias] else { continue }  // a selector's parameter or result
            #expect(known.spelling(of: type) == nil, "\(specName): '\(line)' names \(alias), but \(type) is known")
        }
    }

    @Test("a spec of standard library types has no alias in its public interface")
    func standardLibraryTypes() throws {
        let source = """
            import Foundation

            public state Profile {
              var name: String = ""
              var tags: Set<String> = []
              var scores: [String: [Int]] = [:]
              var birthday: Date? = nil
              computed initials: String { String(name.prefix(2)) }
              computed best: Int? { scores.values.flatMap { $0 }.max() }
              selector tagged(_ tag: String) -> Bool { tags.contains(tag) }
            }

            """
        let swift = try #require(Generator.generate(source: source, path: "Profile.statespec").swift)
        #expect(Self.aliasesInPublicDeclarations(of: swift).map(\.line) == [])
        #expect(swift.contains("public var scores: [String: [Int]] {"))
        #expect(swift.contains("public var birthday: Date? {"))
        #expect(swift.contains("public static func tagged(_ tag: String) -> ComputedRuntime.StateSelector<Profile, Bool> {"))
        #expect(swift.contains("    tags: Set<String> = Extended.__tagsDefault,"))
    }

    @Test("known types: the forms and names the generator vouches for", arguments: [
        ("Int", "Int"), ("[String]", "[String]"), ("[ String : [Int] ]", "[String: [Int]]"), ("Int??", "Int??"),
        ("Set<String>", "Set<String>"), ("Dictionary<Int,Bool>", "Dictionary<Int, Bool>"), ("Optional<Double>", "Optional<Double>"),
        ("Date", nil), ("[Todo]", nil), ("Set<Shelf>", nil), ("[Shelf: Int]", nil), ("Array<Int, Int>", nil),
        ("Swift.Int", nil), ("Int // a count", nil), ("(Int, Int)", nil), ("Shelf?", "Shelf?"),
    ] as [(String, String?)])
    func spellings(_ text: String, _ expected: String?) {
        #expect(KnownTypes(importsFoundation: false, stateNames: ["Shelf"]).spelling(of: text) == expected)
    }

    @Test("Foundation's types are known when the spec imports Foundation")
    func foundationTypes() {
        let known = KnownTypes(importsFoundation: true, stateNames: [])
        #expect(known.spelling(of: "[UUID: Date]") == "[UUID: Date]")
        #expect(known.spelling(of: "URL?") == "URL?")
    }
}
