import ConcurrencyTestSupport
import Testing
@testable import ComputedRuntime

/// `Lock` is not `Sendable` to the compiler (ManagedBuffer); wrap it as owners do.
private final class Counter: @unchecked Sendable {
    let lock = Lock()
    var value = 0
}

@Suite("Lock")
struct LockTests {
    @Test("Lock serializes increments from many threads")
    func lockExcludes() {
        let counter = Counter()
        runOnThreads(4) { _ in
            for _ in 0..<10_000 {
                counter.lock.withLock { counter.value += 1 }
            }
        }
        #expect(counter.value == 40_000)
    }

    @Test("LockedState serializes increments from many threads")
    func lockedState() {
        final class Holder: @unchecked Sendable {
            let state = LockedState<Int>.make(0)
        }
        let holder = Holder()
        runOnThreads(4) { _ in
            for _ in 0..<10_000 {
                holder.state.withLock { $0 += 1 }
            }
        }
        #expect(holder.state.withLock { $0 } == 40_000)
    }

    @Test("RecomputationCounter counts atomically and resets")
    func recomputationCounter() {
        let counter = RecomputationCounter()
        #expect(counter.count == 0)
        runOnThreads(4) { _ in
            for _ in 0..<10_000 {
                counter.increment()
            }
        }
        #expect(counter.count == 40_000)
        counter.reset()
        #expect(counter.count == 0)
    }
}
