import Foundation
import Testing

@testable import ComputedGenCore

/// Type-checks the Swift generated for a sample of fuzzed specs that the generator accepted.
///
/// A mutated spec may be accepted by the generator and still be wrong Swift: the generator copies
/// types, default values and attribute arguments verbatim, and knows nothing of the types they
/// name, so `var x: Int = ""` generates code that cannot compile. Such an error is the spec's, not
/// the generator's. To test the generator and not the mutations, a success is *eligible* for the
/// compile check only when every piece of Swift that the generator copies outside bodies comes
/// from a fixture spec whose golden output compiles:
///
/// - each field's attributes, type and default value together, as one field of a fixture state
///   whose conformances include the mutated state's (so `Equatable` finds `==` on every field);
/// - each computed type, selector parameter type and return type, each import line;
/// - and, for each of those, the imports of the fixture it comes from (a mutation that drops
///   `import Foundation` leaves `Date` unknown: the spec's error again);
/// - state names that do not shadow a name the generated code or the fixture types rely on
///   (`Int`, `Memo`, `Todo`, …): shadowing those is a spec error too;
/// - bodies nested at most 64 brackets deep: swiftc 6.3.1 itself crashes (signal 11, a stack
///   overflow in its parser) on bodies nested thousands deep, which the generator accepts.
///
/// Names (of states, fields, computeds, selectors, parameters), doc comments, `from` lists,
/// `cache` sizes and bodies may be mutated freely. Types come from `Fixtures/Support`, compiled
/// with the sample. Bodies are wrapped in `#sourceLocation`, so a mutated body that is not valid
/// Swift yields errors located in the spec; those are fine, as long as they point inside the
/// spec. An error located in the generated file is a generator bug: the check fails with the spec.
struct FuzzCompileCheck {
    /// The Swift fragments known to compile, harvested from the fixture specs.
    struct KnownFragments {
        /// Field signatures, each with the conformances of a state it appears in and the imports
        /// of that state's file.
        var fieldSignatures: [String: [(conformances: Set<String>, imports: Set<String>)]] = [:]
        /// Types, each with the imports of the files they appear in.
        var computedTypes: [String: [Set<String>]] = [:]
        var parameterTypes: [String: [Set<String>]] = [:]
        var returnTypes: [String: [Set<String>]] = [:]
        var imports: Set<String> = []
        var conformances: Set<String> = []
        /// Names a state may not take: every identifier of the golden files and the support
        /// types, except the fixture states' own names.
        var forbiddenStateNames: Set<String> = []
    }

    /// One eligible success.
    struct Sample {
        var number: Int
        var source: String
        var stateNames: [String]
    }

    let known: KnownFragments
    let capacity: Int
    private(set) var samples: [Sample] = []
    private(set) var eligibleSeen = 0
    private var seenOutputs: Set<Int> = []
    private var random: SplitMix64

    init(capacity: Int, seed: UInt64) {
        self.capacity = capacity
        self.random = SplitMix64(seed: seed ^ 0x5EED_C0DE)
        self.known = Self.harvest()
    }

