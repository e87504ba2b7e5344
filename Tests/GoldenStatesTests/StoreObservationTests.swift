import Foundation
import GoldenStates
import Observation
import Testing

@testable import ComputedRuntime

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// Tracks what `read` reads, and counts the `onChange` calls, re-tracking after each one as a
/// SwiftUI view does when it renders again.
final class Observer: @unchecked Sendable {
    let changes = Counter()
    private let read: @Sendable () -> Void

    init(_ read: @escaping @Sendable () -> Void) {
        self.read = read
        track()
    }

    private func track() {
        withObservationTracking { read() } onChange: { [self] in
            changes.increment()
            // Re-track after the notification, as a view body evaluated again would.
            DispatchQueue.global().async { self.track() }
        }
    }

    var count: Int { changes.value }
}

/// Observes once (no re-tracking): counts whether the first change after reading fired.
func fires(_ read: () -> Void, after commit: () -> Void) -> Bool {
    let counter = Counter()
    withObservationTracking { read() } onChange: { counter.increment() }
    commit()
    return counter.value == 1
}

@Suite("Store: change propagation and fine-grained Observation")
struct StoreObservationTests {
    @Test("a commit that changes nothing calls no subscriber and yields no element")
    func noChangeNoNotification() async {
        let store = Store(CutoffState(items: [1, 2]))
        let calls = Counter()
        let subscription = store.subscribe { _ in calls.increment() }
        store.commit { _ in }                            // empty
        store.commit { $0.threshold = $0.threshold }     // equal assignment
        store.commit { _ = $0.computed.filteredCount }   // read-only, computes a value
        #expect(calls.value == 0)
        store.commit { $0.threshold = 1 }
        #expect(calls.value == 1)

        var states = store.states.makeAsyncIterator()
        #expect(await states.next()?.threshold == 1)
        store.commit { _ in }
        store.commit { $0.name = "" }
        store.commit { $0.name = "x" }
        #expect(await states.next()?.name == "x")  // the empty commits yielded nothing
        withExtendedLifetime(subscription) {}
    }

    @Test("reading store.state tracks the whole state, but an empty commit does not notify it")
    func wholeState() {
        let store = Store(CutoffState())
        #expect(!fires({ _ = store.state.name }, after: { store.commit { _ in } }))
        #expect(!fires({ _ = store.state }, after: { store.commit { $0.name = "" } }))
        #expect(fires({ _ = store.state.name }, after: { store.commit { $0.threshold = 3 } }))
    }

    @Test("a field observer is not notified by a commit to another field")
    func unrelatedField() {
        let store = Store(CutoffState())
        #expect(!fires({ _ = store.items }, after: { store.commit { $0.name = "renamed" } }))
        #expect(!fires({ _ = store.items }, after: { store.commit { $0.threshold = 9 } }))
        #expect(fires({ _ = store.items }, after: { store.commit { $0.items.append(1) } }))
    }

    @Test("assigning an equal value notifies no observer of the field")
    func sameValue() {
        let store = Store(CutoffState(name: "a"))
        #expect(!fires({ _ = store.name }, after: { store.commit { $0.name = "a" } }))
        #expect(fires({ _ = store.name }, after: { store.commit { $0.name = "b" } }))
    }

    @Test("a computed value recomputed to an equal value notifies nobody (cutoff)")
    func cutoff() {
        let store = Store(CutoffState(items: [500]))
        let read = { _ = store.computed.filteredCount }
        // 100 is under the threshold: filteredArray is recomputed to an equal array.
        #expect(!fires(read, after: { store.commit { $0.items.append(100) } }))
        #expect(!fires(read, after: { store.commit { $0.name = "unrelated" } }))
        #expect(fires(read, after: { store.commit { $0.items.append(900) } }))
        #expect(store.computed.filteredCount == 2)
    }

    @Test("members of a nested state are observed one by one")
    func nestedMember() {
        let store = Store(Library(shelf: Shelf(books: ["a"], label: "l")))
        #expect(!fires({ _ = store.shelf.books }, after: { store.commit { $0.shelf.label = "m" } }))
        #expect(!fires({ _ = store.shelf.books }, after: { store.commit { $0.name = "n" } }))
        #expect(fires({ _ = store.shelf.books }, after: { store.commit { $0.shelf.books.append("b") } }))
        #expect(!fires({ _ = store.shelf.computed.total }, after: { store.commit { $0.shelf.label = "o" } }))
        #expect(!fires({ _ = store.computed.doubled }, after: { store.commit { $0.shelf.label = "p" } }))
        #expect(fires({ _ = store.computed.doubled }, after: { store.commit { $0.shelf.books = [] } }))
        #expect(fires({ _ = store.shelf.value }, after: { store.commit { $0.shelf.label = "q" } }))
        #expect(store.shelf.books.isEmpty)
        #expect(store.shelf.value.label == "q")
    }

