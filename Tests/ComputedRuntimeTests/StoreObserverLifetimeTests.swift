import ConcurrencyTestSupport
import Foundation
import Observation
import Testing

@testable import ComputedRuntime

/// A hand-written `Equatable` state (its members are observed as the whole state).
private struct Form: Equatable, Sendable {
    var title = ""
    var count = 0
}

/// Observation calls an observer once and forgets it; a store stops checking what nobody can
/// still be observing (after a grace for observers installed late), so its commits get cheap
/// again.
@Suite("Store: what a commit checks once observers were notified")
struct StoreObserverLifetimeTests {
    @Test("after the whole state's observers were notified, its next change disarms it, and commits take the fast path until the next read")
    func wholeStateDisarms() {
        let store = Store(Form()).endLateObserverGraceForTests()
        let fired = Collected(0)
        withObservationTracking { _ = store.state.title } onChange: { fired.withLock { $0 += 1 } }
        #expect(store.isListenedForTests)
        store.commit { $0.count = 1 }
        #expect(fired.value == 1)
        #expect(store.isListenedForTests)  // an observer installed late is told of the next change
        store.commit { $0.count = 2 }
        #expect(!store.isListenedForTests)  // nobody observes any more: no check, no notification
        store.commit { $0.count = 3 }
        // Read again (as a view renders again): observed and notified again.
        withObservationTracking { _ = store.state.title } onChange: { fired.withLock { $0 += 1 } }
        #expect(store.isListenedForTests)
        store.commit { $0.count = 4 }
        #expect(fired.value == 2)
    }

    @Test("a notified member stays checked for a second, then its next change disarms it")
    func graceIsTimed() async throws {
        let store = Store(Form())
        _ = store.count
        store.commit { $0.count = 1 }  // notified: the grace begins
        store.commit { $0.count = 2 }
        #expect(store.isListenedForTests)
        try await Task.sleep(for: ObservationTable.defaultLateObserverGrace + .milliseconds(50))
        store.commit { $0.count = 3 }
        #expect(!store.isListenedForTests)
    }

    @Test("a read outside any observation costs commits nothing once its member changed twice")
    func readOutsideObservation() {
        let store = Store(Form()).endLateObserverGraceForTests()
        _ = store.state
        _ = store.title
        #expect(store.isListenedForTests)
        store.commit { $0.title = "a" }
        store.commit { $0.title = "b" }
        #expect(!store.isListenedForTests)
    }

    @Test("a commit that changes nothing keeps the observers, the next change notifies them")
    func noChangeKeepsObservers() {
        let store = Store(Form())
        let fired = Collected(0)
        withObservationTracking { _ = store.state } onChange: { fired.withLock { $0 += 1 } }
        store.commit { $0.count = 0 }
        #expect(store.isListenedForTests)
        store.commit { $0.count = 1 }
        #expect(fired.value == 1)
    }

    @Test("subscribers keep the slow path whatever Observation does")
    func subscribersKeepListening() {
        let store = Store(Form()).endLateObserverGraceForTests()
        let calls = Collected(0)
        let subscription = store.subscribe { _ in calls.withLock { $0 += 1 } }
        _ = store.state
        store.commit { $0.count = 1 }
        store.commit { $0.count = 2 }
        #expect(store.isListenedForTests)
        #expect(calls.value == 2)
        subscription.cancel()
        #expect(!store.isListenedForTests)
    }

    @Test("observers that track again after each change, while many threads commit, end up reading the last change (run under TSan)")
    func retrackingUnderConcurrentCommits() async {
        let store = Store(Form())
        let wholeState = Retracking { store.state.count }
        let member = Retracking { store.count }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<250 { store.commit { $0.count += 1 } }
                }
            }
        }
        // Every notification ran before its commit returned; wait for the renders it scheduled.
        await wholeState.settled()
        await member.settled()
        #expect(wholeState.newest.value == 1_000)
        #expect(member.newest.value == 1_000)
    }
}

extension Store {
    /// Makes notified members disarm on their next change, not after a second.
    fileprivate func endLateObserverGraceForTests() -> Self {
        rootStorage!.withLock { $0.observation.lateObserverGrace = .zero }
        return self
    }
}

/// Tracks `read` again after each notification, as a view renders again (later, on another
/// thread: tracking again from inside `onChange` while other threads notify can hang inside
/// Observation), keeping the newest value read.
private final class Retracking: Sendable {
    let newest = Collected(-1)
    private let read: @Sendable () -> Int
    private let renders = DispatchGroup()

    init(_ read: @escaping @Sendable () -> Int) {
        self.read = read
        track()
    }

    private func track() {
        let value = withObservationTracking { read() } onChange: { [self] in
            renders.enter()
            DispatchQueue.global().async {
                self.track()
                self.renders.leave()
            }
        }
        newest.withLock { $0 = max($0, value) }
    }

    /// Returns once no render is pending.
    func settled() async {
        await withCheckedContinuation { continuation in
            renders.notify(queue: .global()) { continuation.resume() }
        }
    }
}