    static func harvest() -> KnownFragments {
        var known = KnownFragments()
        var stateNames: Set<String> = []
        for (name, text) in FuzzFixtures.specs(in: "Specs") {
            guard let spec = SpecFrontEnd.run(source: text, path: name).spec else { continue }
            stateNames.formUnion(spec.states.map(\.name))
            let imports = Set(spec.file.imports.map(\.text))
            known.imports.formUnion(imports)
            for state in spec.states {
                let conformances = Set(state.decl.conformances.map(\.name))
                known.conformances.formUnion(conformances)
                for field in state.fields {
                    known.fieldSignatures[signature(of: field.decl), default: []].append((conformances, imports))
                }
                for computed in state.computeds { known.computedTypes[computed.type, default: []].append(imports) }
                for selector in state.selectors {
                    known.returnTypes[selector.returnType, default: []].append(imports)
                    for parameter in selector.decl.parameters {
                        known.parameterTypes[parameter.type?.text ?? "", default: []].append(imports)
                    }
                }
            }
        }
        let generated = FuzzFixtures.root.appendingPathComponent("Generated")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: generated.path)) ?? []).map { generated.appendingPathComponent($0) }
            + FuzzFixtures.supportFiles
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for token in Lexer.tokenize(text).tokens where token.kind == .identifier { known.forbiddenStateNames.insert(token.text) }
        }
        known.forbiddenStateNames.subtract(stateNames)
        return known
    }

    private static func signature(of field: FieldDecl) -> String {
        let attributes = field.attributes.map { attribute in
            "@" + attribute.name.name + (attribute.arguments.map { "(" + $0.map { ($0.label.map { $0.name + ": " } ?? "") + $0.value.text }.joined(separator: ", ") + ")" } ?? "")
        }
        return attributes.joined(separator: " ") + " | " + (field.type?.text ?? "") + " = " + (field.defaultValue?.text ?? "")
    }

    /// Whether the generator's copies of `spec`'s Swift fragments are all known to compile (and
    /// there is something to compile: a state with members).
    func isEligible(_ spec: CheckedSpec) -> Bool {
        guard spec.states.contains(where: { !$0.decl.members.isEmpty }) else { return false }
        let imports = Set(spec.file.imports.map(\.text))
        guard imports.isSubset(of: known.imports) else { return false }
        /// Whether `type` is known from a file whose imports this spec has too.
        func isKnown(_ type: String, in table: [String: [Set<String>]]) -> Bool {
            table[type]?.contains { $0.isSubset(of: imports) } ?? false
        }
        for state in spec.states {
            let conformances = Set(state.decl.conformances.map(\.name))
            guard conformances.isSubset(of: known.conformances), !known.forbiddenStateNames.contains(state.name) else { return false }
            for field in state.fields {
                guard let contexts = known.fieldSignatures[Self.signature(of: field.decl)],
                      contexts.contains(where: { conformances.isSubset(of: $0.conformances) && $0.imports.isSubset(of: imports) })
                else { return false }
            }
            guard state.computeds.allSatisfy({ isKnown($0.type, in: known.computedTypes) }) else { return false }
            let bodies = state.computeds.map(\.decl.body) + state.selectors.map(\.decl.body)
            guard bodies.allSatisfy({ Self.nesting(of: Lexer.tokenize($0.text).tokens) <= 64 }) else { return false }
            for selector in state.selectors {
                guard isKnown(selector.returnType, in: known.returnTypes),
                      selector.decl.parameters.allSatisfy({ isKnown($0.type?.text ?? "", in: known.parameterTypes) }) else { return false }
            }
        }
        return true
    }

    /// How deeply brackets nest in `tokens`, interpolations included.
    private static func nesting(of tokens: [Token]) -> Int {
        var depth = 0
        var deepest = 0
        for token in tokens {
            if token.kind == .string {
                for interpolation in token.interpolations { deepest = max(deepest, depth + nesting(of: interpolation)) }
            } else if token.kind == .punctuation, ["(", "[", "{"].contains(token.text) {
                depth += 1
                deepest = max(deepest, depth)
            } else if token.kind == .punctuation, [")", "]", "}"].contains(token.text) {
                depth -= 1
            }
        }
        return deepest
    }

    /// Offers a success to the sample (a reservoir sample of distinct eligible outputs).
    mutating func offer(number: Int, source: String, swift: String) {
        guard capacity > 0, let spec = SpecFrontEnd.run(source: source, path: "t.statespec").spec, isEligible(spec) else { return }
        guard seenOutputs.insert(swift.hashValue).inserted else { return }
        let sample = Sample(number: number, source: source, stateNames: spec.states.map(\.name))
        eligibleSeen += 1
        if samples.count < capacity {
            samples.append(sample)
        } else {
            let slot = random.below(eligibleSeen)
            if slot < capacity { samples[slot] = sample }
        }
    }

    /// What ``run()`` found.
    struct Report {
        /// Problems, each with the spec that caused it.
        var problems: [String] = []
        /// How many swiftc runs there were.
        var compilerRuns = 0
        /// How many errors pointed into specs (mutated bodies): expected, and not problems.
        var specErrors = 0
    }

    /// Type-checks the sample.
    func run() throws -> Report {
        var report = Report()
        guard !samples.isEmpty else { return report }
        let directory = try TemporaryDirectory()
        // Samples whose state names differ can share one swiftc run (a module cannot declare a
        // name twice), which keeps the check to a few compiler launches.
        var groups: [(names: Set<String>, members: [Sample])] = []
        for sample in samples {
            if let index = groups.firstIndex(where: { $0.names.isDisjoint(with: sample.stateNames) }) {
                groups[index].names.formUnion(sample.stateNames)
                groups[index].members.append(sample)
            } else {
                groups.append((Set(sample.stateNames), [sample]))
            }
        }
        for (groupIndex, group) in groups.enumerated() {
            var files: [String] = []
            var specs: [String: Sample] = [:]
            var generatedFiles: [String: Sample] = [:]
            for sample in group.members {
                let specPath = directory.path("fuzz-\(sample.number).statespec")
                try Data(sample.source.utf8).write(to: URL(fileURLWithPath: specPath))
                let output = Generator.generate(source: sample.source, path: specPath)
                let swift = try #require(output.swift)
                let swiftPath = try directory.write(swift, to: "group\(groupIndex)/fuzz-\(sample.number).statespec.swift")
                files.append(swiftPath)
                specs[specPath] = sample
                generatedFiles[swiftPath] = sample
            }
            let result = try Self.typecheck(files + FuzzFixtures.supportFiles.map(\.path))
            report.compilerRuns += 1
            for line in result.standardError.split(separator: "\n") where line.contains(": error: ") && !line.hasPrefix(" ") {
                let problems = classify(String(line), specs: specs, generatedFiles: generatedFiles)
                if problems.isEmpty { report.specErrors += 1 }
                report.problems += problems
            }
            if result.status != 0, !result.standardError.contains(": error: ") {
                report.problems.append("swiftc failed without an error line: \(result.standardError.prefix(2_000))")
            }
        }
        return report
    }

    /// An error inside a spec is the spec's (a mutated body) when it points inside the spec;
    /// anything else is the generator's.
    private func classify(_ line: String, specs: [String: Sample], generatedFiles: [String: Sample]) -> [String] {
        let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, let lineNumber = Int(parts[1]), let column = Int(parts[2]) else {
            return ["swiftc error without a location: \(line)"]
        }
        let path = String(parts[0])
        if let sample = specs[path] {
            let lines = sample.source.split(separator: "\n", omittingEmptySubsequences: false)
            guard (1...lines.count).contains(lineNumber), (1...(lines[lineNumber - 1].utf8.count + 1)).contains(column) else {
                return ["an error mapped by #sourceLocation points outside spec input \(sample.number): \(line)\n--- spec ---\n\(sample.source)"]
            }
            return []
        }
        if let sample = generatedFiles[path] {
            return ["the generated Swift of fuzz input \(sample.number) does not compile: \(line)\n--- spec ---\n\(sample.source)"]
        }
        return ["swiftc error outside the sample's files: \(line)"]
    }

    /// Runs `swiftc -typecheck` over `files` against the ComputedRuntime module of this build.
    static func typecheck(_ files: [String]) throws -> BuildProducts.Run {
        try BuildProducts.typecheck(files, moduleName: "FuzzSample")
    }
}
