import Foundation
import Observation
import Testing

@testable import ComputedRuntime

/// A hand-written `Equatable` state: a commit is a change when the state is `!=` to the one before.
private struct Settings: Equatable, Sendable {
    var theme = "light"
    var fontSize = 14
}

/// A hand-written state that is not `Equatable`: every commit is a change.
private struct Opaque: Sendable {
    var count = 0
}

/// Counts calls from any thread.
private final class Calls: Sendable {
    private let box = LockedBox(0)

    func increment() {
        box.withLock { $0 += 1 }
    }

    var count: Int {
        box.withLock { $0 }
    }
}

@Suite("Store: what a change is for hand-written states")
struct StoreChangeTests {
    @Test("an Equatable state: commits that leave it == notify nobody")
    func equatableState() {
        let store = Store(Settings())
        let calls = Calls()
        let subscription = store.subscribe { _ in calls.increment() }
        let observed = Calls()
        withObservationTracking { _ = store.theme } onChange: { observed.increment() }
        store.commit { _ in }
        store.commit { $0.theme = "light" }
        store.commit { $0.fontSize += 1; $0.fontSize -= 1 }
        #expect(calls.count == 0)
        #expect(observed.count == 0)
        store.commit { $0.fontSize = 20 }
        #expect(calls.count == 1)
        #expect(observed.count == 1)  // a hand-written state's members are tracked as the whole state
        withExtendedLifetime(subscription) {}
    }

    @Test("a state that is neither generated nor Equatable: every commit is a change")
    func opaqueState() {
        let store = Store(Opaque())
        let calls = Calls()
        let subscription = store.subscribe { _ in calls.increment() }
        store.commit { _ in }
        #expect(calls.count == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test("a scope of an Equatable child hears of parent commits that changed the child only")
    func scopedEquatable() {
        let store = Store(Settings())
        let theme = store.scope(\.theme)
        let calls = Calls()
        let subscription = theme.subscribe { _ in calls.increment() }
        store.commit { $0.fontSize = 3 }
        #expect(calls.count == 0)
        theme.commit { $0 = "dark" }
        #expect(calls.count == 1)
        #expect(store.state.theme == "dark")
        #expect(theme.subscriberCount == 1)
        subscription.cancel()
        #expect(theme.subscriberCount == 0)
    }

    @Test("concurrent commits, reads and observers on a store and a scope (run under TSan)")
    func concurrentObservation() async {
        let store = Store(Settings())
        let scope = store.scope(\.fontSize)
        let fired = Calls()
        let delivered = Calls()
        let subscription = scope.subscribe { _ in delivered.increment() }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for step in 0..<250 {
                        if task % 2 == 0 {
                            store.commit { $0.fontSize += 1 }
                        } else {
                            scope.commit { $0 += 1 }
                        }
                        withObservationTracking {
                            _ = step % 2 == 0 ? store.state.theme : String(scope.state)
                        } onChange: {
                            fired.increment()
                        }
                    }
                }
            }
        }
        #expect(store.state.fontSize == 14 + 1_000)
        #expect(delivered.count == 1_000)
        #expect(fired.count > 0)
        withExtendedLifetime(subscription) {}
    }
}
