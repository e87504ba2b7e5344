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
    /// For a scoped store, its listener of the parent's changes; `nil` until something is observed.
    var listener: StoreSubscription?

    /// Whether anything was observed (then commits must check what changed).
    var isActive: Bool {
        observesWholeState || !members.isEmpty
    }

    /// The registrar's key path for the member `name`, made on its first read.
    mutating func keyPath(for name: String) -> KeyPath<Store<State>, Int> {
        if let member = members[name] { return member.keyPath }
        let keyPath = \Store<State>.[_observedMember: name]
        members[name] = Member(keyPath: keyPath, version: nil)
        return keyPath
    }

    /// Records the version a reader saw, unless the table already holds one (which the next
    /// commit compares with, notifying at worst needlessly).
    mutating func record(_ name: String, version: VersionStamp) {
        if members[name]?.version == nil {
            members[name]?.version = version
        }
    }

    /// After a commit that changed `state`: the key paths of the observed members whose version
    /// moved (or was never recorded), now recorded. One version check per observed member.
    mutating func changedMembers(
        in state: inout State,
        versions: _MemberVersions<State>
    ) -> [KeyPath<Store<State>, Int>] {
        var changed: [KeyPath<Store<State>, Int>] = []
        var index = members.startIndex
        while index != members.endIndex {
            let version = versions.memberVersion(&state, members.keys[index])
            if version == nil || members.values[index].version != version {
                members.values[index].version = version
                changed.append(members.values[index].keyPath)
            }
            members.formIndex(after: &index)
        }
        return changed
    }
}

/// What a commit tells Observation: the whole state's observers and those of changed members.
struct ObservationChanges<State: Sendable> {
    var wholeState = false
    var members: [KeyPath<Store<State>, Int>] = []
}

extension Store {
    /// The key path the registrar knows a member by: one per member name, made once.
    subscript(_observedMember name: String) -> Int { 0 }

    /// Records that the whole state is read: every commit that changes it notifies.
    func trackWholeState() {
        registrar.access(self, keyPath: stateKeyPath)
        if let root = rootStorage {
            root.withLock { root in
                root.observation.observesWholeState = true
                root.updateIsListened()
            }
            return
        }
        observation.withLock { table in
            table.observesWholeState = true
        }
        installScopeObservation()
    }

    /// The current state, read for the member named `name` (its path in
    /// ``MemberVersioned/_version(ofMember:)``): registers access to that member alone when the
    /// state's version says which member it is, else to the whole state.
    func observedState(member name: String?) -> State {
        guard let name, detection.versions.witness != nil else { return state }
        let versions = detection.versions
        if let root = rootStorage {
            let keyPath = root.withLock { root in
                defer { root.updateIsListened() }
                return root.observation.keyPath(for: name)
            }
            // Access first, then read: a commit between the two notifies (at worst needlessly).
            registrar.access(self, keyPath: keyPath)
            let snapshot = root.withLock { root -> State? in
                guard let version = versions.memberVersion(&root.state, name) else { return nil }
                root.observation.record(name, version: version)
                return root.state
            }
            // Not a versioned member after all: observe the whole state.
            return snapshot ?? state
        }
        let keyPath = observation.withLock { $0.keyPath(for: name) }
        installScopeObservation()
        registrar.access(self, keyPath: keyPath)
        var snapshot = currentState
        guard let version = versions.memberVersion(&snapshot, name) else { return state }
        observation.withLock { $0.record(name, version: version) }
        return snapshot
    }

    /// Notifies the registrar of what a commit changed (never under a lock of the store).
    func notifyObservers(_ changes: ObservationChanges<State>) {
        if changes.wholeState {
            registrar.willSet(self, keyPath: stateKeyPath)
            registrar.didSet(self, keyPath: stateKeyPath)
        }
        for keyPath in changes.members {
            registrar.willSet(self, keyPath: keyPath)
            registrar.didSet(self, keyPath: keyPath)
        }
    }

    /// For a scoped store: starts listening to the parent's changes for Observation, once.
    private func installScopeObservation() {
        let isInstalled = observation.withLock { $0.listener != nil }
        guard !isInstalled else { return }
        // Subscribed outside the table's lock: subscribing may deliver other listeners' values.
        let listener = addListener(includingCurrent: false) { [weak self] state in
            self?.scopeDidChange(state)
        }
        observation.withLock { table in
            if table.listener == nil { table.listener = listener }
        }
    }

    /// For a scoped store, after each parent commit that changed the child, in commit order.
    private func scopeDidChange(_ state: State) {
        var state = state
        let versions = detection.versions
        let changes = observation.withLock { table in
            ObservationChanges(
                wholeState: table.observesWholeState,
                members: table.changedMembers(in: &state, versions: versions)
            )
        }
        notifyObservers(changes)
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
