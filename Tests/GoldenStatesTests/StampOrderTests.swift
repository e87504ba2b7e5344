import ConcurrencyTestSupport
import Foundation
@testable import ComputedRuntime
@testable import GoldenStates
import Testing

/// Version stamps are unique but ordered only on each thread: a thread hands out stamps from its
/// own block, so a write on a thread holding an earlier block takes a smaller stamp than a write
/// made before it on another thread. A store used to detect a commit's change by the *newest*
/// field stamp, which then stays where it was. These tests place writes as such threads would
/// (`VersionStamp._withTestingBlock`), and once with real threads.
@Suite("Generated states: stamps not ordered across threads", .serialized)
struct StampOrderTests {
    @Test("a commit writing a field with a smaller stamp than another field's is published")
    func smallerStampIsAChange() {
        let base: UInt64 = (1 << 62) + 0x10_0000
        var state = CounterState()
        VersionStamp._withTestingBlock(startingAt: base + 100) { state.count = 1 }
        let store = Store(state)
        let calls = Counter()
        let subscription = store.subscribe { _ in calls.increment() }
        VersionStamp._withTestingBlock(startingAt: base + 50) {
            store.commit { $0.step = 2 }
        }
        #expect(calls.value == 1)
        #expect(fires({ _ = store.step }, after: {
            VersionStamp._withTestingBlock(startingAt: base + 60) { store.commit { $0.step = 3 } }
        }))
        #expect(calls.value == 2)
        withExtendedLifetime(subscription) {}
    }

    @Test("a nested field written with a smaller stamp reaches the root and the scoped store")
    func smallerStampInANestedState() {
        let base: UInt64 = (1 << 62) + 0x20_0000
        let store = Store(Library(shelf: Shelf(books: ["a"])))
        VersionStamp._withTestingBlock(startingAt: base + 100) {
            store.commit { $0.shelf.label = "new" }
        }
        let shelf = store.scope(\.shelf)
        let rootCalls = Counter()
        let shelfCalls = Counter()
        let subscriptions = [
            store.subscribe { _ in rootCalls.increment() },
            shelf.subscribe { _ in shelfCalls.increment() },
        ]
        VersionStamp._withTestingBlock(startingAt: base + 50) {
            store.commit { $0.shelf.books.append("b") }
        }
        #expect(rootCalls.value == 1)
        #expect(shelfCalls.value == 1)
        #expect(shelf.state.books == ["a", "b"])
        withExtendedLifetime(subscriptions) {}
    }

    @Test("with real threads: a commit on a thread holding an earlier block is published")
    func realThreads() {
        let earlier = OnThread()
        let later = OnThread()
        defer {
            earlier.stop()
            later.stop()
        }
        _ = earlier.run { VersionStamp.next() }  // takes its block first
        let store = Store(CounterState())
        let calls = Counter()
        let subscription = store.subscribe { _ in calls.increment() }
        later.run { store.commit { $0.count = 1 } }  // a later block: larger stamps
        #expect(calls.value == 1)
        let (before, after) = earlier.run {
            (CounterState.Selectors.count.version(store.state)!, VersionStamp.next())
        }
        #expect(after.rawValue < before.rawValue, "the earlier thread's stamps are smaller")
        earlier.run { store.commit { $0.step = 5 } }
        #expect(calls.value == 2)
        withExtendedLifetime(subscription) {}
    }
}
