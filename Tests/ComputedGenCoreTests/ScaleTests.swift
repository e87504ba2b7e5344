import Foundation
import Testing

@testable import ComputedGenCore

/// The generator on a large spec: correct at scale and deterministic. (No timing assertions: the
/// speed target is measured by `scripts/measure-generator.sh` in a release build.)
@Suite("Scale")
struct ScaleTests {
    static let fieldCount = 300
    static let computedCount = 300

    /// The fields computed `i` reads directly.
    static func fieldReads(of index: Int) -> [Int] {
        let reads = [index % fieldCount, (index * 7 + 3) % fieldCount, (index * 13 + 5) % fieldCount]
        var unique: [Int] = []
        for read in reads.prefix(index % 3 == 0 ? 3 : 2) where !unique.contains(read) { unique.append(read) }
        return unique
    }

    /// The computed computed `i` reads, if any: an earlier one, so the graph is acyclic, but
    /// declared in an order that makes the topological sort matter (computed `i` reads `i / 2`).
    static func computedRead(of index: Int) -> Int? {
        index % 4 == 3 ? index / 2 : nil
    }

    /// The spec, with computeds declared in reverse, so that every computed-on-computed input is
    /// declared after its reader.
    static let source: String = {
        var lines = ["public state Large: Equatable {"]
        for field in 0..<fieldCount {
            lines.append("  var f\(field): Int = \(field)")
        }
        for index in (0..<computedCount).reversed() {
            var terms = fieldReads(of: index).map { "f\($0)" }
            if let other = computedRead(of: index) { terms.append("c\(other)") }
            lines.append("  computed c\(index): Int { \(terms.joined(separator: " + ")) }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }()

    /// The expected dependents of each field: the computeds that read it directly or through
    /// other computeds, found by a plain fixed point over the model above.
    static func expectedDependents() -> [Set<String>] {
        var readers = Array(repeating: Set<Int>(), count: fieldCount)
        for index in 0..<computedCount {
            for field in fieldReads(of: index) { readers[field].insert(index) }
        }
        var changed = true
        while changed {
            changed = false
            for index in 0..<computedCount {
                guard let other = computedRead(of: index) else { continue }
                for field in 0..<fieldCount where readers[field].contains(other) && !readers[field].contains(index) {
                    readers[field].insert(index)
                    changed = true
                }
            }
        }
        return readers.map { Set($0.map { "c\($0)" }) }
    }

    @Test("every field invalidates exactly its transitive dependents, each after what it reads")
    func dependentsAtScale() throws {
        let spec = try Emit.checked(Self.source)
        let state = try #require(spec.states.first)
        #expect(state.fields.count == Self.fieldCount)
        #expect(state.computeds.count == Self.computedCount)

        let position = Dictionary(uniqueKeysWithValues: state.computeds.enumerated().map { ($1.name, $0) })
        // Topological order: every computed after each computed it reads.
        for computed in state.computeds {
            for case .computed(let input) in computed.inputs {
                #expect(try #require(position[input]) < position[computed.name]!, "\(input) before \(computed.name)")
            }
        }
        let expected = Self.expectedDependents()
        for (index, field) in state.fields.enumerated() {
            #expect(Set(field.dependents) == expected[index], "f\(index)")
            #expect(field.dependents.count == Set(field.dependents).count, "f\(index) repeats a dependent")
            #expect(field.dependents == field.dependents.sorted { position[$0]! < position[$1]! }, "f\(index) out of order")
        }
    }

    @Test("the one-walk-per-field dependents agree with the per-computed reachability definition")
    func fieldDependentsMatchDefinition() throws {
        let spec = try Emit.checked(Self.source)
        let state = try #require(spec.states.first)
        let declared = state.decl.members.compactMap { member -> ComputedDecl? in
            if case .computed(let decl) = member { decl } else { nil }
        }
        let inputsByName = Dictionary(uniqueKeysWithValues: state.computeds.map { ($0.name, $0.inputs) })
        let graph = DependencyGraph(computeds: declared, inputs: declared.map { inputsByName[$0.name.name] ?? [] })
        let order = graph.topologicalOrder()
        let fast = graph.fieldDependents(in: order)
        for field in state.fields {
            let reference = order.filter { graph.readsField(field.name, computed: $0) }
            #expect((fast[field.name] ?? []) == reference, "\(field.name)")
        }
    }

    @Test("the emitted table gives the checked dependents, and output is deterministic")
    func emittedAtScale() throws {
        let first = try Emit.swift(Self.source, path: "Large.statespec")
        let second = try Emit.swift(Self.source, path: "Large.statespec")
        #expect(first == second)

        // The table's edges, with the runtime's rule, give each field's dependents.
        let hooks = Emit.invalidations(in: first)
        let expected = Self.expectedDependents()
        for field in 0..<Self.fieldCount {
            let hook = hooks["f\(field)"]
            if expected[field].isEmpty {
                #expect(hook == nil, "f\(field)")
            } else {
                #expect(hook == expected[field], "f\(field)")
            }
        }
        // Per computed: its body; per field: its default. The types, all on consecutive spec
        // lines, share one `#sourceLocation`.
        #expect(Emit.count(of: "#sourceLocation(file:", in: first) == Self.computedCount + Self.fieldCount + 1)
        #expect(Emit.count(of: "table.computed(", in: first) == Self.computedCount)
    }

    @Test("the work grows about linearly: doubling the spec about doubles the output")
    func outputGrowsLinearly() throws {
        func spec(fields: Int, computeds: Int) -> String {
            var lines = ["state S {"]
            for field in 0..<fields { lines.append("  var f\(field): Int = 0") }
            for index in 0..<computeds {
                let other = index > 0 && index % 4 == 3 ? " + c\(index / 2)" : ""
                lines.append("  computed c\(index): Int { f\(index % fields) + f\((index * 7 + 3) % fields)\(other) }")
            }
            lines.append("}")
            return lines.joined(separator: "\n")
        }
        let small = try Emit.swift(spec(fields: 150, computeds: 150))
        let large = try Emit.swift(spec(fields: 300, computeds: 300))
        let ratio = Double(large.utf8.count) / Double(small.utf8.count)
        // Invalidation lists are transitive, so a little super-linear growth is expected; a
        // quadratic blow-up would give about 4.
        #expect(ratio > 1.8 && ratio < 2.6, "ratio \(ratio)")
    }
}
