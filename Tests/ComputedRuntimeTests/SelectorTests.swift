import ConcurrencyTestSupport
import Foundation
import Testing
@testable import ComputedRuntime

private struct Payload: Sendable {
    var numbers: [Int]
}

private struct AppState: Sendable {
    var a = 1
    var b = 2
    var words: [String] = ["x"]
    var payload = Edge(wrappedValue: Payload(numbers: [1, 2, 3]))
    var loose = Payload(numbers: [10])  // unversioned, not Equatable
}

/// Counts how often an input selector's value closure runs.
private func counted<Value>(
    _ counter: RecomputationCounter,
    _ select: @escaping @Sendable (AppState) -> Value
) -> StateSelector<AppState, Value> {
    StateSelector { state in
        counter.increment()
        return select(state)
    }
}

@Suite("StateSelector")
struct SelectorTests {
    @Test("plain selectors run their closure and are unversioned")
    func plain() {
        let selector = StateSelector<AppState, Int> { $0.a * 10 }
        #expect(selector(AppState()) == 10)
        #expect(selector.version(AppState()) == nil)
        #expect(!selector.isVersioned)
        #expect(selector.recomputations == 0)
    }

    @Test("versioned selectors report the supplied stamp and counter")
    func versioned() {
        let counter = RecomputationCounter()
        let selector = StateSelector<AppState, Payload>(
            version: { $0.payload.version },
            recomputations: counter
        ) { $0.payload.wrappedValue }
        let state = AppState()
        #expect(selector.version(state) == state.payload.version)
        #expect(selector.isVersioned)
        counter.increment()
        #expect(selector.recomputations == 1)
        selector.resetRecomputations()
        #expect(counter.count == 0)
    }

    @Test("one Equatable input: memoized by ==")
    func oneInput() {
        let selector = createSelector(StateSelector<AppState, Int> { $0.a }) { $0 * 2 }
        var state = AppState()
        #expect(selector(state) == 2)
        #expect(selector(state) == 2)
        #expect(selector.recomputations == 1)
        state.b = 100  // not an input
        #expect(selector(state) == 2)
        #expect(selector.recomputations == 1)
        state.a = 1  // written, but equal
        #expect(selector(state) == 2)
        #expect(selector.recomputations == 1)
        state.a = 5
        #expect(selector(state) == 10)
        #expect(selector.recomputations == 2)
        selector.resetRecomputations()
        #expect(selector.recomputations == 0)
    }

    @Test("two inputs: recomputes when either changes")
    func twoInputs() {
        let selector = createSelector(
            StateSelector<AppState, Int> { $0.a },
            StateSelector<AppState, [String]> { $0.words }
        ) { a, words in
            words.map { String(repeating: $0, count: a) }.joined()
        }
        var state = AppState()
        #expect(selector(state) == "x")
        state.a = 3
        #expect(selector(state) == "xxx")
        state.words = ["y", "z"]
        #expect(selector(state) == "yyyzzz")
        #expect(selector(state) == "yyyzzz")
        #expect(selector.recomputations == 3)
    }

    @Test("twelve inputs via parameter packs")
    func twelveInputs() {
        let input = { (offset: Int) in StateSelector<AppState, Int> { $0.a + offset } }
        let selector = createSelector(
            input(0), input(1), input(2), input(3), input(4), input(5),
            input(6), input(7), input(8), input(9), input(10), input(11)
        ) { i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11 in
            [i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11]
        }
        var state = AppState()
        #expect(selector(state) == Array(1...12))
        #expect(selector(state) == Array(1...12))
        #expect(selector.recomputations == 1)
        state.a = 0
        #expect(selector(state) == Array(0...11))
        #expect(selector.recomputations == 2)
    }

    @Test("zero inputs: computed once")
    func zeroInputs() {
        let selector = createSelector { () -> Int in 7 } as StateSelector<AppState, Int>
        #expect(selector(AppState()) == 7)
        #expect(selector(AppState()) == 7)
        #expect(selector.recomputations == 1)
    }