    @Test("a view of one computed value is not notified when a todo is renamed")
    func todoRename() {
        let store = Store(TodoState(todos: [Todo(title: "milk"), Todo(title: "eggs")]))
        #expect(!fires({ _ = store.computed.visibleCount }, after: { store.commit { $0.todos[0].title = "oat milk" } }))
        #expect(fires({ _ = store.computed.visibleTodos }, after: { store.commit { $0.todos[1].title = "ham" } }))
    }

    @Test("a scoped store reads and commits through its parent, and observes the child only")
    func scoped() {
        let store = Store(Library(shelf: Shelf(books: ["a"])))
        let shelf = store.scope(\.shelf)
        let calls = Counter()
        let subscription = shelf.subscribe { _ in calls.increment() }
        store.commit { $0.name = "unrelated" }
        shelf.commit { _ in }
        #expect(calls.value == 0)
        shelf.commit { $0.books.append("b") }
        #expect(calls.value == 1)
        #expect(store.state.shelf.books == ["a", "b"])  // one source of truth
        #expect(!fires({ _ = shelf.books }, after: { shelf.commit { $0.label = "x" } }))
        #expect(!fires({ _ = shelf.books }, after: { store.commit { $0.name = "y" } }))
        #expect(fires({ _ = shelf.books }, after: { store.commit { $0.shelf.books = [] } }))
        #expect(fires({ _ = shelf.state }, after: { store.commit { $0.shelf.label = "z" } }))
        #expect(!fires({ _ = shelf.state }, after: { store.commit { $0.name = "w" } }))
        #expect(shelf.computed.total == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test("scoping a scope works")
    func scopeOfScope() async {
        let store = Store(Building())
        let shelf = store.scope(\.library).scope(\.shelf)
        let calls = Counter()
        let subscription = shelf.subscribe { _ in calls.increment() }
        store.commit { $0.library.name = "x" }
        #expect(calls.value == 0)
        shelf.commit { $0.books = ["a"] }
        #expect(calls.value == 1)
        #expect(store.state.library.shelf.books == ["a"])
        #expect(store.computed.deepTotal == 2)
        var values = shelf.select(Shelf.Selectors.total).makeAsyncIterator()
        #expect(await values.next() == 1)
        shelf.commit { $0.books.append("b") }
        #expect(await values.next() == 2)
        withExtendedLifetime(subscription) {}
    }

    @Test("concurrent commits with observers deliver every change and lose no update")
    func concurrentObservers() async {
        let store = Store(CutoffState())
        let items = Observer { _ = store.items }
        let name = Observer { _ = store.name }
        let count = Observer { _ = store.computed.filteredCount }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for step in 0..<200 {
                        store.commit { $0.items.append(task * 1_000 + step) }
                        _ = store.computed.filteredCount
                        _ = store.items.count
                    }
                }
            }
        }
        #expect(store.items.count == 800)
        #expect(items.count >= 1)
        #expect(count.count >= 1)
        #expect(name.count == 0)
    }

    @Test("a list of 100 rows, each a scope of one element: a commit to one row notifies one row")
    func rows() {
        let store = Store(CutoffState(items: Array(0..<100)))
        let counters = (0..<100).map { _ in Counter() }
        // Each row view holds its scoped store, as a SwiftUI row view's property would.
        let rows = (0..<100).map { store.scope(\.items[$0]) }
        for index in 0..<100 {
            withObservationTracking { _ = rows[index].state } onChange: { counters[index].increment() }
        }
        store.commit { $0.items[42] += 1000 }
        #expect(counters.map(\.value).reduce(0, +) == 1)
        #expect(counters[42].value == 1)
        store.commit { $0.name = "unrelated" }
        #expect(counters.map(\.value).reduce(0, +) == 1)

        // Rows reading the whole state: every row on every changing commit.
        let whole = Counter()
        for index in 0..<100 {
            withObservationTracking { _ = store.state.items[index] } onChange: { whole.increment() }
        }
        store.commit { $0.items[7] += 1 }
        #expect(whole.value == 100)
        withExtendedLifetime(rows) {}
    }
}

extension Store {
    /// Whether the root store's commits take the slow path (somebody listens or observes).
    fileprivate var isListenedForTests: Bool {
        rootStorage!.withLock { $0.isListened }
    }

    /// Makes notified members disarm on their next change, not after a second.
    fileprivate func endLateObserverGraceForTests() -> Self {
        rootStorage!.withLock { $0.observation.lateObserverGrace = .zero }
        return self
    }
}

