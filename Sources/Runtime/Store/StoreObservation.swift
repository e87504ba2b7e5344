import Observation

/// The members a store's readers observed, with the version each had when the store last
/// notified (or first read) it.
///
/// Members stay in the table once read through the store (Observation tells nobody when an
/// observer goes away, and dropping a member an observer still relies on would lose its
/// notifications): its size is bounded by the state's members, not by the number of observers.
struct ObservationTable<State: Sendable> {
    struct Member {
        let keyPath: KeyPath<Store<State>, Int>
        /// `nil` until the first read recorded the version it saw.
        var version: VersionStamp?
    }

    var members: [String: Member] = [:]
    var observesWholeState = false
    /// The store's own listener that notifies observers; `nil` until something is observed.
    var listener: StoreSubscription?
}

extension Store {
    /// The key path the registrar knows a member by: one per member name, made once.
    subscript(_observedMember name: String) -> Int { 0 }

    /// Records that the whole state is read: every commit that changes it notifies.
    func trackWholeState() {
        registrar.access(self, keyPath: stateKeyPath)
        observation.withLock { table in
            table.observesWholeState = true
            installObservationListener(&table)
        }
    }

    /// The current state, read for the member named `name` (its path in
    /// ``MemberVersioned/_version(ofMember:)``): registers access to that member alone when the
    /// state's version says which member it is, else to the whole state.
    func observedState(member name: String?) -> State {
        guard let name, detection.versions.witness != nil else { return state }
        let keyPath = observation.withLock { table in
            installObservationListener(&table)
            if let member = table.members[name] { return member.keyPath }
            let keyPath = \Store<State>.[_observedMember: name]
            table.members[name] = ObservationTable.Member(keyPath: keyPath, version: nil)
            return keyPath
        }
        // Access first, then read: a commit between the two notifies (at worst needlessly).
        registrar.access(self, keyPath: keyPath)
        let snapshot = currentState
        guard let version = detection.versions.memberVersion(snapshot, name) else {
            // Not a versioned member after all: observe the whole state.
            return state
        }
        observation.withLock { table in
            if table.members[name]?.version == nil {
                table.members[name]?.version = version
            }
        }
        return snapshot
    }

    /// Starts listening to this store's changes for Observation, once.
    private func installObservationListener(_ table: inout ObservationTable<State>) {
        guard table.listener == nil else { return }
        table.listener = addListener(includingCurrent: false) { [weak self] state in
            self?.notifyObservers(of: state)
        }
    }

    /// Runs after each commit that changed the state, in commit order: notifies the observers of
    /// the whole state and of each member whose version moved. Costs one version check per
    /// observed member, plus the registrar's work for the members that changed.
    private func notifyObservers(of state: State) {
        let versions = detection.versions
        let (wholeState, changed) = observation.withLock { table -> (Bool, [KeyPath<Store<State>, Int>]) in
            var changed: [KeyPath<Store<State>, Int>] = []
            var index = table.members.startIndex
            while index != table.members.endIndex {
                let name = table.members.keys[index]
                let version = versions.memberVersion(state, name)
                if table.members.values[index].version != version || version == nil {
                    table.members.values[index].version = version
                    changed.append(table.members.values[index].keyPath)
                }
                table.members.formIndex(after: &index)
            }
            return (table.observesWholeState, changed)
        }
        if wholeState {
            registrar.willSet(self, keyPath: stateKeyPath)
            registrar.didSet(self, keyPath: stateKeyPath)
        }
        for keyPath in changed {
            registrar.willSet(self, keyPath: keyPath)
            registrar.didSet(self, keyPath: keyPath)
        }
    }
}

/// The members of a value inside a store's state (a generated state's `computed` storage, or a
/// nested generated state), read through the store so that Observation tracks each member
/// alone: `store.computed.visibleCount`, `store.shelf.books`, `store.shelf.computed.total`.
///
/// Made by the store's `computed` property and dynamic member lookup; read `value` for the whole
/// value (a nested state is tracked as that field, a `computed` storage as the whole state).
/// Members of a state nested two levels deep (`store.library.shelf.books`) are tracked as the
/// field they are in (`library.shelf`).
@dynamicMemberLookup
public struct StoreMembers<State: Sendable, Member: _ObservableMembers>: @unchecked Sendable {
    // Safety: `project` only applies immutable key paths to the value it is given.
    let store: Store<State>
    let project: (State) -> Member
    /// The path of `Member`'s owning state among the root state's member names (`""`,
    /// `"shelf."`); `nil` when it has none (then every read is tracked as the whole state).
    let prefix: String?
    /// The member name of the whole value, when it is a nested state.
    let wholeName: String?

    /// The whole value.
    public var value: Member {
        project(store.observedState(member: wholeName))
    }

    /// A member of the value, tracked alone when it is a field or computed value.
    public subscript<Value>(dynamicMember member: KeyPath<Member, Value>) -> Value {
        let name = prefix.flatMap { prefix in Member._observableMembers[member].map { prefix + $0 } }
        return project(store.observedState(member: name))[keyPath: member]
    }
}

extension StoreMembers where Member: _ComputedState {
    /// The nested state's computed values, each observed alone: `store.shelf.computed.total`.
    public var computed: StoreMembers<State, Member.Extended> {
        let project = self.project
        return StoreMembers<State, Member.Extended>(
            store: store,
            project: { project($0).computed },
            prefix: prefix,
            wholeName: nil
        )
    }
}

extension Store where State: _ComputedState {
    /// The state's computed values, each observed alone: inside `withObservationTracking` or a
    /// SwiftUI body, `store.computed.visibleCount` tracks `visibleCount` only, and a commit
    /// notifies it only when the value changed (after cutoff). `store.computed.value` is
    /// `store.state.computed`, tracked as the whole state.
    public var computed: StoreMembers<State, State.Extended> {
        StoreMembers(store: self, project: { $0.computed }, prefix: "", wholeName: nil)
    }
}