    @Test("versioned input: compared by stamp; its value is not computed on a hit")
    func versionedInput() {
        let valueReads = RecomputationCounter()
        let payload = StateSelector<AppState, Payload>(version: { $0.payload.version }) { state in
            valueReads.increment()
            return state.payload.wrappedValue
        }
        let total = createSelector(payload) { $0.numbers.reduce(0, +) }
        var state = AppState()
        #expect(total(state) == 6)
        #expect(valueReads.count == 1)
        for _ in 0..<10 {
            #expect(total(state) == 6)
        }
        #expect(valueReads.count == 1)  // hits never read the input's value
        #expect(total.recomputations == 1)
        state.payload.wrappedValue.numbers.append(4)
        #expect(total(state) == 10)
        #expect(valueReads.count == 2)
        state.payload.wrappedValue = state.payload.wrappedValue  // same value, new stamp
        #expect(total(state) == 10)
        #expect(total.recomputations == 3)
    }

    @Test("Equatable unversioned input: compared by ==")
    func equatableInput() {
        let reads = RecomputationCounter()
        let selector = createSelector(counted(reads) { $0.words }) { $0.count }
        var state = AppState()
        #expect(selector(state) == 1)
        state.words = ["x"]  // new array, equal contents
        #expect(selector(state) == 1)
        #expect(selector.recomputations == 1)
        #expect(reads.count == 2)  // an unversioned input is read on every call
        state.words.append("y")
        #expect(selector(state) == 2)
        #expect(selector.recomputations == 2)
    }

    @Test("non-Equatable unversioned input: always recomputes")
    func nonEquatableInput() {
        let selector = createSelector(StateSelector<AppState, Payload> { $0.loose }) { $0.numbers.count }
        let state = AppState()
        #expect(selector(state) == 1)
        #expect(selector(state) == 1)
        #expect(selector(state) == 1)
        #expect(selector.recomputations == 3)
        // Its output is still versioned, with a new stamp per recomputation.
        let first = selector.version(state)
        let second = selector.version(state)
        #expect(first != nil && second != nil && first != second)
    }

    @Test("memoized: false recomputes on every call and is unversioned")
    func unmemoized() {
        let selector = createSelector(StateSelector<AppState, Int> { $0.a }, memoized: false) { $0 + 1 }
        let state = AppState()
        #expect(selector(state) == 2)
        #expect(selector(state) == 2)
        #expect(selector(state) == 2)
        #expect(selector.recomputations == 3)
        #expect(selector.version(state) == nil)
        #expect(!selector.isVersioned)
    }

    @Test("memoized output is versioned: same stamp on a hit, new stamp on a recomputation")
    func outputVersion() {
        let selector = createSelector(StateSelector<AppState, Int> { $0.a }) { $0 }
        var state = AppState()
        let v1 = selector.version(state)
        let v2 = selector.version(state)
        #expect(v1 != nil)
        #expect(v1 == v2)
        state.a = 9
        let v3 = selector.version(state)
        #expect(v3 != v1)
        #expect(selector.recomputations == 2)
    }

