import Foundation
import Testing

@testable import ComputedGenCore

/// The generator's work grows linearly with its input: big specs, long bodies, deep chains of
/// computed on computed, and inputs built to make a lexer or checker go quadratic.
///
/// No wall-clock assertions (the project forbids timed unit tests): each test grows an input ten
/// times and checks measures that do not depend on the machine — the size of the output, and
/// ``Lexer/tokensRead``, the lexer's count of tokens read (interpolations and retries included).
/// The sizes keep CI fast; `scripts/measure-scale.sh` times the same shapes, ten and a hundred
/// times larger (5 MB specs), on the release tool, with peak memory.
@Suite("Scale: linear growth")
struct ScaleInputTests {
    /// `b` over `a`, for messages.
    private func ratio(_ a: Int, _ b: Int) -> Double {
        Double(b) / Double(max(a, 1))
    }

    /// A spec of `states` states with 20 fields, 20 computeds and 5 selectors each: about 2 KB a state.
    static func largeSpec(states: Int) -> String {
        var text = "import Foundation\n"
        for state in 0..<states {
            text += "\n/// State \(state).\npublic state S\(state): Equatable, Codable {\n"
            for field in 0..<20 { text += "  var f\(field): Int = \(field)\n" }
            for index in 0..<20 {
                let other = index > 0 ? " + c\(index - 1)" : ""
                text += "  computed c\(index): Int { f\(index) * 2 + f\((index * 7) % 20)\(other) }\n"
            }
            for index in 0..<5 { text += "  selector s\(index)(_ x: Int) -> Int { c\(index * 4) + x }\n" }
            text += "}\n"
        }
        return text
    }

    /// A spec whose one computed has a body of `lines` lines.
    static func longBody(lines: Int) -> String {
        var text = "state Long {\n  var items: [Int] = []\n  computed total: Int {\n    var sum = 0\n"
        for line in 0..<lines { text += "    sum += items.count * \(line)  // line \(line)\n" }
        return text + "    return sum\n  }\n}\n"
    }

    /// A spec with a chain of `depth` computed values, each reading the one before.
    static func chain(depth: Int) -> String {
        var text = "state Chain {\n  var seed: Int = 0\n  computed c0: Int { seed + 1 }\n"
        for index in 1..<depth { text += "  computed c\(index): Int { c\(index - 1) + 1 }\n" }
        return text + "}\n"
    }

    @Test("a spec ten times larger (50 KB to 500 KB) generates ten times the Swift")
    func largeSpec() throws {
        let small = Self.largeSpec(states: 34)
        let large = Self.largeSpec(states: 340)
        #expect(small.utf8.count > 50_000 && large.utf8.count > 500_000, "\(small.utf8.count), \(large.utf8.count) bytes")
        let smallSwift = try Emit.swift(small)
        let largeSwift = try Emit.swift(large)
        let growth = ratio(smallSwift.utf8.count, largeSwift.utf8.count)
        #expect(growth > 9.5 && growth < 10.5, "output grew \(growth) times")
    }

    @Test("a body ten times longer (1,000 to 10,000 lines) adds exactly its lines to the output")
    func longBody() throws {
        var overheads: [Int] = []
        for lines in [1_000, 10_000] {
            let swift = try Emit.swift(Self.longBody(lines: lines))
            let outputLines = swift.split(separator: "\n", omittingEmptySubsequences: false).count
            overheads.append(outputLines - lines)
            #expect(swift.contains("\n    sum += items.count * \(lines - 1)  // line \(lines - 1)\n"))
        }
        #expect(overheads[0] == overheads[1], "the output around the body changed with its length: \(overheads)")
    }

