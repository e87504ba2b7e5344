@testable import ComputedRuntime
import Testing

@testable import GoldenStates

/// The selectors generated states get from their table (`Selectors.x` is a getter into
/// `Extended.__table`): made once, read in place, versioned for every kind of field.
@Suite("Selectors made by the state's table")
struct TableSelectorTests {
    @Test("each access gives the same selector, so memoized selectors built on it share one cache")
    func identity() {
        #expect(CounterState.Selectors.count._storage === CounterState.Selectors.count._storage)
        #expect(CounterState.Selectors.doubled._storage === CounterState.Selectors.doubled._storage)
        #expect(CounterState.Selectors.count._storage !== CounterState.Selectors.step._storage)
    }

    @Test("a plain field's selector reads the value and its stamp in place; the stamp moves with writes only")
    func plainField() {
        var state = CounterState(count: 3, step: 2)
        let count = CounterState.Selectors.count
        let step = CounterState.Selectors.step
        #expect(count(state) == 3)
        #expect(step(state) == 2)
        let version = count.version(state)
        state.step = 5
        #expect(count.version(state) == version)
        #expect(step(state) == 5)
        state.count = 3  // equal: no change
        #expect(count.version(state) == version)
        state.count = 4
        #expect(count.version(state) != version)
        #expect(count(state) == 4)
    }

    @Test("@Edge fields: every write is a new version, the value is read after its middleware")
    func edgeFields() {
        var state = ProfileState()
        let badge = ProfileState.Selectors.badge
        let unread = ProfileState.Selectors.unread
        let before = (badge.version(state), unread.version(state))
        state.badge = 250  // onSet clamps to 99
        #expect(badge(state) == 99)
        #expect(badge.version(state) != before.0)
        #expect(unread.version(state) == before.1)
        let clamped = badge.version(state)
        state.badge = 99  // Verge's rule: an @Edge write is a new version even when equal
        #expect(badge.version(state) != clamped)
    }

    @Test("a computed value's selector counts its body and is versioned by the value")
    func computedValue() {
        var state = CounterState(count: 1)
        let doubled = CounterState.Selectors.doubled
        #expect(doubled(state) == 2)
        let runs = doubled.recomputations
        let version = doubled.version(state)
        #expect(doubled(state) == 2)
        #expect(doubled.recomputations == runs)
        state.step = 7  // not an input of `doubled`
        #expect(doubled.version(state) == version)
        state.count = 2
        #expect(doubled(state) == 4)
        #expect(doubled.version(state) != version)
        #expect(doubled.recomputations == runs + 1)
    }

    @Test("a memoized selector over table selectors recomputes only when one of them moved")
    func memoizedOverTableSelectors() {
        let sum = createSelector(CounterState.Selectors.count, CounterState.Selectors.doubled) { $0 + $1 }
        var state = CounterState(count: 2)
        #expect(sum(state) == 6)
        let runs = sum.recomputations
        state.label = "other"
        #expect(sum(state) == 6)
        #expect(sum.recomputations == runs)
        state.count = 3
        #expect(sum(state) == 9)
        #expect(sum.recomputations == runs + 1)
    }
}
