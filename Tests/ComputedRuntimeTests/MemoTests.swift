import ConcurrencyTestSupport
import Foundation
import Testing
@testable import ComputedRuntime

/// A miniature of what the generator emits: private storage, a `_modify` accessor that stamps and
/// invalidates, and a memo per computed value.
private struct MiniState: Sendable {
    private var _items: [Int]
    private(set) var itemsVersion: VersionStamp
    var sumMemo: Memo<Int>
    let computations: RecomputationCounter

    init(items: [Int], computations: RecomputationCounter = RecomputationCounter()) {
        _items = items
        itemsVersion = .next()
        sumMemo = Memo()
        self.computations = computations
    }

    var items: [Int] {
        get { _items }
        _modify {
            yield &_items
            itemsVersion = .next()
            sumMemo.invalidate()
        }
    }

    var sum: Int {
        sumMemo.value {
            computations.increment()
            return _items.reduce(0, +)
        }
    }
}

@Suite("Memo")
struct MemoTests {
    @Test("computes once, then returns the cached value")
    func computesOnce() {
        let memo = Memo<String>()
        #expect(!memo.isCached)
        #expect(memo.cachedValue == nil)
        var calls = 0
        let first = memo.value {
            calls += 1
            return "a"
        }
        let second = memo.value {
            calls += 1
            return "b"
        }
        #expect(first == "a")
        #expect(second == "a")
        #expect(calls == 1)
        #expect(memo.isCached)
        #expect(memo.cachedValue == "a")
    }

    @Test("the version is taken when a value is computed, and moves with each new value")
    func versions() {
        var memo = Memo<Int>()
        #expect(memo.version == VersionStamp(rawValue: 0))
        _ = memo.value { 1 }
        let first = memo.version
        #expect(first != VersionStamp(rawValue: 0))
        memo.invalidate()
        #expect(memo.version == first)  // stale, not yet recomputed
        _ = memo.value { 1 }  // no recorded inputs: always recomputes, no cutoff
        #expect(memo.version != first)
    }

    @Test("unchanged input versions keep the cached value without computing")
    func verifiedInputs() {
        var memo = Memo<[Int]>()
        let input = VersionStamp.next()
        var calls = 0
        let compute = { () -> [Int] in calls += 1; return [1, 2] }
        _ = memo.value(inputs: { $0.record(input) }, compute: compute)
        let version = memo.version
        memo.invalidate()
        #expect(!memo.isCached)
        #expect(memo.value(inputs: { $0.record(input) }, compute: compute) == [1, 2])
        #expect(calls == 1)
        #expect(memo.version == version)
        #expect(memo.isCached)
    }

    @Test("a recomputed value equal to the cached one keeps the cached instance and version")
    func earlyCutoff() {
        var memo = Memo<[Int]>()
        _ = memo.value(inputs: { $0.record(.next()) }, compute: { [1, 2] })
        let version = memo.version
        let buffer = memo.cachedValue!.withUnsafeBufferPointer { $0.baseAddress }
        memo.invalidate()
        var calls = 0
        let value = memo.value(inputs: { $0.record(.next()) }, compute: { calls += 1; return [1, 2] })
        #expect(calls == 1)
        #expect(value == [1, 2])
        #expect(memo.version == version)
        #expect(memo.cachedValue!.withUnsafeBufferPointer { $0.baseAddress } == buffer)
        // A different value takes a new version.
        memo.invalidate()
        _ = memo.value(inputs: { $0.record(.next()) }, compute: { [3] })
        #expect(memo.version != version)
    }

    @Test("isEqual: nil turns the cutoff off")
    func cutoffOff() {
        var memo = Memo<Int>()
        _ = memo.value(inputs: { $0.record(.next()) }, compute: { 7 }, isEqual: nil)
        let version = memo.version
        memo.invalidate()
        _ = memo.value(inputs: { $0.record(.next()) }, compute: { 7 }, isEqual: nil)
        #expect(memo.version != version)
    }

    @Test("caches optional values, including nil")
    func optionalValues() {
        let memo = Memo<Int?>()
        var calls = 0
        #expect(memo.value { calls += 1; return nil } == nil)
        #expect(memo.value { calls += 1; return 5 } == nil)
        #expect(calls == 1)
        #expect(memo.isCached)
    }

