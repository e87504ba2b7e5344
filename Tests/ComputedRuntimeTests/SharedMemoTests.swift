import Foundation
import Testing

@testable import ComputedRuntime

@Suite("SharedMemo")
struct SharedMemoTests {
    @Test("recomputes when a shared input's stamp changes, and only then")
    func sharedInputs() {
        let memo = SharedMemo<Int>(version: .next())
        let counter = RecomputationCounter()
        func read(_ key: UInt64, _ value: Int) -> Int {
            memo.value(sharedInputs: { $0.record(VersionStamp(rawValue: key)) }) {
                counter.increment()
                return value
            }
        }
        #expect(read(1, 10) == 10)
        #expect(read(1, 99) == 10)  // same stamp: cached
        #expect(counter.count == 1)
        #expect(read(2, 20) == 20)
        #expect(counter.count == 2)
        #expect(read(2, 99) == 20)
        #expect(counter.count == 2)
    }

    @Test("invalidate drops the value; a copy sharing the cell keeps it")
    func invalidation() {
        var memo = SharedMemo<String>(version: .next())
        let key = VersionStamp(rawValue: 1)
        _ = memo.value(sharedInputs: { $0.record(key) }) { "first" }
        let copy = memo
        memo.invalidate(version: .next())
        #expect(memo.value(sharedInputs: { $0.record(key) }) { "second" } == "second")
        #expect(copy.value(sharedInputs: { $0.record(key) }) { "unused" } == "first")
    }

    @Test("a computed over a Shared value follows writes made through other holders")
    func followsSharedWrites() {
        let shared = Shared(value: 2)
        let memo = SharedMemo<Int>(version: .next())
        func doubled() -> Int {
            memo.value(sharedInputs: { $0.record(shared.version) }) { shared.wrappedValue * 2 }
        }
        #expect(doubled() == 4)
        let otherHolder = shared
        otherHolder.wrappedValue = 5
        #expect(doubled() == 10)
    }

    /// The key used to be the wrapping sum of the shared inputs' stamps, which only works while
    /// stamps grow over time. With per-thread blocks, a write on a thread holding an earlier block
    /// takes a smaller stamp: here `a` moves down by 5 and `b` up by 5, the sum stays, and a
    /// sum key would return the stale value.
    @Test("two shared inputs whose stamps move with an unchanged sum: recomputed")
    func stampsWithAnUnchangedSum() {
        let a = Shared(value: 0)
        let b = Shared(value: 0)
        let memo = SharedMemo<Int>(version: .next())
        let counter = RecomputationCounter()
        func sum() -> Int {
            memo.value(sharedInputs: {
                $0.record(a.version)
                $0.record(b.version)
            }) {
                counter.increment()
                return a.wrappedValue + b.wrappedValue
            }
        }
        let base: UInt64 = (1 << 62) + 0x1000
        VersionStamp._withTestingBlock(startingAt: base + 10) { a.wrappedValue = 1 }
        VersionStamp._withTestingBlock(startingAt: base + 20) { b.wrappedValue = 1 }
        #expect(sum() == 2)
        let before = a.version.rawValue &+ b.version.rawValue
        // `a` written on a thread whose block is earlier, `b` on one whose block is later.
        VersionStamp._withTestingBlock(startingAt: base + 5) { a.wrappedValue = 10 }
        VersionStamp._withTestingBlock(startingAt: base + 25) { b.wrappedValue = 20 }
        #expect(a.version.rawValue &+ b.version.rawValue == before, "the sum of the stamps did not move")
        #expect(sum() == 30)
        #expect(counter.count == 2)
    }

    @Test("a hit takes no lock: it is served while another thread holds the cell's lock")
    func hitTakesNoLock() {
        let memo = SharedMemo<String>(version: .next())
        let key = VersionStamp(rawValue: 1)
        let entryMade = DispatchSemaphore(value: 0)
        let read = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let result = LockedBox<String?>(nil)
        // The reader makes its entry, then reads again while this thread holds the lock.
        Thread {
            _ = memo.value(sharedInputs: { $0.record(key) }) { "value" }
            entryMade.signal()
            read.wait()
            let value = memo.value(sharedInputs: { $0.record(key) }) { "recomputed" }
            result.withLock { $0 = value }
            done.signal()
        }.start()
        entryMade.wait()
        memo._cell.lock.lock()
        read.signal()
        let servedWhileLocked = done.wait(timeout: .now() + 5) == .success
        memo._cell.lock.unlock()
        if !servedWhileLocked { done.wait() }
        #expect(servedWhileLocked, "the hit waited for the cell's lock")
        #expect(result.withLock { $0 } == "value")
    }

    @Test("a String cached over a shared input: readers on several threads race writes and invalidations")
    func racingReaders() {
        let shared = Shared(value: 0)
        var first = SharedMemo<String>(version: .next())
        let copy = first
        first.invalidate(version: .next())  // `copy` keeps the first cell, `memo` has its own
        let memo = first
        let writes = 1_000
        let failures = LockedBox(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for write in 1...writes { shared.wrappedValue = write }
                return
            }
            var own = worker == 1 ? memo : copy
            var last = 0
            for round in 0..<5_000 {
                if worker == 3, round % 64 == 0 { own.invalidate(version: .next()) }
                let text = own.value(sharedInputs: { $0.record(shared.version) }) { "n\(shared.wrappedValue)" }
                guard let number = Int(text.dropFirst()), number >= last else {
                    failures.withLock { $0 += 1 }
                    continue
                }
                last = number
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(memo.value(sharedInputs: { $0.record(shared.version) }) { "n\(shared.wrappedValue)" } == "n\(writes)")
        #expect(copy.value(sharedInputs: { $0.record(shared.version) }) { "n\(shared.wrappedValue)" } == "n\(writes)")
    }
}