@Suite("Store: members nobody observes any more cost commits nothing")
struct StoreObservationDisarmingTests {
    @Test("after a member's observers were notified, its next change disarms it, and commits take the fast path until it is read again")
    func memberDisarms() {
        let store = Store(CutoffState()).endLateObserverGraceForTests()
        #expect(fires({ _ = store.items }, after: { store.commit { $0.items.append(1) } }))
        #expect(store.isListenedForTests)  // an observer installed late is told of the next change
        store.commit { $0.items.append(2) }
        #expect(!store.isListenedForTests)
        store.commit { $0.items.append(3) }
        // Read again: observed again, and the other members read meanwhile do not fire it.
        let counter = Counter()
        withObservationTracking { _ = store.items } onChange: { counter.increment() }
        #expect(store.isListenedForTests)
        store.commit { $0.name = "x" }
        #expect(counter.value == 0)
        #expect(store.isListenedForTests)  // `items` is still observed
        store.commit { $0.items.append(4) }
        #expect(counter.value == 1)
        store.commit { $0.items.append(5) }
        #expect(counter.value == 1)  // Observation forgot the observer once it was told
        #expect(!store.isListenedForTests)
    }

    @Test("a computed value's observers, notified after cutoff, are checked until then")
    func computedDisarmsOnlyWhenChanged() {
        let store = Store(CutoffState(items: [500])).endLateObserverGraceForTests()
        let counter = Counter()
        withObservationTracking { _ = store.computed.filteredCount } onChange: { counter.increment() }
        store.commit { $0.items.append(100) }  // recomputed to an equal count: still observed
        #expect(counter.value == 0)
        #expect(store.isListenedForTests)
        store.commit { $0.items.append(900) }
        #expect(counter.value == 1)
        store.commit { $0.items.append(50) }  // an equal count again: still in its grace
        #expect(store.isListenedForTests)
        store.commit { $0.items.append(901) }
        #expect(!store.isListenedForTests)
    }

    @Test("an observer installed after a commit it missed is told of the next change, as an @Observable class's is")
    func lateInstalledObserver() {
        // `withObservationTracking` installs the observer after `apply` returns: a commit from
        // another thread can land between the read and the install, as the one inside `apply`.
        let store = Store(CutoffState())
        let counter = Counter()
        let seen = withObservationTracking {
            let seen = store.items
            store.commit { $0.items.append(1) }  // notifies nobody: nothing is installed yet
            return seen
        } onChange: { counter.increment() }
        #expect(seen == [])
        #expect(counter.value == 0)
        store.commit { $0.items.append(2) }
        #expect(counter.value == 1)
    }

    @Test("an observer installed after several commits it missed, within the grace, is told of the next change")
    func lateInstalledObserverAfterSeveralCommits() {
        let store = Store(CutoffState())
        let counter = Counter()
        withObservationTracking {
            _ = store.items
            for value in 1...3 { store.commit { $0.items.append(value) } }
        } onChange: { counter.increment() }
        store.commit { $0.items.append(4) }
        #expect(counter.value == 1)
    }

    @Test("the whole state's observer installed after a commit it missed is told of the next change")
    func lateInstalledWholeStateObserver() {
        let store = Store(CutoffState())
        let counter = Counter()
        withObservationTracking {
            _ = store.state
            store.commit { $0.name = "a" }
        } onChange: { counter.increment() }
        store.commit { $0.name = "b" }
        #expect(counter.value == 1)
    }

    @Test("a read of a member in its grace starts the grace again: its reader may be installing")
    func readRestartsGrace() {
        let store = Store(CutoffState()).endLateObserverGraceForTests()
        let first = Counter()
        withObservationTracking { _ = store.items } onChange: { first.increment() }
        store.commit { $0.items.append(1) }  // notified: in its grace
        let late = Counter()
        withObservationTracking {
            _ = store.items  // read again in the grace
            store.commit { $0.items.append(2) }  // would have ended the grace
        } onChange: { late.increment() }
        store.commit { $0.items.append(3) }
        #expect(first.value == 1)
        #expect(late.value == 1)
    }

    @Test("through a scope, an observer notified once is not notified again without a read")
    func scopedMemberDisarms() {
        let store = Store(Library(shelf: Shelf(books: ["a"])))
        let shelf = store.scope(\.shelf)
        let counter = Counter()
        withObservationTracking { _ = shelf.books } onChange: { counter.increment() }
        shelf.commit { $0.books.append("b") }
        shelf.commit { $0.books.append("c") }
        #expect(counter.value == 1)
        withObservationTracking { _ = shelf.books } onChange: { counter.increment() }
        shelf.commit { $0.label = "x" }
        #expect(counter.value == 1)
        shelf.commit { $0.books = [] }
        #expect(counter.value == 2)
    }
}