    @Test("invalidate marks a uniquely referenced cell stale in place")
    func invalidateInPlace() {
        var memo = Memo<[Int]>()
        _ = memo.value { [1, 2, 3] }
        let identity = memo._cellIdentity
        memo.invalidate()
        #expect(memo._cellIdentity == identity)
        #expect(!memo.isCached)
        #expect(memo.value { [4] } == [4])
        #expect(memo._cellIdentity == identity)
    }

    @Test("invalidate gives a shared cell's holder a stale copy; the other copy keeps its cached value")
    func invalidateShared() {
        var memo = Memo<[Int]>()
        _ = memo.value { [1, 2, 3] }
        let copy = memo
        let identity = memo._cellIdentity
        let oldVersion = memo.version
        memo.invalidate()
        #expect(memo._cellIdentity != identity)
        #expect(copy._cellIdentity == identity)
        #expect(!memo.isCached)
        #expect(memo.version == oldVersion)  // the stale copy keeps the value and its version
        #expect(copy.isCached)
        #expect(copy.version == oldVersion)
        #expect(copy.value { [9] } == [1, 2, 3])
        #expect(memo.value { [9] } == [9])
    }

    @Test("copies of a state share the cache until one changes an input")
    func sharedByCopies() {
        var state = MiniState(items: [1, 2, 3])
        #expect(state.sum == 6)
        let copy = state
        #expect(copy.sum == 6)
        #expect(state.computations.count == 1)
        state.items.append(4)
        #expect(state.sum == 10)
        #expect(copy.sum == 6)
        #expect(state.computations.count == 2)
    }

    @Test("concurrent first reads from many threads compute exactly once")
    func concurrentFirstReadsThreads() {
        for _ in 0..<5 {
            let memo = Memo<Int>()
            let computations = RecomputationCounter()
            let results = Collected<[Int]>([])
            runOnThreads(8) { index in
                let value = memo.value {
                    computations.increment()
                    usleep(20_000)  // slow: the others arrive while it computes, and wait
                    return 42
                }
                results.withLock { $0.append(value) }
            }
            #expect(computations.count == 1)
            #expect(results.value == Array(repeating: 42, count: 8))
        }
    }

    @Test("concurrent first reads from many tasks compute exactly once")
    func concurrentFirstReadsTasks() async {
        let memo = Memo<[Int]>()
        let computations = RecomputationCounter()
        let values = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<32 {
                group.addTask {
                    memo.value {
                        computations.increment()
                        usleep(10_000)
                        return Array(0..<100)
                    }
                }
            }
            var values: [[Int]] = []
            for await value in group {
                values.append(value)
            }
            return values
        }
        #expect(computations.count == 1)
        #expect(values.count == 32)
        #expect(values.allSatisfy { $0 == Array(0..<100) })
    }

    @Test("concurrent readers and writers on separate copies")
    func readersAndWritersOnCopies() {
        let computations = RecomputationCounter()
        let base = MiniState(items: Array(0..<100), computations: computations)
        let baseSum = (0..<100).reduce(0, +)
        let failures = Collected<[String]>([])
        runOnThreads(8) { index in
            var state = base  // shares the base's memo cell
            for round in 0..<200 {
                if state.sum != state.items.reduce(0, +) {
                    failures.withLock { $0.append("thread \(index) round \(round): stale sum") }
                }
                if base.sum != baseSum {
                    failures.withLock { $0.append("thread \(index) round \(round): base changed") }
                }
                state.items.append(index)
                if round % 3 == 0 {
                    state.items.removeFirst()
                }
            }
        }
        #expect(failures.value.isEmpty)
        #expect(base.sum == baseSum)
        // The base's cell is computed once, shared by all 8 copies in round 0; each copy then
        // recomputes exactly once in each later round (one read after its own writes).
        #expect(computations.count == 1 + 8 * 199)
    }

    @Test("a computed value may read another memo while computing")
    func nestedMemos() {
        let inner = Memo<Int>()
        let outer = Memo<Int>()
        let value = outer.value { inner.value { 20 } + 1 }
        #expect(value == 21)
        #expect(inner.isCached)
    }
}
