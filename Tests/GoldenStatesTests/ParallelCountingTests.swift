import ComputedRuntime
import GoldenStates
import Testing

/// Generated counters are per process, yet these tests run in parallel (no `.serialized`) and
/// assert exact counts, because each counts inside its own `RecomputationCounter.counting` scope.
@Suite("Generated counters in parallel tests")
struct ParallelCountingTests {
    static let todos = [
        Todo(title: "milk", done: false, owner: 1),
        Todo(title: "bread", done: true, owner: 2),
    ]

    @Test("a computed is computed once per change of its inputs; early cutoff spares its readers", arguments: 0..<4)
    func computedOncePerChange(_ run: Int) {
        RecomputationCounter.counting { counts in
            var state = TodoState(todos: Self.todos)
            for round in 0..<50 {
                _ = state.computed.visibleCount
                _ = state.computed.visibleCount
                state.query = "m\(round)"
            }
            #expect(counts[TodoState.Selectors.visibleTodos] == 50)
            // From "m0" on, no title matches: visibleTodos recomputes to an equal [] (early
            // cutoff), so visibleCount ran for "" and "m0" only.
            #expect(counts[TodoState.Selectors.visibleCount] == 2)
            #expect(counts[TodoState.Selectors.doneCount] == 0)
        }
    }

    @Test("an unrelated write recomputes nothing", arguments: 0..<4)
    func unrelatedWrite(_ run: Int) async {
        await RecomputationCounter.counting { counts in
            var state = TodoState(todos: Self.todos)
            _ = state.computed.visibleTodos
            _ = state.computed.doneCount
            for round in 0..<50 {
                state.unread = round
                _ = state.computed.visibleTodos
                _ = state.computed.doneCount
                await Task.yield()
            }
            #expect(counts[TodoState.Selectors.visibleTodos] == 1)
            #expect(counts[TodoState.Selectors.doneCount] == 1)
        }
    }
}
