import CComputedAtomics

extension Store {
    /// A child store for the element with `id` in the ``IdentifiedList`` at `list`: a list row's
    /// store, as TCA's `forEach` gives each row one. It reads and commits that element through
    /// this store, and its state is `nil` while the list holds no element with that id.
    ///
    /// ```swift
    /// ForEach(store.state.messages) { message in
    ///     MessageRow(store: store.scope(\.messages, id: message.id))   // Store<Message?>
    /// }
    /// row.commit { $0?.isRead = true }                                 // commits to store's state
    /// ```
    ///
    /// A commit costs the rows of the elements it changed, not every row: the rows of one list
    /// share one listener on this store, which reads the list's change record since the last
    /// commit it saw (O(changes)) and passes the commit on to the rows of those elements only,
    /// each of which is told only when its element really changed (by `==` for an `Equatable`
    /// element, by its stamps for a generated state). When the record cannot tell (the list was
    /// replaced by another value, or more edits were made between two commits than it keeps),
    /// every row compares its element instead. `store.scope(\.messages[id: id])` gives the same
    /// store, but every row then checks its element on every commit.
    ///
    /// Lifetimes are those of ``scope(_:)``: the row keeps this store alive, not the reverse, and
    /// when no row listens any more this store stops listening for them.
    public func scope<Element>(
        _ list: WritableKeyPath<State, IdentifiedList<Element>>,
        id: Element.ID
    ) -> Store<Element?> where Element: Identifiable & Sendable, Element.ID: Sendable {
        Store<Element?>(scope: _RowScopeLink(hub: rowScopeHub(for: list), parent: self, id: id))
    }

    /// The hub of the rows of the list at `list`, made on first use and kept with the store.
    func rowScopeHub<Element>(for list: WritableKeyPath<State, IdentifiedList<Element>>) -> _RowScopeHub<State, Element> {
        rowScopeHubs.withLock { hubs in
            if let hub = hubs[list] {
                return unsafeDowncast(hub, to: _RowScopeHub<State, Element>.self)
            }
            let hub = _RowScopeHub(parent: self, list: list)
            hubs[list] = hub
            return hub
        }
    }
}

/// A row's access to its element through the parent store.
final class _RowScopeLink<Parent: Sendable, Element: Identifiable & Sendable>: _ScopeLinkBase<Element?>, @unchecked Sendable
where Element.ID: Sendable {
    // Safety: immutable after init; the parent store and the hub are thread-safe.
    let hub: _RowScopeHub<Parent, Element>
    /// Kept alive by the row, as a scope keeps its parent.
    let parent: Store<Parent>
    let id: Element.ID

    init(hub: _RowScopeHub<Parent, Element>, parent: Store<Parent>, id: Element.ID) {
        self.hub = hub
        self.parent = parent
        self.id = id
    }

    override func read() -> Element? {
        parent.currentState[keyPath: hub.list][id: id]
    }

    override func commit<Result>(_ mutation: (inout Element?) throws -> Result) rethrows -> Result {
        try parent.commit { try mutation(&$0[keyPath: hub.list][id: id]) }
    }

    override func addListener(
        includingCurrent: Bool,
        detection: ChangeDetection<Element?>,
        _ handler: @escaping @Sendable (Element?) -> Void
    ) -> StoreSubscription {
        hub.add(id: id, includingCurrent: includingCurrent, detection: detection, handler)
    }
}

/// The rows of one list field of a store: the rows' listeners by element id, and one listener on
/// the store for all of them, which hands each commit to the rows of the elements it changed.
final class _RowScopeHub<Parent: Sendable, Element: Identifiable & Sendable>: @unchecked Sendable where Element.ID: Sendable {
    // Safety: `list` is immutable; the rest is reached under `state`'s lock, and the parent is
    // thread-safe (held weakly: the store keeps its hubs).
    let list: WritableKeyPath<Parent, IdentifiedList<Element>>
    private weak var parent: Store<Parent>?

    private struct Row: _HubRow {
        let id: Int
        let detection: ChangeDetection<Element?>
        var tracker = _ChildTracker<Element?>()
        let handler: @Sendable (Element?) -> Void
    }

    private struct State {
        var rows = _HubRows<Element.ID, Row>()
        /// The version of the list the last commit handed on had; `nil` until the first one.
        var lastVersion: ListVersion?
        /// Rows compared since the hub was made (for tests: a commit compares the rows of the
        /// elements it changed).
        var comparedRows = 0
    }

