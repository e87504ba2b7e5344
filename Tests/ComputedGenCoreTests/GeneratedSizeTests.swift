import Foundation
import Testing

@testable import ComputedGenCore

/// A deterministic guard on what every user's build pays per spec member: the generated lines and
/// the optimized SIL (functions and instructions) for a fixed shape, each with a bound a little
/// above what the generator reaches today. A compile *time* in a test would be noise; these
/// counts are the same on every run of the same compiler. `scripts/measure-compile.sh` measures
/// the times and machine code themselves (see Docs/Performance.md).
///
/// When a change of the generator trips a bound, measure first (`scripts/measure-compile.sh`):
/// raise the bound only for code the member really needs, and say why in the commit.
@Suite("Generated code size per member")
struct GeneratedSizeTests {
    /// The shape of `scripts/measure-compile.sh`: N `Int` fields and N computed `Int`s, each
    /// reading two fields, or the previous computed value and a field.
    static func wideSpec(_ n: Int) -> String {
        var lines = ["public state Wide {"]
        lines += (0..<n).map { "  var f\($0): Int = \($0)" }
        lines += (0..<n).map { i in
            let body = i % 2 == 1 ? "c\(i - 1) + f\(i)" : "f\(i) + f\((i + 1) % n)"
            return "  computed c\(i): Int { \(body) }"
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static let members = 60  // 30 fields and 30 computed values

    static func generated() throws -> String {
        let output = Generator.generate(source: wideSpec(members / 2), path: "Wide.statespec")
        return try #require(output.swift, "\(output.diagnostics)")
    }

    /// Bounds per member (field or computed value), a little above the generator's output when
    /// they were set, so that growth is caught and noise is not possible.
    enum Bound {
        // Today: 20.6 lines, 12.0 functions and 232.0 instructions per member, since a computed
        // value's inputs are a string of names the table resolves (an array literal of indices
        // was code per input: 12.2 and 235.5). One memo table per state replaced a `Memo`
        // property per computed value before (it was 21.5, 12.65 and 253.5: each type alias at
        // its spec column saves a line per member; the setter of each computed value's misread
        // guard, with the `modify` Swift synthesizes beside it, is 2 functions and 11
        // instructions per computed value, so that `state.total = 3` names the fix rather than
        // "get-only property"; a computed value's selector is a global, three small functions).
        static let linesPerMember = 21.0
        static let silFunctionsPerMember = 12.2
        // Issue 36: 20.1 lines, 12.0 functions (10.0 of them optimized) and 228.5 instructions per
        // member, since the misread guards and the field selectors' getters are not optimized
        // (`@_optimize(none)`: the guards never run, a field's selector is fetched when a selector
        // is composed) and a guard's `modify` is written rather than derived (232.0 instructions
        // and 12.0 functions, all optimized, before). The optimizer's passes run per optimized
        // function, so that count is what the build pays.
        static let silInstructionsPerMember = 229.5
        static let optimizedSILFunctionsPerMember = 10.1
    }

    @Test("generated lines per member stay within the bound")
    func linesPerMember() throws {
        let lines = try Self.generated().split(separator: "\n", omittingEmptySubsequences: false).count
        let perMember = Double(lines) / Double(Self.members)
        #expect(perMember <= Bound.linesPerMember, "\(lines) lines for \(Self.members) members: \(perMember) per member")
    }

    @Test("optimized SIL per member stays within the bound (functions and instructions)")
    func silPerMember() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.write(try Self.generated(), to: "Wide.swift")
        let sil = directory.path("Wide.sil")
        let result = try BuildProducts.compile(
            [source], moduleName: "Wide", mode: ["-emit-sil", "-O", "-parse-as-library", "-o", sil]
        )
        #expect(result.status == 0, "\(result.standardError)")
        let text = try #require(directory.read(sil))
        let counts = Self.silCounts(text)
        let functions = Double(counts.functions) / Double(Self.members)
        let optimized = Double(counts.functions - counts.unoptimized) / Double(Self.members)
        let instructions = Double(counts.instructions) / Double(Self.members)
        #expect(functions <= Bound.silFunctionsPerMember, "\(counts.functions) SIL functions: \(functions) per member")
        #expect(optimized <= Bound.optimizedSILFunctionsPerMember, "\(counts.functions - counts.unoptimized) optimized SIL functions: \(optimized) per member")
        #expect(instructions <= Bound.silInstructionsPerMember, "\(counts.instructions) SIL instructions: \(instructions) per member")
    }

    /// Function definitions (`sil … {`), those of them the optimizer skips (`[Onone]`), and the
    /// instructions in their bodies (lines that are neither labels, comments, debug values nor
    /// braces).
    static func silCounts(_ sil: String) -> (functions: Int, unoptimized: Int, instructions: Int) {
        var functions = 0
        var unoptimized = 0
        var instructions = 0
        var inBody = false
        for line in sil.split(separator: "\n") {
            if line.hasPrefix("sil ") && line.hasSuffix("{") {
                functions += 1
                if line.contains(" [Onone] ") { unoptimized += 1 }
                inBody = true
                continue
            }
            guard inBody else { continue }
            if line == "}" {
                inBody = false
                continue
            }
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("bb") || trimmed.hasPrefix("debug_value") {
                continue
            }
            instructions += 1
        }
        return (functions, unoptimized, instructions)
    }
}