    @Test("computed on computed 100 and 1,000 deep: each level adds the same output, every level reached from the seed")
    func deepChains() throws {
        let sizes = try [10, 100, 1_000].map { try Emit.swift(Self.chain(depth: $0)).utf8.count }
        // 90 more levels, then 900 more: ten times the output added (a little more, as the
        // names get a digit longer), not a hundred times as a quadratic emitter would.
        let growth = ratio(sizes[1] - sizes[0], sizes[2] - sizes[1])
        #expect(growth > 9.5 && growth < 12, "output grew \(growth) times: \(sizes)")

        let deep = try Emit.swift(Self.chain(depth: 100))
        let state = try #require(try Emit.checked(Self.chain(depth: 100)).states.first)
        #expect(state.computeds.map(\.name) == (0..<100).map { "c\($0)" })
        #expect(state.fields.first?.dependents == (0..<100).map { "c\($0)" })
        #expect(Emit.invalidations(of: "seed", in: deep) == Set((0..<100).map { "c\($0)" }))
        // One edge per level: `.field(0)` for the first, `.computed(i - 1)` for the others.
        #expect(Emit.table(in: deep).computeds.map(\.inputs) == [["seed"]] + (0..<99).map { ["c\($0)"] })
    }

    /// The tokens the lexer reads for all of `source`.
    private func tokensRead(_ source: String) -> (read: Int, produced: Int) {
        var lexer = Lexer(source)
        var produced = 0
        while lexer.next().kind != .end { produced += 1 }
        return (lexer.tokensRead, produced)
    }

    /// Inputs that once made, or could make, the lexer re-read text: each shape, at `count` repetitions.
    static let lexerShapes: [(name: String, build: @Sendable (Int) -> String)] = [
        ("unterminated '\\(' on every line", { String(repeating: "  \"\\(\n", count: $0) }),
        ("an interpolation spanning lines", { "\"\\(" + String(repeating: "a +\n", count: $0) + "b)\"" }),
        ("multi-line literals with interpolations", { String(repeating: "\"\"\"\n\\(a) \\(\"b\")\n\"\"\"\n", count: $0) }),
        ("raw strings with interpolations", { String(repeating: "#\"\\#(x) \\( y\"# ", count: $0) }),
        ("nested block comments", { String(repeating: "/* a /* b */ c */ d\n", count: $0) }),
        ("an unclosed block comment", { "/* " + String(repeating: "/* x */ y\n", count: $0) }),
        ("deep brackets", { String(repeating: "{([", count: $0) + String(repeating: "])}", count: $0) }),
        ("interpolations 50 deep", { String(repeating: String(repeating: "\"\\(", count: 50) + "x" + String(repeating: ")\"", count: 50) + "\n", count: $0 / 50 + 1) }),
        ("doc comments and strings", { String(repeating: "/// doc \"\n\"\\(x)\" // c\n", count: $0) }),
    ]

    @Test("the lexer reads each token once, whatever the input's shape", arguments: 0..<lexerShapes.count)
    func lexerIsLinear(_ shape: Int) {
        let (name, build) = Self.lexerShapes[shape]
        let small = tokensRead(build(1_000))
        let large = tokensRead(build(10_000))
        let growth = ratio(small.read, large.read)
        #expect(growth < 12, "\(name): the lexer read \(small.read) then \(large.read) tokens")
        // Tokens read beyond those produced are the ones inside interpolations: never more than
        // the input has.
        #expect(large.read <= build(10_000).utf8.count + 1, "\(name): \(large.read) tokens read")
    }

    @Test("the whole pipeline on inputs built to be slow grows the output linearly")
    func pathologicalInputsStayLinear() {
        // Many errors: output is diagnostics, one per bad line.
        func errors(_ count: Int) -> Int {
            let bad = String(repeating: "  var x = \n  computed : Int { }\n  @Edg var y: Int = 0\n", count: count)
            return Generator.generate(source: "state S {\n\(bad)}\n", path: "t.statespec").diagnostics.count
        }
        let growth = ratio(errors(100), errors(1_000))
        #expect(growth > 9.5 && growth < 10.5, "diagnostics grew \(growth) times")
    }
}
