import ComputedRuntime
import Foundation
@testable import GoldenStates
import Testing

/// A computed value over a `@Shared` field is read without a lock (each thread from its own
/// entry): readers on several threads, holding copies of one state, race writes of the shared
/// value through another holder and writes of their own fields. Run under ThreadSanitizer and
/// AddressSanitizer by `.ci/run`.
@Suite("Generated @Shared computed values read on many threads")
struct SharedMemoRaceTests {
    @Test("every read is the value of one write, never older than the last one read, and the last write is read at the end")
    func readersRaceWrites() {
        let session = Shared(value: Session(userName: "0"))
        let state = AppState(title: "A", session: session, settings: Shared(value: Settings()), launchCount: Shared(value: 0))
        let writes = 2_000
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            if worker == 0 {
                for write in 1...writes {
                    session.withLock { $0.userName = "\(write)" }
                }
                return
            }
            var copy = state
            var last = 0
            for round in 0..<10_000 {
                if worker == 1, round % 50 == 0 {
                    copy.title = round % 100 == 0 ? "B" : "A"  // a write of its own: a new cell
                }
                let greeting = copy.computed.greeting
                let parts = greeting.split(separator: ", ")
                guard parts.count == 2, parts[0] == copy.title, let written = Int(parts[1]), written >= last else {
                    failures.increment()
                    continue
                }
                last = written
                if round % 16 == 0, !copy.computed.headline.hasPrefix(copy.title.uppercased() + ", ") {
                    failures.increment()
                }
            }
        }
        #expect(failures.value == 0)
        #expect(state.computed.greeting == "A, \(writes)")
        #expect(state.computed.headline == "A, \(writes)")
    }

    @Test("a thread's entry follows the cell: a reset in place, a recomputation on another thread")
    func entriesFollowTheCell() {
        let session = Shared(value: Session(userName: "ada"))
        var state = AppState(title: "Home", session: session, settings: Shared(value: Settings()), launchCount: Shared(value: 0))
        #expect(state.computed.greeting == "Home, ada")
        #expect(state.computed.greeting == "Home, ada")  // from this thread's entry
        // A write of the state's own field: the unique owner's cell is reset in place, and the
        // entry made before (for the same shared stamps) is out of date.
        state.title = "Away"
        #expect(state.computed.greeting == "Away, ada")

        // Another thread recomputes after a shared write; this thread's entry is out of date.
        let copy = state
        session.withLock { $0.userName = "grace" }
        let other = Thread { _ = copy.computed.greeting }
        other.start()
        while !other.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        #expect(copy.computed.greeting == "Away, grace")
        #expect(state.computed.greeting == "Away, grace")
    }
}

/// A counter several threads increment.
private final class LockedCounter: @unchecked Sendable {
    // Safety: `count` is reached only under `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int {
        lock.withLock { count }
    }
}
