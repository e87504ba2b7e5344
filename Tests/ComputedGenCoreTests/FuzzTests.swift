import Foundation
import Testing

@testable import ComputedGenCore

/// A deterministic mutation fuzzer for the spec front end and emitter, run in-process through
/// `Generator.generate(source:path:)`.
///
/// Seeds are the specs of `Fixtures/Specs` and `Fixtures/Invalid`; each input is
/// a seed with a few mutations (see ``FuzzMutator``), rebuilt from the run seed and its number
/// alone. For every input: no crash, no hang (a watchdog fails the run when one input takes longer
/// than `COMPUTEDGEN_FUZZ_TIMEOUT` seconds, 30 by default), errors come with diagnostics whose
/// locations lie inside the file, successes come with Swift (see ``FuzzInvariants``). Up to 20
/// distinct successes are then type-checked with swiftc (see ``FuzzCompileCheck``).
///
/// `swift test` runs a smoke run of 2,500 inputs, CI 10,000 (`COMPUTEDGEN_DEEP_TESTS=1`). Longer
/// runs, by hand:
///
///     COMPUTEDGEN_FUZZ_ITERATIONS=1000000 swift test --filter FuzzTests
///
/// Other knobs: `COMPUTEDGEN_FUZZ_SEED` (a number; vary it to explore new inputs),
/// `COMPUTEDGEN_FUZZ_START` (the first input number, to replay one input with ITERATIONS=1),
/// `COMPUTEDGEN_FUZZ_COMPILE` (how many successes to type-check; 0 skips swiftc),
/// `COMPUTEDGEN_FUZZ_TIMEOUT` (seconds per input before the watchdog fails the run). A failure
/// prints the input number and saves the input to the temporary directory; a crash leaves the
/// input being run in `computedgen-fuzz-current-<pid>.statespec` there. Every crash or hang
/// found becomes a regression input in `Fixtures/Invalid/Fuzz` (replayed below, with its exact
/// diagnostics when a `.diagnostics` file sits next to it) or a case of `Fixtures/Invalid`. (The
/// inputs sit inside `Invalid` because the GoldenStates target, whose folder is `Fixtures`,
/// excludes `Specs` and `Invalid` only: a `Fixtures/Fuzz` folder would draw an "unhandled files"
/// warning from SwiftPM.)
@Suite("Fuzz")
struct FuzzTests {
    @Test("mutated specs never crash or hang, and every result is well formed")
    func fuzz() throws {
        let configuration = FuzzConfiguration.fromEnvironment()
        let seeds = FuzzFixtures.seeds
        try #require(seeds.all.count >= 20 && seeds.validCount >= 6, "the fixture seeds were not found under \(FuzzFixtures.root.path)")
        try Self.run(seeds: seeds, fileExtension: "statespec", configuration: configuration)
    }

    /// The Swift form's front end (`.state.swift`) on the same kinds of mutations of the fixture
    /// specs in the Swift form: it skips Swift it does not model, so its recovery differs. A
    /// quarter of the inputs, and no swiftc runs (the plain Swift needs its model types).
    @Test("mutated Swift-form specs never crash or hang, and every result is well formed")
    func fuzzSwiftForm() throws {
        var configuration = FuzzConfiguration.fromEnvironment()
        configuration.iterations = max(1, configuration.iterations / 4)
        configuration.compileSampleSize = 0
        let seeds = FuzzFixtures.swiftFormSeeds
        try #require(seeds.all.count >= 10, "the Swift-form seeds were not found under \(FuzzFixtures.root.path)")
        try Self.run(seeds: seeds, fileExtension: "state.swift", configuration: configuration)
    }