    @Test("composed selectors check inputs in O(1) and recompute only what changed")
    func composed() {
        let aReads = RecomputationCounter()
        let bReads = RecomputationCounter()
        let doubledA = createSelector(counted(aReads) { $0.a }) { $0 * 2 }
        let doubledB = createSelector(counted(bReads) { $0.b }) { $0 * 2 }
        let sum = createSelector(doubledA, doubledB) { $0 + $1 }
        let label = createSelector(sum) { "sum=\($0)" }
        var state = AppState()
        #expect(label(state) == "sum=6")
        #expect(label(state) == "sum=6")
        #expect(doubledA.recomputations == 1)
        #expect(doubledB.recomputations == 1)
        #expect(sum.recomputations == 1)
        #expect(label.recomputations == 1)
        // A hit of the top selector reads each leaf input once (to compare it) and recomputes
        // nothing: every level compares one stamp per input.
        aReads.reset()
        bReads.reset()
        #expect(label(state) == "sum=6")
        #expect(aReads.count == 1)
        #expect(bReads.count == 1)
        state.a = 10
        #expect(label(state) == "sum=24")
        #expect(doubledA.recomputations == 2)
        #expect(doubledB.recomputations == 1)
        #expect(sum.recomputations == 2)
        #expect(label.recomputations == 2)
        state.a = 10  // written, equal: `a` is compared by ==, so no new stamp anywhere
        #expect(label(state) == "sum=24")
        #expect(doubledA.recomputations == 2)
        #expect(sum.recomputations == 2)
        #expect(label.recomputations == 2)
    }

    @Test("cache of size 1: alternating roots recompute")
    func cacheSizeOne() {
        let selector = createSelector(StateSelector<AppState, Int> { $0.a }) { $0 }
        var one = AppState()
        one.a = 1
        var two = AppState()
        two.a = 2
        for _ in 0..<3 {
            #expect(selector(one) == 1)
            #expect(selector(two) == 2)
        }
        #expect(selector.recomputations == 6)
    }

    @Test("copies of a selector share its memo")
    func copiesShareMemo() {
        let selector = createSelector(StateSelector<AppState, Int> { $0.a }) { $0 + 1 }
        let copy = selector
        #expect(selector(AppState()) == 2)
        #expect(copy(AppState()) == 2)
        #expect(copy.recomputations == 1)
    }

    @Test("concurrent calls with the same root compute once; mixed roots stay correct")
    func concurrency() {
        let computations = RecomputationCounter()
        let slow = createSelector(StateSelector<AppState, Int> { $0.a }) { a -> Int in
            computations.increment()
            usleep(5_000)
            return a * 3
        }
        let state = AppState()
        let wrong = Collected(0)
        runOnThreads(8) { _ in
            for _ in 0..<20 where slow(state) != 3 {
                wrong.withLock { $0 += 1 }
            }
        }
        #expect(wrong.value == 0)
        #expect(computations.count == 1)
        #expect(slow.recomputations == 1)

        let composed = createSelector(slow, StateSelector<AppState, Int> { $0.b }) { $0 + $1 }
        runOnThreads(8) { index in
            var mine = AppState()
            for round in 0..<50 {
                mine.a = (index + round) % 3
                mine.b = index
                if composed(mine) != mine.a * 3 + index {
                    wrong.withLock { $0 += 1 }
                }
            }
        }
        #expect(wrong.value == 0)
    }

    // MARK: The hit path

    @Test("a hit of a trivial value takes no lock")
    func trivialHitTakesNoLock() {
        let input = StateSelector<Pair, Int>(version: { $0.x.version }) { $0.x.wrappedValue }
        let box = _MemoizedSelectorBox<Pair, Int>(
            counter: RecomputationCounter(),
            total: nil,
            slots: [_InputSlot(input)],
            recompute: { $0.x.wrappedValue * 10 }
        )
        let selector = StateSelector(_memo: box)
        let pair = Pair(x: 3, y: 0)
        #expect(selector(pair) == 30)  // the miss computes and publishes
        // Hold the selector's lock: a hit must not wait for it.
        box.lock.lock()
        let done = DispatchSemaphore(value: 0)
        let result = Collected<(Int, VersionStamp)?>(nil)
        Thread {
            let value = selector(pair)
            let version = selector.version(pair)!
            result.withLock { $0 = (value, version) }
            done.signal()
        }.start()
        let finished = done.wait(timeout: .now() + 10) == .success
        box.lock.unlock()
        if !finished {
            done.wait()
        }
        #expect(finished, "the hit waited for the selector's lock")
        #expect(result.value?.0 == 30)
        #expect(result.value?.1 == selector.version(pair))
        #expect(selector.recomputations == 1)
    }

