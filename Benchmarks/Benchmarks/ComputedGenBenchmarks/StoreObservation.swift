// Measure 10: what a commit costs with and without listeners, against a hand-written lock, and how
// many Observation notifications a commit causes in a SwiftUI-like list of rows.
//
// Keep the names in sync with the ROWS table of Benchmarks/report.py.

import BenchModel
import Benchmark
import ComputedRuntime
import Foundation
import Observation

/// The hand-written alternative: a struct behind an `NSLock`, mutated in place.
final class LockedStructBox: @unchecked Sendable {
    private let lock = NSLock()
    private var state: PlainStoreState

    init(_ state: PlainStoreState) {
        self.state = state
    }

    func commit(_ mutation: (inout PlainStoreState) -> Void) {
        lock.lock()
        mutation(&state)
        lock.unlock()
    }
}

/// A flag set from an `onChange` (which may run on any thread).
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// An observer that re-tracks after each notification, as a SwiftUI view renders again.
final class TrackingView: @unchecked Sendable {
    private(set) var renders = 0
    private let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
        render()
    }

    private func render() {
        withObservationTracking(body) { [self] in
            renders += 1
            render()
        }
    }
}

func registerStoreObservationBenchmarks() {
    let items = Array(0..<1_000)

    measure("10 commit: Store, no subscriber or observer", configuration(.mega)) {
        Store(StoreBenchState(count: 0, items: items))
    } _: { benchmark, store in
        for _ in benchmark.scaledIterations {
            store.commit { $0.count &+= 1 }
        }
    }

    // The store's own cost: the same commit on a hand-written state (no stamps, no memo cells).
    measure("10 commit: Store of a hand-written struct, no subscriber or observer", configuration(.mega)) {
        Store(PlainStoreState(count: 0, items: items, c9: 0))
    } _: { benchmark, store in
        for _ in benchmark.scaledIterations {
            store.commit { $0.count &+= 1 }
        }
    }

    // The generated write alone: a stamp and ten memo cells marked stale, no store.
    measure("10 commit: generated state write, no store", configuration(.mega)) {
        StoreBenchState(count: 0, items: items)
    } _: { benchmark, initial in
        var state = initial
        for _ in benchmark.scaledIterations {
            state.count &+= 1
        }
        blackHole(state)
    }

    measure("10 commit: NSLock around a struct", configuration(.mega)) {
        LockedStructBox(PlainStoreState(count: 0, items: items, c9: 0))
    } _: { benchmark, box in
        for _ in benchmark.scaledIterations {
            box.commit { $0.count &+= 1 }
        }
    }

    // Observers of `items` while the commits write `count`: none of them is notified.
    for observers in [0, 10, 1_000] {
        measure("10 commit: \(observers) observers of another member", configuration(.kilo)) {
            let store = Store(StoreBenchState(count: 0, items: items))
            _ = store.items  // the member is known to the store even with no observer
            let views = (0..<observers).map { _ in TrackingView { blackHole(store.items.count) } }
            return (store, views)
        } _: { benchmark, setup in
            let store = setup.0
            for _ in benchmark.scaledIterations {
                store.commit { $0.count &+= 1 }
            }
            precondition(setup.1.allSatisfy { $0.renders == 0 })
        }
    }

    // Observers of `count` were notified by a first commit and nobody read `count` again (a view
    // that is gone, or a read outside any observation): once the store's grace for observers
    // installed late (one second) is over, the next change disarms `count` and the store checks
    // nothing any more.
    measure("10 commit: observers of the changed member notified, none read it again", configuration(.mega)) {
        let store = Store(StoreBenchState(count: 0, items: items))
        let fired = (0..<10).map { _ in
            let fired = LockedFlag()
            withObservationTracking { blackHole(store.count) } onChange: { fired.set() }
            return fired
        }
        store.commit { $0.count &+= 1 }
        precondition(fired.allSatisfy(\.isSet))
        Thread.sleep(forTimeInterval: 1.1)
        store.commit { $0.count &+= 1 }
        return store
    } _: { benchmark, store in
        for _ in benchmark.scaledIterations {
            store.commit { $0.count &+= 1 }
        }
    }

    // 100 rows, each showing one element of `items`; each commit changes one element.
    measure("10 rows: 100 row scopes, commit to one row", configuration(.kilo)) {
        let store = Store(StoreBenchState(count: 0, items: Array(0..<100)))
        let views = (0..<100).map { index in
            let row = store.scope(\.items[index])
            return TrackingView { blackHole(row.state) }
        }
        return (store, views)
    } _: { benchmark, setup in
        let store = setup.0
        let before = setup.1.reduce(0) { $0 + $1.renders }
        for step in benchmark.scaledIterations {
            store.commit { $0.items[step % 100] &+= 1 }
        }
        let renders = setup.1.reduce(0) { $0 + $1.renders } - before
        precondition(renders == benchmark.scaledIterations.count, "one notification per commit")
    }

    // 10^4 rows of an IdentifiedList, each observing its element through a row scope; each
    // commit changes one element. `scope(\.messages, id:)` shares one listener per list and
    // compares the rows of the changed elements; `scope(\.messages[id: id])` compares every row.
    for (name, keyed) in [("10 rows: 10^4 row scopes by id, commit to one row", true), ("10 rows: 10^4 key-path row scopes, commit to one row", false)] {
        measure(name, configuration(.one)) {
            let store = Store(RowBenchState(messages: IdentifiedList((0..<10_000).map { RowBenchMessage(id: $0) })))
            let views = (0..<10_000).map { id in
                let row = keyed ? store.scope(\.messages, id: id) : store.scope(\.messages[id: id])
                return TrackingView { blackHole(row.state) }
            }
            return (store, views)
        } _: { benchmark, setup in
            let store = setup.0
            for step in benchmark.scaledIterations {
                store.commit { $0.messages[id: (step &* 7_919) % 10_000]?.count += 1 }
            }
        }
    }

    // 10^4 sidebar rows, each showing one feed's unread count (a `KeyedTotals` computed value over
    // 50,000 articles); each commit marks one article read or unread. `derived(_:key:)` shares one
    // listener and compares the rows of the keys whose total changed; a key-path derived store
    // (`derived(\.computed.unreadCounts[feed])`) compares its total on every commit.
    for (name, keyed) in [("10 rows: 10^4 feed counts by key, toggle one article", true), ("10 rows: 10^4 key-path feed counts, toggle one article", false)] {
        measure(name, configuration(.one)) {
            let store = Store(BenchFeeds(articles: IdentifiedList(FeedsBaselines.articles(50_000, feeds: 10_000))))
            let views = (0..<10_000).map { feed in
                let row = keyed ? store.derived(\.computed.unreadCounts, key: feed) : store.derived(\.computed.unreadCounts[feed])
                return TrackingView { blackHole(row.value) }
            }
            return (store, views)
        } _: { benchmark, setup in
            let store = setup.0
            let before = setup.1.reduce(0) { $0 + $1.renders }
            for step in benchmark.scaledIterations {
                store.commit { $0.articles[id: (step &* 7_919) % 50_000]?.isRead.toggle() }
            }
            let renders = setup.1.reduce(0) { $0 + $1.renders } - before
            precondition(renders == benchmark.scaledIterations.count, "one row per toggle")
        }
    }

    measure("10 rows: 100 rows reading store.state, commit to one row", configuration(.kilo)) {
        let store = Store(StoreBenchState(count: 0, items: Array(0..<100)))
        let views = (0..<100).map { index in TrackingView { blackHole(store.state.items[index]) } }
        return (store, views)
    } _: { benchmark, setup in
        let store = setup.0
        let before = setup.1.reduce(0) { $0 + $1.renders }
        for step in benchmark.scaledIterations {
            store.commit { $0.items[step % 100] &+= 1 }
        }
        let renders = setup.1.reduce(0) { $0 + $1.renders } - before
        precondition(renders == 100 * benchmark.scaledIterations.count, "every row on every commit")
    }
}