    /// Runs `configuration.iterations` inputs mutated from `seeds` through the generator, as files
    /// ending in `fileExtension`, and records every broken invariant.
    static func run(seeds: (all: [[UInt8]], validCount: Int), fileExtension: String, configuration: FuzzConfiguration) throws {
        let mutator = FuzzMutator(seeds: seeds.all, validSeedCount: seeds.validCount, runSeed: configuration.seed)
        let watchdog = FuzzWatchdog(limitSeconds: configuration.timeoutSeconds)
        defer { watchdog.stop() }
        let currentPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("computedgen-fuzz-current-\(ProcessInfo.processInfo.processIdentifier).\(fileExtension)")
        var compileCheck = FuzzCompileCheck(capacity: configuration.compileSampleSize, seed: configuration.seed)

        var failures: [String] = []
        var successes = 0
        var totalBytes = 0
        var slowest: (number: Int, size: Int, duration: Duration) = (-1, 0, .zero)
        let clock = ContinuousClock()
        let start = clock.now
        for number in configuration.firstInput..<(configuration.firstInput + configuration.iterations) {
            let bytes = mutator.input(number: number)
            // What a crash leaves behind: overwritten for each input, removed after the run.
            try? Data(bytes).write(to: currentPath)
            let source = String(decoding: bytes, as: UTF8.self)
            let path = "fuzz-\(number).\(fileExtension)"
            watchdog.begin(number, bytes)
            let inputStart = clock.now
            let output = Generator.generate(source: source, path: path)
            let duration = clock.now - inputStart
            let slowCopy = watchdog.end()
            totalBytes += bytes.count
            if duration > slowest.duration { slowest = (number, bytes.count, duration) }

            var problems = FuzzInvariants.violations(source: source, path: path, output: output)
            if let slowCopy { problems.append("took \(duration), over the \(configuration.timeoutSeconds) s limit (saved to \(slowCopy))") }
            if let swift = output.swift {
                successes += 1
                compileCheck.offer(number: number, source: source, swift: swift)
            }
            if !problems.isEmpty, failures.count < 10 {
                let saved = FuzzWatchdog.save(bytes, name: "computedgen-fuzz-failure-\(number).\(fileExtension)")
                failures.append("input \(number) (seed \(configuration.seed), saved to \(saved)):\n  " + problems.prefix(5).joined(separator: "\n  "))
            }
        }
        let elapsed = clock.now - start
        try? FileManager.default.removeItem(at: currentPath)
        print("""
            fuzz (.\(fileExtension)): \(configuration.iterations) inputs from #\(configuration.firstInput) (seed \(configuration.seed)), \
            \(totalBytes / max(1, configuration.iterations)) bytes on average, \(successes) generated Swift; \
            \(elapsed) in all, slowest input #\(slowest.number) (\(slowest.size) bytes) took \(slowest.duration); \
            \(compileCheck.eligibleSeen) distinct successes eligible for swiftc, \(compileCheck.samples.count) sampled
            """)
        for failure in failures {
            Issue.record(Comment(rawValue: failure))
        }
        guard configuration.compileSampleSize > 0 else { return }

        let compileStart = clock.now
        let report = try compileCheck.run()
        print("""
            fuzz: type-checked \(compileCheck.samples.count) samples in \(report.compilerRuns) swiftc runs \
            (\(clock.now - compileStart)): \(report.specErrors) errors inside specs (mutated bodies), \
            \(report.problems.count) problems
            """)
        for problem in report.problems.prefix(10) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    // MARK: - Regression inputs

    static var regressionNames: [String] {
        FuzzFixtures.specs(in: "Invalid/Fuzz").map(\.name)
    }

    /// Each input in `Fixtures/Invalid/Fuzz` once made the generator crash or hang. It must now keep the
    /// invariants within the watchdog's limit and, when `name.diagnostics` exists, produce
    /// exactly those diagnostics.
    @Test("every fuzz regression input keeps the invariants", arguments: regressionNames)
    func regression(_ name: String) throws {
        let directory = FuzzFixtures.root.appendingPathComponent("Invalid/Fuzz")
        let source = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let watchdog = FuzzWatchdog(limitSeconds: FuzzConfiguration.fromEnvironment().timeoutSeconds)
        defer { watchdog.stop() }
        watchdog.begin(0, Array(source.utf8))
        let output = Generator.generate(source: source, path: name)
        #expect(watchdog.end() == nil, "\(name) took longer than the watchdog's limit")
        let problems = FuzzInvariants.violations(source: source, path: name, output: output)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")

        let expectedURL = directory.appendingPathComponent(String(name.dropLast(".statespec".count)) + ".diagnostics")
        if let expectedText = try? String(contentsOf: expectedURL, encoding: .utf8) {
            let expected = expectedText.split(separator: "\n").map(String.init)
            #expect(output.diagnostics.map(\.description) == expected)
        }
    }

    // MARK: - Extremes

    /// Runs `source` through the generator under the watchdog and checks the invariants. These
    /// inputs are up to a few megabytes, so the watchdog allows them 30 s (in debug builds under
    /// AddressSanitizer, on a busy machine, the largest take a few seconds; the bugs they guard
    /// against took minutes, or crashed).
    @discardableResult
    private func generateChecked(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Generator.Output {
        let watchdog = FuzzWatchdog(limitSeconds: max(30, FuzzConfiguration.fromEnvironment().timeoutSeconds))
        defer { watchdog.stop() }
        watchdog.begin(0, Array(source.utf8))
        let output = Generator.generate(source: source, path: "t.statespec")
        #expect(watchdog.end() == nil, "took longer than the watchdog's limit", sourceLocation: sourceLocation)
        let problems = FuzzInvariants.violations(source: source, path: "t.statespec", output: output)
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))", sourceLocation: sourceLocation)
        return output
    }

