import ComputedRuntime
import Foundation
import GoldenStates
import Testing

/// Exercises the golden output of `Fixtures/Specs/Todo.statespec`, compiled as-is.
///
/// Recomputation counters are process-wide per computed, so every test measures deltas, and the
/// suite is serialized.
@Suite("Generated TodoState", .serialized)
struct TodoStateTests {
    let sample = [
        Todo(title: "milk", done: false, owner: 1),
        Todo(title: "bread", done: true, owner: 2),
        Todo(title: "mild cheese", done: false, owner: 1),
    ]

    @Test("a computed is computed once, then read from the cache")
    func memoizes() {
        let state = TodoState(todos: sample)
        let counter = TodoState.Selectors.visibleTodos
        let before = counter.recomputations
        #expect(state.computed.visibleTodos.count == 3)
        #expect(state.computed.visibleTodos.count == 3)
        #expect(state.computed.visibleTodos.count == 3)
        #expect(counter.recomputations == before + 1)
    }

    @Test("writing an input recomputes; writing an unrelated field does not")
    func invalidatesExactlyTheDependents() {
        var state = TodoState(todos: sample)
        let visible = TodoState.Selectors.visibleTodos
        let done = TodoState.Selectors.doneCount
        _ = state.computed.visibleTodos
        _ = state.computed.doneCount
        let visibleBefore = visible.recomputations
        let doneBefore = done.recomputations

        state.unread = 3  // nothing reads `unread`
        _ = state.computed.visibleTodos
        _ = state.computed.doneCount
        #expect(visible.recomputations == visibleBefore)
        #expect(done.recomputations == doneBefore)

        state.query = "mil"  // feeds visibleTodos, not doneCount
        #expect(state.computed.visibleTodos.map(\.title) == ["milk", "mild cheese"])
        #expect(state.computed.doneCount == 1)
        #expect(visible.recomputations == visibleBefore + 1)
        #expect(done.recomputations == doneBefore)

        state.todos.append(Todo(title: "mild salsa", done: true, owner: 3))  // feeds both
        #expect(state.computed.visibleTodos.count == 3)
        #expect(state.computed.doneCount == 2)
        #expect(visible.recomputations == visibleBefore + 2)
        #expect(done.recomputations == doneBefore + 1)
    }

    @Test("a computed on a computed follows its input")
    func computedOnComputed() {
        var state = TodoState(todos: sample)
        #expect(state.computed.visibleCount == 3)
        state.filter = .done
        #expect(state.computed.visibleCount == 1)
        state.filter = .active
        #expect(state.computed.visibleCount == 2)
    }

    @Test("copies share cached values until one of them changes an input")
    func copiesShareCaches() {
        let original = TodoState(todos: sample)
        let visible = TodoState.Selectors.visibleTodos
        var copy = original
        let before = visible.recomputations
        _ = original.computed.visibleTodos
        _ = copy.computed.visibleTodos  // shared cell: no recomputation
        #expect(visible.recomputations == before + 1)

        copy.query = "bread"
        #expect(copy.computed.visibleTodos.map(\.title) == ["bread"])
        #expect(original.computed.visibleTodos.count == 3)  // the original keeps its value
        #expect(visible.recomputations == before + 2)
    }

    @Test("Edge fields: versions, middleware and dynamic-member projections")
    func edges() {
        var state = TodoState()
        let first = state.$badge.version
        state.badge = 250
        #expect(state.badge == 99)  // onSet clamps
        #expect(state.$badge.version != first)
        state.avatar = Avatar(url: "a.png")
        #expect(state.$avatar.wrappedValue?.url == "a.png")
    }

    @Test("generated == compares fields, by version first")
    func equality() {
        let state = TodoState(todos: sample)
        var other = state
        #expect(state == other)
        other.query = "x"
        #expect(state != other)
        other.query = ""
        #expect(state == other)  // different stamps, equal values
        _ = other.computed.visibleTodos  // caches never take part
        #expect(state == other)
        other.avatar = Avatar(url: "b.png")  // not Equatable: compared by version
        other.avatar = nil
        #expect(state != other)
    }

    @Test("selectors: field, computed and parameterized")
    func selectors() {
        var state = TodoState(todos: sample)
        #expect(TodoState.Selectors.todos(state) == sample)
        #expect(TodoState.Selectors.visibleCount(state) == 3)

        let ownedBy = TodoState.Selectors.todos(ownedBy:)
        #expect(ownedBy(1)(state).map(\.title) == ["milk", "mild cheese"])
        #expect(ownedBy(2)(state).map(\.title) == ["bread"])
        state.todos.removeAll { $0.owner == 1 }
        #expect(ownedBy(1)(state).isEmpty)
        #expect(ownedBy(2)(state).map(\.title) == ["bread"])
    }

    @Test("parameterized selectors cache per argument")
    func parameterizedCaching() {
        let state = TodoState(todos: sample)
        _ = TodoState.Selectors.todos(ownedBy: 7)(state)
        _ = TodoState.Selectors.todos(ownedBy: 8)(state)
        let selector7 = TodoState.Selectors.todos(ownedBy: 7)
        let selector8 = TodoState.Selectors.todos(ownedBy: 8)
        let before = selector7.recomputations
        _ = selector7(state)
        _ = selector8(state)
        _ = selector7(state)
        #expect(selector7.recomputations == before)  // both arguments still cached
    }
}