/// Measure 10 in the layout apps have (the target of issue 14 is stated in it): the state and the
/// hand-written `NSLock` baseline in the BenchModel library, the commits here, another module.
/// Same operations as the rows above.
func registerCrossModuleStoreBenchmarks() {
    let items = Array(0..<1_000)

    measure("10 across modules: commit: Store, no subscriber or observer", configuration(.mega)) {
        Store(ModelStoreState(count: 0, items: items))
    } _: { benchmark, store in
        for _ in benchmark.scaledIterations {
            store.commit { $0.count &+= 1 }
        }
    }

    measure(
        "10 across modules: commit: Store of a hand-written struct, no subscriber or observer",
        configuration(.mega)
    ) {
        Store(ModelPlainStoreState(count: 0, items: items, c9: 0))
    } _: { benchmark, store in
        for _ in benchmark.scaledIterations {
            store.commit { $0.count &+= 1 }
        }
    }

    measure("10 across modules: commit: generated state write, no store", configuration(.mega)) {
        ModelStoreState(count: 0, items: items)
    } _: { benchmark, initial in
        var state = initial
        for _ in benchmark.scaledIterations {
            state.count &+= 1
        }
        blackHole(state)
    }

    measure("10 across modules: commit: NSLock around a struct", configuration(.mega)) {
        ModelLockedStoreState(ModelPlainStoreState(count: 0, items: items, c9: 0))
    } _: { benchmark, box in
        for _ in benchmark.scaledIterations {
            box.commit { $0.count &+= 1 }
        }
    }

    for observers in [0, 10, 1_000] {
        measure("10 across modules: commit: \(observers) observers of another member", configuration(.kilo)) {
            let store = Store(ModelStoreState(count: 0, items: items))
            _ = store.items  // the member is known to the store even with no observer
            let views = (0..<observers).map { _ in TrackingView { blackHole(store.items.count) } }
            return (store, views)
        } _: { benchmark, setup in
            let store = setup.0
            for _ in benchmark.scaledIterations {
                store.commit { $0.count &+= 1 }
            }
            precondition(setup.1.allSatisfy { $0.renders == 0 })
        }
    }
}

/// A list row's element for the row-scope rows of measure 10.
struct RowBenchMessage: Identifiable, Equatable, Sendable {
    var id: Int
    var count = 0
}

/// A state holding a list, for the row-scope rows of measure 10.
struct RowBenchState: Equatable, Sendable {
    var messages: IdentifiedList<RowBenchMessage>
}
