import Foundation
import Testing

@testable import ComputedGenCore

/// The generator's output depends on the specs alone: not on how often it runs, on the order in
/// which `generate … --output-dir` is given the specs, or on the process (Swift seeds `Set` and
/// `Dictionary` hashing per process, so an iteration-order dependence shows up only across
/// processes, never between two runs in one).
@Suite("Determinism")
struct DeterminismTests {
    /// The fixture specs, plus the large scale spec and a spec of many small states, copied into
    /// `directory`; returns their paths, sorted.
    private func copySpecs(into directory: TemporaryDirectory) throws -> [String] {
        var paths: [String] = []
        for (name, text) in FuzzFixtures.specs(in: "Specs") {
            paths.append(try directory.write(text, to: "specs/\(name)"))
        }
        paths.append(try directory.write(ScaleTests.source, to: "specs/Large.statespec"))
        paths.append(try directory.write(Self.manyStates, to: "specs/ManyStates.statespec"))
        return paths.sorted()
    }

    /// 40 states whose members collide in every way names may (selector overloads, shared base
    /// names, keywords), so that any hash-order dependence in naming has a chance to show.
    static let manyStates: String = {
        var text = "import Foundation\n"
        for index in 0..<40 {
            text += """

                public state S\(index): Equatable, Hashable, Codable {
                  var a: Int = \(index)
                  var b: [String] = []
                  @Edge var `default`: Int = 0
                  computed c: Int { a + b.count }
                  computed d: Int { c + `default` }
                  computed e: String from b, a { "\\(a) \\(b)" }
                  selector f(x: Int) -> Int { d + x }
                  selector f(_ x: Int, y: Int) -> Int { d + x + y }
                  selector f_x() -> Int { a }
                  selector a(of value: Int) -> Int cache \(index + 1) { a * value }
                }

                """
        }
        return text
    }()

    /// The files of `directory`, by name.
    private func contents(of directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(name))
        }
        return files
    }

    @Test("generate --output-dir writes the same bytes whatever the order of the specs, run after run")
    func orderAndRepetition() throws {
        let directory = try TemporaryDirectory()
        let specs = try copySpecs(into: directory)
        var random = SplitMix64(seed: 7)
        let orders = [specs, specs.reversed(), specs.shuffled(using: &random), specs.shuffled(using: &random), specs]
        var outputs: [[String: Data]] = []
        for (index, order) in orders.enumerated() {
            let output = directory.path("out\(index)")
            let result = Command().run(["generate"] + order + ["--output-dir", output])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.isEmpty)
            outputs.append(try contents(of: output))
        }
        #expect(Set(outputs[0].keys) == Set(specs.map { Command.outputName(forSpec: $0) }))
        for (index, output) in outputs.enumerated().dropFirst() {
            #expect(output == outputs[0], "order \(index) differs")
        }

        // Generating again into the same directory, in another order, changes nothing.
        let again = Command().run(["generate"] + orders[2] + ["--output-dir", directory.path("out0")])
        #expect(again.status == 0)
        #expect(try contents(of: directory.path("out0")) == outputs[0])
    }

    @Test("the files generate writes are the goldens (up to the spec path in #sourceLocation)")
    func commandOutputIsTheGoldens() throws {
        let directory = try TemporaryDirectory()
        let specs = try copySpecs(into: directory).filter { path in
            FuzzFixtures.specs(in: "Specs").contains { $0.name == (path as NSString).lastPathComponent }
        }
        // As the plugin runs the tool: the index of the golden target's own Swift, then the specs.
        let index = directory.path("Index.swift")
        let indexing = Command().run(["index-types"] + FuzzFixtures.supportFiles.map(\.path) + ["--output", index])
        #expect(indexing.status == 0, "\(indexing.standardError)")
        let output = directory.path("out")
        let result = Command().run(["generate"] + specs.reversed() + ["--output-dir", output, "--type-index", index])
        #expect(result.status == 0, "\(result.standardError)")
        for spec in specs {
            let name = (spec as NSString).lastPathComponent
            let generated = try #require(directory.read((output as NSString).appendingPathComponent(name + ".swift")))
            let goldenURL = FuzzFixtures.root.appendingPathComponent("Generated/\(name).swift")
            let golden = try String(contentsOf: goldenURL, encoding: .utf8)
                .replacingOccurrences(of: "file: \"Fixtures/Specs/\(name)\"", with: "file: \"\(spec)\"")
            if generated != golden {
                Issue.record("\(name): the generated file differs from its golden\n\(LineDiff.describe(expected: golden, actual: generated))")
            }
        }
    }

    @Test("separate processes, each with its own hash seed, write and print the same bytes")
    func acrossProcesses() throws {
        let tool = try #require(
            BuildProducts.tool,
            "ComputedGenTool was not found next to the test bundle (\(BuildProducts.directory?.path ?? "no build directory")); build it, or set COMPUTEDGEN_TOOL"
        )
        let directory = try TemporaryDirectory()
        let specs = try copySpecs(into: directory)
        let invalid = FuzzFixtures.root.appendingPathComponent("Invalid")
        let invalidSpecs = FuzzFixtures.specs(in: "Invalid").map { invalid.appendingPathComponent($0.name).path }

        var first: [String: Data]?
        var firstPrinted: [String]?
        for run in 0..<3 {
            let output = directory.path("run\(run)")
            let generate = try BuildProducts.run(tool, ["generate"] + specs + ["--output-dir", output])
            #expect(generate.status == 0, "\(generate.standardError)")
            // What the tool prints: diagnostics for every bad spec, and both graph formats.
            var printed = [try BuildProducts.run(tool, ["check"] + invalidSpecs).standardError]
            for spec in specs {
                printed.append(try BuildProducts.run(tool, ["graph", spec]).standardOutput)
                printed.append(try BuildProducts.run(tool, ["graph", spec, "--format", "dot"]).standardOutput)
            }
            let files = try contents(of: output)
            if let first, let firstPrinted {
                #expect(files == first, "run \(run) wrote different files")
                #expect(printed == firstPrinted, "run \(run) printed something else")
            } else {
                first = files
                firstPrinted = printed
            }
        }
    }
}
