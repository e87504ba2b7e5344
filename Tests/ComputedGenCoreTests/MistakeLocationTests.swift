import Foundation
import Testing

@testable import ComputedGenCore

/// Every Swift error a spec causes lands in the spec.
///
/// Mistypes fixture specs as a user would (a few characters deleted, inserted or replaced at a
/// random place), keeps the specs the generator accepts, type-checks their generated Swift with
/// the fixtures' model types, and fails on any error that Swift reports somewhere other than the
/// spec: in the generated file (a generated declaration that spells the user's text again, an
/// expression whose type-checking grows with the spec) or nowhere at all. Errors in the spec are
/// the point of a mistake and are fine.
///
/// The seed is fixed; `COMPUTEDGEN_MISTAKES=N` sets how many accepted specs are compiled (24 by
/// default, about a minute; the note of issue 36 reports a run of several hundred), and
/// `COMPUTEDGEN_MISTAKES_SEED` another seed.
@Suite("Mistakes in specs: Swift's errors land in the spec")
struct MistakeLocationTests {
    static let environment = ProcessInfo.processInfo.environment
    static let count = environment["COMPUTEDGEN_MISTAKES"].flatMap(Int.init) ?? 24
    static let seed = environment["COMPUTEDGEN_MISTAKES_SEED"].flatMap(UInt64.init) ?? 0x5EC5_0036

    /// The spec path the generator is given, which `#sourceLocation` names.
    static let specPath = "Mistyped.statespec"

    /// Characters a slip of the keyboard inserts or replaces with.
    static let keys = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _.,:;(){}[]<>\"'=+-*/\\!?$@#\n")

    /// `text` with one slip: 1 to 3 characters deleted, inserted or replaced at a random place.
    static func mistype(_ text: String, _ random: inout SplitMix64) -> (text: String, slip: String) {
        var characters = Array(text)
        let place = Int.random(in: 0..<characters.count, using: &random)
        let length = Int.random(in: 1...3, using: &random)
        let line = characters[..<place].count { $0 == "\n" } + 1
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let removed = String(characters[place..<min(place + length, characters.count)])
            characters.removeSubrange(place..<min(place + length, characters.count))
            return (String(characters), "line \(line): deleted \(removed.debugDescription)")
        case 1:
            let inserted = (0..<length).map { _ in keys.randomElement(using: &random)! }
            characters.insert(contentsOf: inserted, at: place)
            return (String(characters), "line \(line): inserted \(String(inserted).debugDescription)")
        default:
            let replaced = characters[place]
            characters[place] = keys.randomElement(using: &random)!
            return (String(characters), "line \(line): replaced \(String(replaced).debugDescription) by \(String(characters[place]).debugDescription)")
        }
    }

    /// The errors of `diagnostics` (swiftc's output in the LLVM style, one line per diagnostic)
    /// located anywhere but in the spec.
    static func misplacedErrors(in diagnostics: String) -> [String] {
        diagnostics.split(separator: "\n").filter { line in
            guard line.contains(": error: ") else { return false }
            return !line.hasPrefix(specPath + ":")
        }.map(String.init)
    }

    @Test("mistyped fixture specs that the generator accepts report Swift's errors at spec lines only")
    func mistakesLandInTheSpec() throws {
        let support = FuzzFixtures.supportFiles.map(\.path)
        let directory = try TemporaryDirectory()
        // The fixtures that compile on their own with the model types (a state that reads
        // another fixture's state needs that one too).
        let fixtures = try FuzzFixtures.specs(in: "Specs").filter { fixture in
            guard let swift = Generator.generate(source: fixture.text, path: Self.specPath, options: GoldenTests.options).swift else { return false }
            let file = try directory.write(swift, to: "Baseline/\(fixture.name).swift")
            return try BuildProducts.typecheck([file] + support, moduleName: "Mistyped").status == 0
        }
        #expect(fixtures.count >= 6, "fixtures that compile alone: \(fixtures.map(\.name))")
        var random = SplitMix64(seed: Self.seed)
        var accepted = 0
        var attempts = 0
        var failures: [String] = []
        while accepted < Self.count, attempts < Self.count * 50, !fixtures.isEmpty {
            attempts += 1
            let fixture = fixtures.randomElement(using: &random)!
            let (text, slip) = Self.mistype(fixture.text, &random)
            // With the model types' index, as the plugin generates: a slip in a type the index
            // lists leaves a name it does not, which must keep its alias.
            let output = Generator.generate(source: text, path: Self.specPath, options: GoldenTests.options)
            guard output.diagnostics.isEmpty, let swift = output.swift else { continue }
            accepted += 1
            let file = try directory.write(swift, to: "Mistyped.statespec.swift")
            let result = try BuildProducts.typecheck([file] + support, moduleName: "Mistyped", extraArguments: ["-diagnostic-style=llvm"])
            let misplaced = Self.misplacedErrors(in: result.standardError)
            if !misplaced.isEmpty {
                failures.append("\(fixture.name), \(slip):\n  " + misplaced.prefix(3).joined(separator: "\n  "))
            }
        }
        #expect(accepted == Self.count, "only \(accepted) of \(attempts) mistyped specs were accepted")
        #expect(failures.isEmpty, "\(failures.count) of \(accepted) accepted specs had errors outside the spec:\n\(failures.prefix(12).joined(separator: "\n"))")
    }
}
