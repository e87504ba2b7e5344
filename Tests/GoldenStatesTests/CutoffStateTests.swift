import ComputedRuntime
import GoldenStates
import Testing

/// Change propagation in the golden output of `Fixtures/Specs/Cutoff.statespec`: a change that
/// changes nothing propagates nothing.
///
/// Each test counts its own recomputations (`RecomputationCounter.counting`, opened by the
/// `countingRecomputations` trait), so deltas are exact although other suites (the store tests)
/// use `CutoffState` in parallel: the process-wide counters made this suite flaky.
@Suite("Generated CutoffState: change propagation", .serialized, .countingRecomputations)
struct CutoffStateTests {
    typealias S = CutoffState.Selectors

    /// The counting scope of the running test.
    @TaskLocal static var counts: RecomputationCounts?

    /// A state with every computed value read once.
    func warmState(items: [Int] = [100, 400, 500]) -> CutoffState {
        let state = CutoffState(items: items)
        _ = state.computed.summary
        _ = state.computed.uncutCount
        _ = state.computed.greeting
        _ = state.computed.tokenID
        return state
    }

    struct Counts: Equatable {
        var filteredArray, filteredCount, summary, uncutArray, uncutCount, greeting, tokenID: Int

        /// The running test's recomputations so far.
        static var now: Counts {
            let counts = CutoffStateTests.counts!
            return Counts(
                filteredArray: counts[S.filteredArray], filteredCount: counts[S.filteredCount],
                summary: counts[S.summary], uncutArray: counts[S.uncutArray],
                uncutCount: counts[S.uncutCount], greeting: counts[S.greeting],
                tokenID: counts[S.tokenID]
            )
        }
    }

    /// Reads every computed value, then returns how many of each ran since `before`.
    func recomputations(of state: CutoffState, since before: Counts) -> Counts {
        _ = state.computed.summary
        _ = state.computed.uncutCount
        _ = state.computed.greeting
        _ = state.computed.tokenID
        let now = Counts.now
        return Counts(
            filteredArray: now.filteredArray - before.filteredArray, filteredCount: now.filteredCount - before.filteredCount,
            summary: now.summary - before.summary, uncutArray: now.uncutArray - before.uncutArray,
            uncutCount: now.uncutCount - before.uncutCount, greeting: now.greeting - before.greeting,
            tokenID: now.tokenID - before.tokenID
        )
    }

    static let none = Counts(filteredArray: 0, filteredCount: 0, summary: 0, uncutArray: 0, uncutCount: 0, greeting: 0, tokenID: 0)

    @Test("assigning an equal value (a new buffer, same contents) is no change")
    func equalAssignment() {
        var state = warmState(items: [400, 500])
        let itemsVersion = S.items.version(state)
        let filteredVersion = S.filteredArray.version(state)
        let before = Counts.now
        var fresh = [400]
        fresh.append(500)  // a different buffer from the state's
        state.items = fresh
        state.name = state.name
        state.threshold = 300
        #expect(S.items.version(state) == itemsVersion)
        #expect(recomputations(of: state, since: before) == Self.none)
        #expect(S.filteredArray.version(state) == filteredVersion)
    }

    @Test("an in-place mutation is a change, even when it restores the value; cutoff stops it")
    func inPlaceMutationIsAChange() {
        var state = warmState()
        let itemsVersion = S.items.version(state)
        let filteredVersion = S.filteredArray.version(state)
        let before = Counts.now
        state.items.append(1)
        state.items.removeLast()
        #expect(S.items.version(state) != itemsVersion)
        var expected = Self.none
        expected.filteredArray = 1  // recomputed to an equal value: cut off there
        expected.uncutArray = 1
        expected.uncutCount = 1     // @NoCutoff: its reader runs again
        #expect(recomputations(of: state, since: before) == expected)
        #expect(S.filteredArray.version(state) == filteredVersion)
    }

    @Test("cutoff in the middle of a three-level chain")
    func cutoffMidChain() {
        var state = warmState(items: [400, 500])
        let countVersion = S.filteredCount.version(state)
        let before = Counts.now
        state.items = [400, 600]  // filteredArray changes, its count does not
        var expected = Self.none
        expected.filteredArray = 1
        expected.filteredCount = 1  // recomputed, equal: summary is not
        expected.uncutArray = 1
        expected.uncutCount = 1
        #expect(recomputations(of: state, since: before) == expected)
        #expect(S.filteredCount.version(state) == countVersion)
        #expect(state.computed.summary == "2 over 300")
    }

    @Test("the cutoff keeps the cached instance: an array keeps its buffer")
    func cutoffKeepsInstance() {
        var state = warmState(items: [400, 500])
        let buffer = state.computed.filteredArray.withUnsafeBufferPointer { $0.baseAddress }
        state.items.append(1)
        #expect(state.computed.filteredArray.withUnsafeBufferPointer { $0.baseAddress } == buffer)
    }

    @Test("a field whose type is not Equatable changes on every assignment")
    func nonEquatableAssignment() {
        var state = warmState()
        let token = state.token
        let before = Counts.now
        state.token = token  // the same instance, but Token is not Equatable
        var expected = Self.none
        expected.tokenID = 1
        #expect(recomputations(of: state, since: before) == expected)
    }

    @Test("a write to a field nobody reads recomputes nothing")
    func unrelatedWrite() {
        var state = warmState()
        let before = Counts.now
        state.name = "Ada"
        var expected = Self.none
        expected.greeting = 1
        #expect(recomputations(of: state, since: before) == expected)
    }

    @Test("concurrent first reads after a cutoff compute each value at most once")
    func concurrentReadsAfterCutoff() async {
        for _ in 0..<20 {
            var state = warmState(items: Array(0..<2_000))
            state.items.append(0)  // filteredArray recomputes equal; the rest is verified
            let shared = state
            let before = Counts.now
            // Child tasks, which count in this test's scope (other threads would not).
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { #expect(shared.computed.summary == "1699 over 300") }
                }
            }
            let delta = recomputations(of: shared, since: before)
            #expect(delta.filteredArray == 1)
            #expect(delta.filteredCount == 0)
            #expect(delta.summary == 0)
        }
    }

    @Test("copies keep their own cutoff: a copy's write does not disturb the original")
    func copies() {
        let original = warmState(items: [400, 500])
        var copy = original
        copy.items = [400, 600]
        #expect(copy.computed.filteredArray == [400, 600])
        #expect(original.computed.filteredArray == [400, 500])
        #expect(S.filteredCount.version(copy) == S.filteredCount.version(original))
    }
}

/// Runs each test of a suite inside `RecomputationCounter.counting`, its counts in
/// `CutoffStateTests.counts`.
struct CountingRecomputations: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> CountingRecomputations? {
        test.isSuite ? nil : self
    }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await RecomputationCounter.counting { counts in
            try await CutoffStateTests.$counts.withValue(counts) { try await function() }
        }
    }
}

extension Trait where Self == CountingRecomputations {
    /// Each test counts its own recomputations.
    static var countingRecomputations: Self { CountingRecomputations() }
}
