@testable import ComputedRuntime
import Testing

/// A table entry's inputs as generated code writes them, by name, resolved to indices once.
@Suite("State table inputs by name")
struct StateTableInputsTests {
    /// An input as text, to compare (`Input` is not `Equatable`).
    private static func describe(_ input: StateTable<Int, Int>.Input) -> String {
        switch input {
        case .field(let index): "field \(index)"
        case .computed(let index): "computed \(index)"
        case .member(let index, let path): "member \(index) \(path)"
        }
    }

    private static func resolve(_ names: StaticString) -> [String] {
        StateTable<Int, Int>.resolveInputs(names, fields: ["a": 0, "shelf": 1], computeds: ["b": 0, "later": 3], of: "test")
            .map(describe)
    }

    @Test("fields, computed values (also one described later) and member paths")
    func names() {
        #expect(Self.resolve("a later shelf.computed.total shelf.books.count b") == [
            "field 0", "computed 3", "member 1 computed.total", "member 1 books.count", "computed 0",
        ])
        #expect(Self.resolve("") == [])
    }
}
