import Foundation
import Testing

@testable import ComputedGenCore

/// Every fixture spec exists in both forms (`Fixtures/Specs/X.statespec` and
/// `Fixtures/SwiftForm/X.state.swift`), and the two generate the same state.
///
/// The Swift-form files are what `ComputedGenTool convert` writes for the specs (refresh them with
/// `COMPUTEDGEN_UPDATE_GOLDENS=1 swift test --filter SwiftFormFixtureTests`). The SwiftFormFixtures
/// target compiles them, as plain Swift: they compile as they are,
/// before anything is generated from them.
@Suite("Swift form: every fixture spec in both forms")
struct SwiftFormFixtureTests {
    static let fixtures = GoldenTests.fixtures
    static let specNames = GoldenTests.specNames

    static func swiftName(_ specName: String) -> String {
        SpecConverter.convertedPath(of: specName)
    }

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The Swift-form fixtures as one target's specs, as the plugin would hand them over.
    static let swiftContext = SpecContext(specs: specNames.compactMap { name in
        (try? read("SwiftForm/\(swiftName(name))")).map { ($0, "Fixtures/SwiftForm/\(swiftName(name))") }
    })

    @Test("convert writes the committed Swift form of each spec", arguments: specNames)
    func converted(_ specName: String) throws {
        let source = try Self.read("Specs/\(specName)")
        let converted = try SpecConverter.convert(source: source, path: specName, context: GoldenTests.context).get()
        let url = Self.fixtures.appendingPathComponent("SwiftForm/\(Self.swiftName(specName))")
        if ProcessInfo.processInfo.environment["COMPUTEDGEN_UPDATE_GOLDENS"] != nil {
            try Data(converted.utf8).write(to: url, options: .atomic)
            return
        }
        let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        #expect(converted == expected, "\(LineDiff.describe(expected: expected, actual: converted))")
    }

    @Test("the Swift form generates the same state as the spec", arguments: specNames)
    func sameState(_ specName: String) throws {
        let specPath = "Fixtures/Specs/\(specName)"
        let swiftPath = "Fixtures/SwiftForm/\(Self.swiftName(specName))"
        let fromSpec = Generator.generate(source: try Self.read("Specs/\(specName)"), path: specPath, options: GoldenTests.options, context: GoldenTests.context)
        let fromSwift = Generator.generate(source: try Self.read("SwiftForm/\(Self.swiftName(specName))"), path: swiftPath, options: GoldenTests.options, context: Self.swiftContext)
        #expect(fromSwift.diagnostics.isEmpty, "\(fromSwift.diagnostics.map(\.description).joined(separator: "\n"))")
        let spec = SwiftFormEquivalence.comparable(try #require(fromSpec.swift), specPath: specPath)
        let swift = SwiftFormEquivalence.comparable(try #require(fromSwift.swift), specPath: swiftPath)
        guard let first = spec.indices.first(where: { $0 >= swift.count || spec[$0] != swift[$0] }) ?? (spec.count == swift.count ? nil : spec.count) else { return }
        let around = { (words: [String]) in words[max(0, first - 12)..<min(words.count, first + 12)].joined(separator: " ") }
        Issue.record("the two forms generate different code at token \(first):\nspec:  \(around(spec))\nswift: \(around(swift))")
    }

    @Test("converting back gives the spec again", arguments: specNames)
    func roundTrip(_ specName: String) throws {
        let original = try Self.read("Specs/\(specName)")
        let swift = try Self.read("SwiftForm/\(Self.swiftName(specName))")
        let back = try SpecConverter.convert(source: swift, path: Self.swiftName(specName), context: Self.swiftContext).get()
        // Equal but for backticks the Swift form cannot keep (`state `Protocol`` comes back as
        // `state Protocol`, which names the same type).
        #expect(back.filter { $0 != "`" } == original.filter { $0 != "`" }, "\(LineDiff.describe(expected: original, actual: back))")
    }

    @Test("each fixture spec has its Swift form, and nothing else is there")
    func everySpecConverted() throws {
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.appendingPathComponent("SwiftForm").path).sorted()
        #expect(present == Self.specNames.map(Self.swiftName).sorted())
    }
}
