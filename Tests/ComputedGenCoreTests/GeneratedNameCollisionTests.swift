import Foundation
import Testing

@testable import ComputedGenCore

/// Every name a spec accepts compiles, including the names generated code uses for itself.
///
/// The list of names is not written down here: it is derived from the generator's own output for
/// every fixture spec (each identifier the emitter writes that the spec did not, with its leading
/// underscores removed, since generated storage is `_` + the member's name). So when the emitter
/// starts writing a new internal name, this test tries it as a member name without anyone
/// remembering to add it. Each name becomes a field, a computed value, a selector and a selector
/// parameter of three states, which are generated and type-checked against the runtime.
@Suite("Generated code: every name a spec accepts compiles")
struct GeneratedNameCollisionTests {
    /// The identifiers of `swift` outside comments and string literals.
    static func identifiers(in swift: String) -> Set<String> {
        var names: Set<String> = []
        var current = ""
        var inString = false
        var previous: Character = " "
        for line in swift.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            inString = false
            for character in code {
                if inString {
                    if character == "\"" && previous != "\\" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if character.isLetter || character.isNumber || character == "_" || character == "$" {
                    current.append(character)
                    previous = character
                    continue
                }
                if !current.isEmpty, !(current.first!.isNumber) { names.insert(current) }
                current = ""
                previous = character
            }
            if !current.isEmpty, !(current.first!.isNumber) { names.insert(current) }
            current = ""
        }
        return names
    }

    /// The names the generator writes for itself, as a spec member would be named to meet them:
    /// every identifier of the generated files that is not in the fixture specs, leading `_`s
    /// removed, keeping those the generator accepts as member names.
    static let generatedNames: [String] = {
        var written: Set<String> = []
        var specified: Set<String> = []
        for (name, text) in FuzzFixtures.specs(in: "Specs") {
            specified.formUnion(identifiers(in: text))
            if let swift = Generator.generate(source: text, path: name).swift {
                written.formUnion(identifiers(in: swift))
            }
        }
        let location = SourceLocation(line: 1, column: 1, offset: 0)
        let names = Set(written.subtracting(specified).map { String($0.drop { $0 == "_" }) })
            .subtracting(specified)
            .filter { name in
                let identifier = Identifier(name, at: location)
                return !name.isEmpty && NameRules.keywordProblem(identifier) == nil && NameRules.reservedProblem(identifier) == nil
                    && NameRules.characterProblem(identifier) == nil
            }
        return names.sorted()
    }()

    /// Three states that use each name: as a field (plain, `@Edge`, `@Shared` in turn), as a
    /// computed value, as a selector and as a selector parameter.
    static func spec(_ names: [String]) -> String {
        var lines = ["import Foundation", "", "public state NamesAsFields: Equatable, Hashable, Codable {"]
        for (index, name) in names.enumerated() {
            switch index % 7 {
            case 3: lines.append("  @Edge var \(name): Int = \(index)")
            case 5: lines.append("  @Shared(.inMemory(\"NamesAsFields.\(index)\")) var \(name): Int = \(index)")
            default: lines.append("  var \(name): Int = \(index)")
            }
        }
        lines.append("  computed zzTotal: Int { \(names.prefix(40).joined(separator: " + ")) }")
        lines.append("  selector zzPick(zzArgument: Int) -> Int { zzArgument + \(names[0]) }")
        lines += ["}", "", "public state NamesAsComputedValues: Equatable {", "  var zzSeed: Int = 0",
                  "  var zzItems: IdentifiedList<ZZItem> = []"]
        for (index, name) in names.enumerated() {
            switch index % 5 {
            case 1: lines.append("  computed \(name): Int { zzItems.count(where: { $0.flag }) + zzSeed }")
            case 2 where index > 2: lines.append("  computed \(name): Int { \(names[index - 2]) + 1 }")
            default: lines.append("  computed \(name): Int { zzSeed + \(index) }")
            }
        }
        lines.append("  computed zzView: ListView<ZZItem> { zzItems.filter { $0.flag }.sorted(by: \\.id) }")
        lines += ["}", "", "public state NamesAsSelectors {", "  var zzSeed: Int = 0"]
        for (index, name) in names.enumerated() {
            let parameter = names[(index + 1) % names.count]
            lines.append("  selector \(name)(\(parameter): Int) -> Int { \(parameter) + zzSeed }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static let support = """
        public struct ZZItem: Identifiable, Hashable, Sendable {
            public var id: Int
            public var flag: Bool
        }

        """

    @Test("the names come from the generator's output and include its storage names")
    func namesAreDerived() {
        let names = Self.generatedNames
        #expect(names.count > 100)
        // `memo` meets the memo table's storage, `make` the state's factory: both were found by
        // deriving the list, not by writing it down.
        for expected in ["memo", "make", "refresh", "table", "ComputedBodies", "TableDrivenState"] {
            #expect(names.contains(expected), "\(expected) is not among the derived names")
        }
    }

    @Test("a spec naming its members after every generated name generates and type-checks")
    func everyNameCompiles() throws {
        let names = Self.generatedNames
        let source = Self.spec(names)
        // To see the spec and its generated Swift: COMPUTEDGEN_KEEP_NAMES_SPEC=/tmp/Names.statespec
        if let path = ProcessInfo.processInfo.environment["COMPUTEDGEN_KEEP_NAMES_SPEC"] {
            try Data(source.utf8).write(to: URL(fileURLWithPath: path))
        }
        let output = Generator.generate(source: source, path: "Names.statespec")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics.prefix(10).map(\.description).joined(separator: "\n"))")
        let swift = try #require(output.swift)
        let directory = try TemporaryDirectory()
        let files = [try directory.write(swift, to: "Names.statespec.swift"), try directory.write(Self.support, to: "Support.swift")]
        let result = try BuildProducts.typecheck(files, moduleName: "Names")
        let errors = result.standardError.split(separator: "\n").filter { $0.contains("error:") }
        #expect(result.status == 0 && errors.isEmpty, """
            \(errors.count) errors, the first:
            \(errors.prefix(15).joined(separator: "\n"))
            """)
    }
}
