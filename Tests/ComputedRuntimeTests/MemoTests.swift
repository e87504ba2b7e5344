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
        sumMemo = Memo(version: itemsVersion)
        self.computations = computations
    }

    var items: [Int] {
        get { _items }
        _modify {
            yield &_items
            itemsVersion = .next()
            sumMemo.invalidate(version: itemsVersion)
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

    @Test("init(version:) keeps the given version; init() takes a fresh one")
    func versions() {
        let stamp = VersionStamp.next()
        #expect(Memo<Int>(version: stamp).version == stamp)
        let fresh = Memo<Int>()
        #expect(fresh.version > stamp)
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

    @Test("invalidate resets a uniquely referenced cell in place")
    func invalidateInPlace() {
        var memo = Memo<[Int]>()
        _ = memo.value { [1, 2, 3] }
        let identity = memo._cellIdentity
        let stamp = VersionStamp.next()
        memo.invalidate(version: stamp)
        #expect(memo._cellIdentity == identity)
        #expect(!memo.isCached)
        #expect(memo.version == stamp)
        #expect(memo.value { [4] } == [4])
        #expect(memo._cellIdentity == identity)
    }

    @Test("invalidate replaces a shared cell; the copy keeps its cached value")
    func invalidateShared() {
        var memo = Memo<[Int]>()
        _ = memo.value { [1, 2, 3] }
        let copy = memo
        let identity = memo._cellIdentity
        let oldVersion = memo.version
        let stamp = VersionStamp.next()
        memo.invalidate(version: stamp)
        #expect(memo._cellIdentity != identity)
        #expect(copy._cellIdentity == identity)
        #expect(!memo.isCached)
        #expect(memo.version == stamp)
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
