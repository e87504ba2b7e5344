import ConcurrencyTestSupport
import Foundation
import Observation
import Testing

@testable import ComputedRuntime

/// A hand-written `Equatable` child state.
private struct Child: Equatable, Sendable {
    var count = 0
    var label = ""
}

/// A hand-written `Equatable` parent with a child and an unrelated field.
private struct Parent: Equatable, Sendable {
    var child = Child()
    var other = 0
}

extension Store {
    /// Whether the root store's commits take the slow path (somebody listens or observes).
    var isListenedForTests: Bool {
        rootStorage!.withLock { $0.isListened }
    }

    /// Every listener of a root store, internal ones included.
    var listenerCountForTests: Int {
        rootStorage!.withLock { $0.listenerCount }
    }
}

@Suite("Store: scopes")
struct StoreScopeTests {
    // MARK: Lifetime of what is registered through a scope

    @Test("observing through a scope ends with the scope: nothing is kept, the parent's commits are fast again")
    func droppedScopeReleasesItsObservation() {
        let store = Store(Parent())
        let fired = Collected(0)
        weak var released: Store<Child>?
        do {
            let scope = store.scope(\.child)
            released = scope
            withObservationTracking { _ = scope.state.count } onChange: { fired.withLock { $0 += 1 } }
            #expect(store.isListenedForTests)
            #expect(store.listenerCountForTests == 1)
        }
        #expect(released == nil)
        #expect(store.listenerCountForTests == 0)
        #expect(!store.isListenedForTests)
        // The observation made through the dropped scope is over (documented on `scope(_:)`).
        store.commit { $0.child.count = 1 }
        #expect(fired.value == 0)
    }

    @Test("a scope of a scope, observed then dropped, releases both and every listener")
    func droppedScopeOfScope() {
        let store = Store(Parent())
        weak var outer: Store<Child>?
        weak var inner: Store<Int>?
        do {
            let child = store.scope(\.child)
            let count = child.scope(\.count)
            outer = child
            inner = count
            withObservationTracking { _ = count.state } onChange: {}
            withObservationTracking { _ = child.state } onChange: {}
            #expect(store.listenerCountForTests == 2)
        }
        #expect(outer == nil)
        #expect(inner == nil)
        #expect(store.listenerCountForTests == 0)
        #expect(!store.isListenedForTests)
    }

    @Test("a subscription outlives the scope it was made on, until its token goes")
    func subscriptionOutlivesScope() {
        let store = Store(Parent())
        let seen = Collected<[Int]>([])
        weak var released: Store<Child>?
        var subscription: StoreSubscription?
        do {
            let scope = store.scope(\.child)
            released = scope
            subscription = scope.subscribe { child in seen.withLock { $0.append(child.count) } }
        }
        #expect(released == nil)
        store.commit { $0.child.count = 1 }
        store.commit { $0.other = 1 }
        #expect(seen.value == [1])
        subscription = nil
        #expect(store.listenerCountForTests == 0)
        store.commit { $0.child.count = 2 }
        #expect(seen.value == [1])
        withExtendedLifetime(subscription) {}
    }

    // MARK: includingCurrent through scopes

    @Test("a scope delivers its current state once, then each change of the child only")
    func scopeIncludingCurrent() {
        let store = Store(Parent(child: Child(count: 1)))
        let scope = store.scope(\.child)
        let seen = Collected<[Int]>([])
        let subscription = scope.subscribe(includingCurrent: true) { child in
            seen.withLock { $0.append(child.count) }
        }
        #expect(seen.value == [1])
        store.commit { $0.other = 5 }
        store.commit { _ in }
        #expect(seen.value == [1])
        scope.commit { $0.count = 2 }
        #expect(seen.value == [1, 2])
        withExtendedLifetime(subscription) {}
    }

    @Test("including current through a scope that is already observed, and through a scope of a scope")
    func scopeIncludingCurrentAfterObservation() {
        let store = Store(Parent(child: Child(count: 1)))
        let scope = store.scope(\.child)
        withObservationTracking { _ = scope.state } onChange: {}
        let count = scope.scope(\.count)
        withObservationTracking { _ = count.state } onChange: {}
        let seen = Collected<[String]>([])
        let first = scope.subscribe(includingCurrent: true) { child in seen.withLock { $0.append("child \(child.count)") } }
        let second = count.subscribe(includingCurrent: true) { value in seen.withLock { $0.append("count \(value)") } }
        #expect(seen.value == ["child 1", "count 1"])
        store.commit { $0.child.count = 2 }
        #expect(seen.value == ["child 1", "count 1", "child 2", "count 2"])
        store.commit { $0.child.label = "x" }
        #expect(seen.value == ["child 1", "count 1", "child 2", "count 2", "child 2"])
        withExtendedLifetime((first, second)) {}
    }

    @Test("subscribing to a scope from inside a subscriber delivers the current state once, after the current delivery")
    func scopeIncludingCurrentFromHandler() {
        let store = Store(Parent())
        let scope = store.scope(\.child)
        let seen = Collected<[String]>([])
        let inner = Collected<[StoreSubscription]>([])
        let outer = store.subscribe { parent in
            seen.withLock { $0.append("parent \(parent.child.count)") }
            guard parent.child.count == 1 else { return }
            let subscription = scope.subscribe(includingCurrent: true) { child in
                seen.withLock { $0.append("child \(child.count)") }
            }
            inner.withLock { $0.append(subscription) }
        }
        store.commit { $0.child.count = 1 }
        #expect(seen.value == ["parent 1", "child 1"])
        store.commit { $0.child.count = 2 }
        #expect(seen.value == ["parent 1", "child 1", "parent 2", "child 2"])
        withExtendedLifetime((outer, inner)) {}
    }

    @Test("a scope's states stream starts with the current state, once")
    func scopeStates() async {
        let store = Store(Parent(child: Child(count: 3)))
        let scope = store.scope(\.child)
        var states = scope.states.makeAsyncIterator()
        #expect(await states.next()?.count == 3)
        scope.commit { $0.count = 4 }
        #expect(await states.next()?.count == 4)
        store.commit { $0.other = 1 }
        scope.commit { $0.count = 5 }
        #expect(await states.next()?.count == 5)
    }

    @Test("subscribing to a scope including current while other threads commit: no value twice, none missed")
    func scopeIncludingCurrentUnderConcurrentCommits() {
        let store = Store(Parent())
        let scope = store.scope(\.child)
        let seen = Collected<[[Int]]>(Array(repeating: [], count: 4))
        let subscriptions = Collected<[StoreSubscription]>([])
        runOnThreads(4) { index in
            if index == 0 {
                for step in 0..<500 {
                    store.commit { $0.child.count += 1 }
                    store.commit { $0.other = step }  // not a change of the child
                }
            } else {
                let subscription = scope.subscribe(includingCurrent: true) { child in
                    seen.withLock { $0[index].append(child.count) }
                }
                subscriptions.withLock { $0.append(subscription) }
            }
        }
        for index in 1..<4 {
            let values = seen.value[index]
            #expect(values == Array((values.first ?? 0)...500))
        }
        withExtendedLifetime(subscriptions) {}
    }
}
