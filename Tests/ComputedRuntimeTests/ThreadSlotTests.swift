import CComputedAtomics
import ConcurrencyTestSupport
import Foundation
import Testing

@testable import ComputedRuntime

/// A root with one versioned input: `value` and the stamp it was written with.
private struct Root: Sendable {
    var value: Int
    var version: VersionStamp

    init(_ value: Int) {
        self.value = value
        version = .next()
    }
}

private let input = StateSelector<Root, Int>(version: { $0.version }) { $0.value }

/// A value whose instances are counted, to prove that the per-thread copies are released.
private final class Tracked: Sendable {
    static let live = LockedBox(0)
    let value: Int

    init(_ value: Int) {
        self.value = value
        Self.live.withLock { $0 += 1 }
    }

    deinit {
        Self.live.withLock { $0 -= 1 }
    }
}

/// The lock-free hits of values that hold references (`String`, arrays, objects): each thread's
/// own copy (`_ThreadSlots`), which these tests race with recomputations on other threads
/// (under ThreadSanitizer in CI, and AddressSanitizer for use after free).
@Suite("Per-thread slots: lock-free hits of any value", .serialized)
struct ThreadSlotTests {
    @Test("a thread's slot is its own until it exits, then another thread's")
    func slotsPassBetweenThreads() {
        let slots = LockedBox<[UInt32]>([])
        for _ in 0..<40 {
            runOnThreads(1) { _ in slots.withLock { $0.append(cg_thread_slot()) } }
        }
        let concurrent = LockedBox<[UInt32]>([])
        runOnThreads(8) { _ in
            let slot = cg_thread_slot()
            concurrent.withLock { $0.append(slot) }
            Thread.sleep(forTimeInterval: 0.01)  // all eight alive at once
        }
        // More sequential threads than slots: exited threads' slots were reused.
        #expect(slots.withLock { $0 }.allSatisfy { $0 < CG_THREAD_SLOTS })
        let taken = concurrent.withLock { $0 }.filter { $0 < CG_THREAD_SLOTS }
        #expect(Set(taken).count == taken.count, "two live threads shared a slot: \(taken)")
    }

    @Test("String results: readers racing recomputations always get the value of the root they pass")
    func stringReadersRaceRecomputations() {
        let describe = createSelector(input) { "value \($0)" }
        let current = LockedBox(Root(0))
        runOnThreads(6) { thread in
            for step in 0..<3_000 {
                if thread == 0, step.isMultiple(of: 3) {
                    current.withLock { $0 = Root(step) }
                }
                let root = current.withLock { $0 }
                let text = describe(root)
                #expect(text == "value \(root.value)")
                #expect(describe.version(root) != nil)
            }
        }
    }

    @Test("array results copied out stay intact while other threads recompute and drop theirs")
    func arrayReadersRaceRecomputations() {
        let numbers = createSelector(input) { value in Array(repeating: value, count: 64) }
        let current = LockedBox(Root(0))
        let kept = LockedBox<[[Int]]>([])
        runOnThreads(4) { thread in
            for step in 0..<2_000 {
                if thread < 2 {
                    current.withLock { $0 = Root(step * 10 + thread) }
                }
                let root = current.withLock { $0 }
                let array = numbers(root)
                #expect(array.count == 64 && array.allSatisfy { $0 == root.value })
                if step.isMultiple(of: 500) { kept.withLock { $0.append(array) } }
            }
        }
        #expect(kept.withLock { $0 }.allSatisfy { $0.count == 64 && Set($0).count == 1 })
    }

    @Test("more threads than slots: the ones without a slot take the locked path, with the same results")
    func moreThreadsThanSlots() {
        let describe = createSelector(input) { "value \($0)" }
        let root = Root(7)
        runOnThreads(Int(CG_THREAD_SLOTS) + 8) { _ in
            for _ in 0..<200 {
                #expect(describe(root) == "value 7")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(describe.recomputations == 1)
    }

    @Test("a hit computes nothing on any thread; a new root recomputes once")
    func hitsComputeNothing() {
        let describe = createSelector(input) { "value \($0)" }
        let root = Root(1)
        runOnThreads(4) { _ in
            for _ in 0..<100 { _ = describe(root) }
        }
        #expect(describe.recomputations == 1)
        _ = describe(Root(2))
        #expect(describe.recomputations == 2)
    }

    @Test("the per-thread copies are released with the selector")
    func copiesAreReleased() {
        let before = Tracked.live.withLock { $0 }
        do {
            let object = createSelector(input) { Tracked($0) }
            runOnThreads(4) { thread in
                for step in 0..<50 {
                    #expect(object(Root(thread * 100 + step)).value == thread * 100 + step)
                }
            }
        }
        // The threads' closures, which hold the selector, are released as the threads exit.
        #expect(waitOnThisThread { Tracked.live.withLock { $0 } == before }, "\(Tracked.live.withLock { $0 } - before) copies left")
    }

    @Test("parameterized selectors: a thread's repeated argument is served lock-free, and never after removeAll or eviction")
    func parameterizedLastArgument() {
        let times = createParameterizedSelector(input, capacity: 2) { (factor: Int, value: Int) in "\(factor * value)" }
        let root = Root(3)
        runOnThreads(4) { thread in
            for step in 0..<500 {
                let factor = (thread + step / 100) % 5
                #expect(times(factor)(root) == "\(factor * 3)")
            }
        }
        let first = times(1)
        #expect(times(1)(root) == "3")
        times.removeAll()
        #expect(times.count == 0)
        let second = times(1)  // a new entry, not the thread's old one
        #expect(first._storage !== second._storage)
        #expect(times.count == 1)
        _ = times(2)
        _ = times(3)  // evicts 1
        #expect(times(1)._storage !== second._storage)
    }
}
