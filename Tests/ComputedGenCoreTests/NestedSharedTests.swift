import Testing

@testable import ComputedGenCore

@Suite("Checker: nested states' @Shared values")
struct NestedSharedCheckTests {
    /// The names of the fields marked `holdsNestedShared`, by state.
    private func marked(_ source: String) throws -> [String: [String]] {
        let result = FrontEnd.check(source)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let spec = try #require(result.spec)
        return Dictionary(uniqueKeysWithValues: spec.states.map { state in
            (state.name, state.fields.filter(\.holdsNestedShared).map(\.name))
        })
    }

    @Test("a field of a state of the same spec holding @Shared values, at any depth and in any order")
    func sameSpec() throws {
        let marks = try marked("""
            state Shell {
              var feature: Feature = Feature()
              var plain: Plain = Plain()
              computed header: String { feature.title }
            }
            state Feature {
              var child: Child = Child()
              var title: String = ""
            }
            state Child {
              @Shared(.inMemory("k")) var session: Int = 0
            }
            state Plain {
              var count: Int = 0
            }
            """)
        #expect(marks["Shell"] == ["feature"])
        #expect(marks["Feature"] == ["child"])
        #expect(marks["Child"] == [])  // its own @Shared field is not a nested one
        #expect(marks["Plain"] == [])
    }

    @Test("a state of another spec is marked only when read through .computed")
    func otherSpec() throws {
        let marks = try marked("""
            state Parent {
              var child: ChildState = ChildState()
              var settings: Settings = Settings()
              var other: ChildState = ChildState()
              computed name: String { child.computed.name }
              computed size: Int { settings.fontSize }
              computed whole: String { describe(other) }
            }
            """)
        #expect(marks["Parent"] == ["child"])
    }

    @Test("a computed value over a marked field, directly or through another computed, keys on its stamps")
    func emitted() throws {
        let source = """
            state Parent {
              var child: ChildState = ChildState()
              var count: Int = 0
              computed name: String { child.computed.name }
              computed loud: String { name.uppercased() }
              computed doubled: Int { count * 2 }
            }
            """
        let output = try Emit.swift(source)
        #expect(output.contains("ComputedRuntime._recordSharedStamps(of: self._child.wrappedValue, into: &$0)"))
        #expect(output.contains("var _name: ComputedRuntime.SharedMemo<__nameType>"))
        #expect(output.contains("var _loud: ComputedRuntime.SharedMemo<__loudType>"))
        #expect(!output.contains("_doubled: ComputedRuntime.SharedMemo"))
        #expect(output.contains("including a `@Shared` value `child` holds, changed by any of its holders"))
    }
}