    @Test("trivial values of any size and alignment round-trip through the hit path")
    func trivialValuesOfAnySize() {
        let x = StateSelector<Pair, Int>(version: { $0.x.version }) { $0.x.wrappedValue }
        let y = StateSelector<Pair, Int>(version: { $0.y.version }) { $0.y.wrappedValue }
        let pair = Pair(x: 2, y: 5)

        let nothing = createSelector(x) { _ in () }
        nothing(pair)
        nothing(pair)
        #expect(nothing.recomputations == 1)

        let byte = createSelector(x, y) { UInt8($0 + $1) }
        #expect(byte(pair) == 7)
        #expect(byte(pair) == 7)

        let flag = createSelector(x, y) { $0 < $1 }
        #expect(flag(pair))
        #expect(flag(pair))

        let triple = createSelector(x, y) { Triple(a: $0, b: $1, product: $0 * $1) }
        #expect(triple(pair) == Triple(a: 2, b: 5, product: 10))
        #expect(triple(pair) == Triple(a: 2, b: 5, product: 10))

        let vector = createSelector(x, y) { SIMD4<Double>(Double($0), Double($1), 0.5, -1) }  // 16-byte aligned
        #expect(vector(pair) == SIMD4(2, 5, 0.5, -1))
        #expect(vector(pair) == SIMD4(2, 5, 0.5, -1))

        let odd = createSelector(x, y) { (UInt8($0), Int16($1), UInt8(9)) }  // 5 bytes, padded
        #expect(odd(pair) == (2, 5, 9))
        #expect(odd(pair) == (2, 5, 9))

        for selector in [byte.recomputations, flag.recomputations, triple.recomputations, vector.recomputations, odd.recomputations] {
            #expect(selector == 1)
        }
        var changed = pair
        changed.y.wrappedValue = 6
        #expect(triple(changed) == Triple(a: 2, b: 6, product: 12))
        #expect(odd(changed) == (2, 6, 9))
        #expect(triple.recomputations == 2)
    }

    @Test("concurrent hits and misses: trivial and other values are never torn or stale")
    func concurrentHitsAndMisses() {
        let x = StateSelector<Pair, Int>(version: { $0.x.version }) { $0.x.wrappedValue }
        let y = StateSelector<Pair, Int>(version: { $0.y.version }) { $0.y.wrappedValue }
        let triple = createSelector(x, y) { Triple(a: $0, b: $1, product: $0 * $1) }
        let text = createSelector(x, y) { "\($0)×\($1)" }
        let nested = createSelector(triple, text) { "\($1)=\($0.product)" }
        let roots = (0..<4).map { Pair(x: $0, y: $0 + 10) }
        let wrong = Collected(0)
        runOnThreads(8) { index in
            for round in 0..<20_000 {
                // Threads 0-3 stay on one root (hits); the others alternate (misses racing them).
                let root = roots[index < 4 ? index : (index + round) % roots.count]
                let i = root.x.wrappedValue
                let j = root.y.wrappedValue
                let ok = triple(root) == Triple(a: i, b: j, product: i * j)
                    && text(root) == "\(i)×\(j)"
                    && nested(root) == "\(i)×\(j)=\(i * j)"
                if !ok {
                    wrong.withLock { $0 += 1 }
                }
            }
        }
        #expect(wrong.value == 0)
    }
}

/// A root with two versioned inputs.
private struct Pair: Sendable {
    var x: Edge<Int>
    var y: Edge<Int>

    init(x: Int, y: Int) {
        self.x = Edge(wrappedValue: x)
        self.y = Edge(wrappedValue: y)
    }
}

/// A trivial value three words long.
private struct Triple: Equatable, Sendable {
    var a: Int
    var b: Int
    var product: Int
}