    private let state = LockedBox(State())

    init(parent: Store<Parent>, list: WritableKeyPath<Parent, IdentifiedList<Element>>) {
        self.parent = parent
        self.list = list
    }

    /// How many rows listen.
    var rowCount: Int {
        state.withLock { $0.rows.count }
    }

    /// How many times a row compared its element with the last one it saw.
    var comparedRows: Int {
        state.withLock { $0.comparedRows }
    }

    /// Adds a row's listener; with `includingCurrent`, it first gets the current element.
    func add(
        id: Element.ID,
        includingCurrent: Bool,
        detection: ChangeDetection<Element?>,
        _ handler: @escaping @Sendable (Element?) -> Void
    ) -> StoreSubscription {
        guard let parent else { return StoreSubscription {} }
        // The current element is read under the hub's lock: a commit after the read is handed
        // on after the row is in (the parent never holds its lock while handing commits on).
        let (rowID, current, subscribes) = state.withLock { state -> (Int, Element?, Bool) in
            var element = parent.currentState[keyPath: list][id: id]
            var row = Row(id: state.rows.makeID(), detection: detection, handler: handler)
            _ = row.tracker.observe(&element, detection)
            return (row.id, element, state.rows.insert(row, for: id))
        }
        if subscribes {
            // The first commit handed on is the current state: every row compares (the hub
            // knows no version yet), so a commit made meanwhile is not missed.
            let subscription = parent.addListener(includingCurrent: true) { [weak self] parentState in
                guard let self else { return }
                self.parentChanged(parentState[keyPath: self.list])
            }
            state.withLock { $0.rows.listen(subscription) }?.cancel()
        }
        if includingCurrent {
            handler(current)
        }
        return StoreSubscription { [weak self] in
            self?.remove(id: id, row: rowID)
        }
    }

    private func remove(id: Element.ID, row: Int) {
        state.withLock { state -> StoreSubscription? in
            let subscription = state.rows.remove(id: row, for: id)
            // Nobody listens: the next first row starts from the current state again.
            if state.rows.count == 0 { state.lastVersion = nil }
            return subscription
        }?.cancel()
    }

    /// A commit of the parent, in commit order: the rows of the elements it changed compare
    /// their element; those whose element changed are told, after the lock is released.
    private func parentChanged(_ list: IdentifiedList<Element>) {
        var deliveries: [(handler: @Sendable (Element?) -> Void, element: Element?, id: Element.ID)] = []
        state.withLock { state in
            let version = list.version
            guard state.lastVersion != version else { return }
            let candidates: [Element.ID]
            if let last = state.lastVersion, let changes = list.changes(since: last) {
                candidates = changes.touchedIDs
            } else {
                candidates = Array(state.rows.byKey.keys)
            }
            state.lastVersion = version
            for id in candidates {
                guard let index = state.rows.byKey.index(forKey: id) else { continue }
                var element = list[id: id]
                for position in state.rows.byKey.values[index].indices {
                    state.comparedRows += 1
                    let detection = state.rows.byKey.values[index][position].detection
                    if state.rows.byKey.values[index][position].tracker.observe(&element, detection) == true {
                        deliveries.append((state.rows.byKey.values[index][position].handler, element, id))
                    }
                }
            }
        }
        if _slowPath(cg_change_trace_active()) {
            _traceRowsWoken(Parent.self, list: self.list, ids: deliveries.map { "\($0.id)" })
        }
        for delivery in deliveries {
            delivery.handler(delivery.element)
        }
    }
}

/// What a child store's listener compares each new child with: the token of the last child it saw
/// and, for a generated state, that child's field stamps.
struct _ChildTracker<Child> {
    private var token: ChangeDetection<Child>.Token?
    private var versions = MemoInputs([])

    /// Whether `child` differs from the last child seen, which it replaces; `nil` for the first.
    mutating func observe(_ child: inout Child, _ detection: ChangeDetection<Child>) -> Bool? {
        guard let token else {
            token = detection.token(&child, versions: &versions)
            return nil
        }
        let changed = detection.isChanged(from: token, to: &child, versions: &versions)
        if case .value = token {
            self.token = detection.token(&child, versions: &versions)
        }
        return changed
    }
}
