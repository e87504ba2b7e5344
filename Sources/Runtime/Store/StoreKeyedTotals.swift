import CComputedAtomics

extension Store {
    /// A read-only store of one key's total in the ``KeyedTotals`` at `totals`: the unread count
    /// a sidebar row shows for its feed, observed alone.
    ///
    /// ```swift
    /// // computed unreadByFeed: KeyedTotals<Int, Int> {
    /// //     articles.filter { !$0.isRead }.count(by: \.feedID)
    /// // }
    /// ForEach(feeds) { feed in
    ///     FeedRow(feed: feed, unread: store.derived(\.computed.unreadByFeed, key: feed.id))
    /// }
    /// // In `FeedRow`, `unread.value` is the feed's count (`Derived<Int>`).
    /// ```
    ///
    /// A row is told only when its key's total changed (inside `withObservationTracking` or a
    /// SwiftUI body, `unread.value` is tracked alone; ``Derived/subscribe(_:)`` gets the new
    /// total), and a commit costs the rows of the keys it changed, not every row: the rows of one
    /// `KeyedTotals` value share one listener on this store, which reads the value's
    /// ``KeyedTotals/changedKeys`` (O(changes)) and hands the new totals to the rows of those keys
    /// only. When that is not the set of changes since the last commit it saw (the value was
    /// evaluated in full, or from a diverging copy), every row compares its total instead.
    ///
    /// The derived store keeps this store alive, not the reverse; when no row listens any more,
    /// this store stops listening for them.
    ///
    /// - Parameters:
    ///   - totals: a `KeyedTotals` value of the state, typically a computed value
    ///     (`\.computed.unreadByFeed`).
    ///   - key: the key whose total the derived store holds (zero while it has no element).
    public func derived<Key, Total>(
        _ totals: KeyPath<State, KeyedTotals<Key, Total>> & Sendable,
        key: Key
    ) -> Derived<Total> {
        let hub = keyedTotalsHub(for: totals)
        return Derived(initial: currentState[keyPath: totals][key], source: self) { handler in
            hub.add(key: key, handler)
        }
    }

    /// The hub of the derived stores of the totals at `totals`, made on first use and kept with
    /// the store (beside the row scopes' hubs, which are keyed by other key paths).
    func keyedTotalsHub<Key, Total>(
        for totals: KeyPath<State, KeyedTotals<Key, Total>> & Sendable
    ) -> _KeyedTotalsHub<State, Key, Total> {
        rowScopeHubs.withLock { hubs in
            if let hub = hubs[totals] {
                return unsafeDowncast(hub, to: _KeyedTotalsHub<State, Key, Total>.self)
            }
            let hub = _KeyedTotalsHub(parent: self, totals: totals)
            hubs[totals] = hub
            return hub
        }
    }
}

/// The derived stores of one `KeyedTotals` value of a store, by key, and one listener on the
/// store for all of them, which hands each commit to the rows of the keys whose total it changed.
final class _KeyedTotalsHub<Parent: Sendable, Key: Hashable & Sendable, Total: AdditiveArithmetic & Sendable>: @unchecked Sendable {
    // Safety: `totals` is immutable; the rest is reached under `state`'s lock, and the parent is
    // thread-safe (held weakly: the store keeps its hubs).
    let totals: KeyPath<Parent, KeyedTotals<Key, Total>> & Sendable
    private weak var parent: Store<Parent>?

    private struct Row: _HubRow {
        let id: Int
        /// The total this row was last given.
        var total: Total
        let handler: @Sendable (Total) -> Void
    }

    private struct State {
        var rows = _HubRows<Key, Row>()
        /// The identity of the last value handed on; `nil` until the first one.
        var last: UInt64?
        /// Rows compared since the hub was made (for tests: a commit compares the rows of the
        /// keys it changed).
        var comparedRows = 0
    }

    private let state = LockedBox(State())

    init(parent: Store<Parent>, totals: KeyPath<Parent, KeyedTotals<Key, Total>> & Sendable) {
        self.parent = parent
        self.totals = totals
    }

    /// How many rows listen.
    var rowCount: Int {
        state.withLock { $0.rows.count }
    }

    /// How many times a row compared its total with the last one it was given.
    var comparedRows: Int {
        state.withLock { $0.comparedRows }
    }

    /// Adds a row's listener, which first gets the current total, then each new one.
    func add(key: Key, _ handler: @escaping @Sendable (Total) -> Void) -> StoreSubscription {
        guard let parent else { return StoreSubscription {} }
        // The current total is read under the hub's lock: a commit after the read is handed on
        // after the row is in (the parent never holds its lock while handing commits on).
        let (id, current, subscribes) = state.withLock { state -> (Int, Total, Bool) in
            let total = parent.currentState[keyPath: totals][key]
            let row = Row(id: state.rows.makeID(), total: total, handler: handler)
            return (row.id, total, state.rows.insert(row, for: key))
        }
        if subscribes {
            // The first commit handed on is the current state: every row compares (the hub
            // knows no previous value yet), so a commit made meanwhile is not missed.
            let subscription = parent.addListener(includingCurrent: true) { [weak self] parentState in
                guard let self else { return }
                self.parentChanged(parentState[keyPath: self.totals])
            }
            state.withLock { $0.rows.listen(subscription) }?.cancel()
        }
        handler(current)
        return StoreSubscription { [weak self] in
            self?.remove(key: key, id: id)
        }
    }

    private func remove(key: Key, id: Int) {
        state.withLock { state -> StoreSubscription? in
            let subscription = state.rows.remove(id: id, for: key)
            // Nobody listens: the next first row starts from the current state again.
            if state.rows.count == 0 { state.last = nil }
            return subscription
        }?.cancel()
    }

    /// A commit of the parent, in commit order: the rows of the keys whose total it changed
    /// compare their total; those whose total changed are told, after the lock is released.
    private func parentChanged(_ totals: KeyedTotals<Key, Total>) {
        var deliveries: [(handler: @Sendable (Total) -> Void, total: Total, key: Key)] = []
        state.withLock { state in
            guard state.last != totals._token else { return }
            let follows = state.last != nil && totals._previous == state.last
            state.last = totals._token
            let candidates = follows ? totals._changed.array(in: totals._slots) : Array(state.rows.byKey.keys)
            for key in candidates {
                guard let index = state.rows.byKey.index(forKey: key) else { continue }
                let total = totals[key]
                for position in state.rows.byKey.values[index].indices {
                    state.comparedRows += 1
                    guard state.rows.byKey.values[index][position].total != total else { continue }
                    state.rows.byKey.values[index][position].total = total
                    deliveries.append((state.rows.byKey.values[index][position].handler, total, key))
                }
            }
        }
        if _slowPath(cg_change_trace_active()) {
            _traceRowsWoken(Parent.self, list: self.totals, ids: deliveries.map { "\($0.key)" })
        }
        for delivery in deliveries {
            delivery.handler(delivery.total)
        }
    }
}