    @Test("100,000 nested brackets of each kind, closed or not, are read without recursion")
    func deepNesting() {
        let depth = 100_000
        for (open, close) in [("{", "}"), ("(", ")"), ("[", "]")] {
            let deep = String(repeating: open, count: depth) + "x" + String(repeating: close, count: depth)
            // Balanced inside a body: valid for the generator (Swift may have its own limits).
            let body = generateChecked("state S {\n  var a: Int = 0\n  computed c: Int { a; \(deep) }\n}\n")
            #expect(!body.hasErrors, "\(open): \(body.diagnostics.prefix(3))")
            // In a default value and unclosed: one diagnostic, at the first unclosed bracket.
            let unclosed = generateChecked("state S {\n  var a: Int = \(String(repeating: open, count: depth))\n}\n")
            #expect(unclosed.hasErrors)
            // At top level.
            generateChecked(String(repeating: open, count: depth))
            generateChecked(String(repeating: close, count: depth))
        }
    }

    @Test("interpolations nested past the limit are one diagnostic, not a stack overflow")
    func deepInterpolations() {
        let limit = Lexer.maxInterpolationDepth
        func nested(_ depth: Int) -> String {
            String(repeating: #""\("#, count: depth) + "a" + String(repeating: #")""#, count: depth)
        }
        let atLimit = generateChecked("state S {\n  var a: Int = 0\n  computed c: String { \(nested(limit)) }\n}\n")
        #expect(!atLimit.hasErrors, "\(atLimit.diagnostics.prefix(3))")

        for depth in [limit + 1, 100_000] {
            let source = "state S {\n  var a: Int = 0\n  computed c: String { \(nested(depth)) }\n}\n"
            let output = generateChecked(source)
            // The '(' of level limit + 1: after `  computed c: String { ` and `limit` times `"\(`.
            let column = "  computed c: String { ".utf8.count + 3 * limit + 3
            #expect(output.diagnostics.map(\.description) == [
                "t.statespec:3:\(column): error: string interpolations are nested more than \(limit) levels deep; move the inner ones into separate values",
            ])
        }
        // Unclosed, multi-line and raw forms.
        generateChecked("state S {\n  computed c: String { " + String(repeating: #""\("#, count: 100_000) + "\n}\n")
        generateChecked("state S {\n  computed c: String { " + String(repeating: "\"\"\"\n\\(", count: 100_000) + "\n}\n")
        generateChecked("state S {\n  computed c: String { " + String(repeating: ##"#"\#("##, count: 100_000) + "\n}\n")
    }

    @Test("huge identifiers: a 1 MB name, and near-miss names too long to suggest a fix for")
    func hugeIdentifiers() {
        let huge = String(repeating: "a", count: 1_000_000)
        let valid = generateChecked("state S {\n  var \(huge): Int = 0\n  computed c: Int { \(huge) + 1 }\n}\n")
        #expect(!valid.hasErrors)
        // An unknown input that differs from a field by one letter: the edit distance between two
        // names of 20,000 letters once took minutes; names that long now get no suggestion.
        let name = String(repeating: "b", count: 20_000)
        let typo = String(name.dropLast()) + "c"
        let output = generateChecked("state S {\n  var \(name): Int = 0\n  computed c: Int from \(typo) { 1 }\n}\n")
        #expect(output.diagnostics.count == 1)
        #expect(output.diagnostics.first?.message.hasSuffix("is not a field or computed of state 'S'") == true)
    }

    @Test("a computed chain 3,000 deep and a 3,000-member cycle are checked without recursion")
    func deepDependencyChains() {
        // The cycle search was cubic: a minute for this chain. It is now linear.
        var chain = ["state S {", "  var f: Int = 0", "  computed c0: Int { f }"]
        for index in 1..<3_000 { chain.append("  computed c\(index): Int { c\(index - 1) + 1 }") }
        let output = generateChecked((chain + ["}"]).joined(separator: "\n"))
        #expect(!output.hasErrors)

        var cycle = ["state S {", "  var f: Int = 0", "  computed c0: Int { f + c2999 }"]
        for index in 1..<3_000 { cycle.append("  computed c\(index): Int { c\(index - 1) + 1 }") }
        let cyclic = generateChecked((cycle + ["}"]).joined(separator: "\n"))
        #expect(cyclic.diagnostics.count == 1)
        #expect(cyclic.diagnostics.first?.message.hasPrefix("dependency cycle: c0 → c2999 → c2998 → ") == true)

        // The graph alone, 100,000 deep: its walks use explicit stacks, not recursion.
        let depth = 100_000
        let origin = SourceLocation(line: 1, column: 1, offset: 0)
        let decls = (0..<depth).map { index in
            ComputedDecl(name: Identifier("c\(index)", at: origin), type: nil, body: Body(text: "", at: origin, openBrace: origin), at: origin)
        }
        var inputs = (0..<depth).map { $0 == 0 ? [Input.field("f")] : [Input.computed("c\($0 - 1)")] }
        #expect(DependencyGraph(computeds: decls, inputs: inputs).topologicalOrder() == Array(0..<depth))
        inputs[0].append(.computed("c\(depth - 1)"))
        let cycles = DependencyGraph(computeds: decls, inputs: inputs).cycles()
        #expect(cycles.count == 1)
        #expect(cycles.first?.count == depth)
    }

    @Test("many errors of every kind in one file stay linear and well located")
    func manyErrors() {
        let lines = [
            "  var a: Int = \"", "  computed : Int { a }", "  @Unknown var b: Int = 0", "  selector s(", "  var c: = 1",
            "  computed d: Int { a ", "  }", "  /* ", "  */ var e: Int = [", "  computed f: Int from g { 1 }",
        ]
        var source = ["state S {"]
        for index in 0..<2_000 { source.append(lines[index % lines.count]) }
        source.append("}")
        let output = generateChecked(source.joined(separator: "\n"))
        #expect(output.hasErrors)
    }

    @Test("awkward Unicode and control characters anywhere keep diagnostics inside the file")
    func awkwardUnicode() {
        for fragment in FuzzMutator.unicode {
            generateChecked("state S\(fragment) {\n  var a\(fragment): Int = 0\n  computed c: String { \"\(fragment)\" + \(fragment)a }\n}\n")
            generateChecked("\(fragment)state S {\(fragment)\n\(fragment)}")
            generateChecked("state S {\n  var a: Int = 0 \(fragment)\r\n  computed c: Int { a }\r\n}\(fragment)")
        }
    }
}
