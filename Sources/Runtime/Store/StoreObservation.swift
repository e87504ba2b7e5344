import CComputedAtomics
import Observation

/// The members read through a store, for fine-grained Observation, and which of them somebody
/// may still observe.
///
/// A member is *armed* from a read through the store until nobody can still be observing it:
/// Observation calls an observer's `onChange` once and then forgets it, so after the
/// notification nobody observes the member until it is read again (a SwiftUI view reads it again
/// when it renders). A commit checks armed members only, and with nothing armed and nobody
/// subscribed a root store's commits take the fast path again. Reads outside any observation
/// (Observation does not tell them apart) arm members too.
///
/// A notification does not disarm at once. `withObservationTracking` installs its observer only
/// after its `apply` closure returned, so a commit on another thread between the read and the
/// install notifies nobody, and the observer, installed afterwards, holds a value that is already
/// stale: Observation's own registrar misses that change too, but tells the observer of the
/// next one. To tell it as well, a notified member stays armed for ``lateObserverGrace``, and
/// is disarmed by its first change after that, which it also notifies: an observer installed up to
/// that long after the read is told of the next change, as with an `@Observable` class.
///
/// Not generic: unspecialized code (a commit with observers) would otherwise look up the
/// metadata of the table, its members and their dictionary on every commit.
struct ObservationTable {
    struct Member {
        /// The registrar's key path for the member, a `KeyPath<Store<State>, Int>`.
        let keyPath: AnyKeyPath
        /// The version a reader saw, recorded when the member was armed, or the version of the
        /// last notification; `nil` while disarmed.
        var version: VersionStamp?
        /// Set by the first notification since the last read: the member is disarmed by its
        /// first change from then on.
        var graceEnd: ContinuousClock.Instant?
    }

    /// How long a member stays armed after a notification, for an observer whose install
    /// (after its read) came after that notification.
    static let defaultLateObserverGrace = Duration.seconds(1)

    /// Every member read through the store, by name (at most the state's members).
    var members: [String: Member] = [:]
    /// The number of armed members.
    private(set) var armedCount = 0
    /// Whether the whole state is armed: read since it was disarmed (then every change notifies).
    private(set) var observesWholeState = false
    /// For the whole state, as ``Member/graceEnd`` for a member.
    private var wholeStateGraceEnd: ContinuousClock.Instant?
    /// How long a notified member stays armed (shortened by tests).
    var lateObserverGrace = ObservationTable.defaultLateObserverGrace
    /// For a scoped store, its listener of the parent's changes; `nil` until something is observed.
    var listener: StoreSubscription?

    /// Whether a commit that changed the state must tell Observation.
    var isActive: Bool {
        observesWholeState || armedCount > 0
    }

    /// The registrar's key path for the member `name` of a `Store<State>`, made on its first read.
    mutating func keyPath<State: Sendable>(
        for name: String,
        in _: Store<State>.Type
    ) -> KeyPath<Store<State>, Int> {
        if let member = members[name] { return unsafeDowncast(member.keyPath, to: KeyPath<Store<State>, Int>.self) }
        let keyPath = \Store<State>.[_observedMember: name]
        members[name] = Member(keyPath: keyPath, version: nil, graceEnd: nil)
        return keyPath
    }

    /// Arms the member `name` (made by ``keyPath(for:in:)``) after a reader registered its
    /// access and saw `version`. An armed member keeps the version recorded first, which the next
    /// commit compares with (notifying at worst needlessly); a read ends its grace, as the
    /// reader's observer may not be installed yet.
    mutating func record(_ name: String, version: VersionStamp) {
        guard let index = members.index(forKey: name) else { return }
        members.values[index].graceEnd = nil
        guard members.values[index].version == nil else { return }
        members.values[index].version = version
        armedCount += 1
    }

    /// Arms the whole state after a reader registered its access to it.
    mutating func recordWholeState() {
        observesWholeState = true
        wholeStateGraceEnd = nil
    }

    /// After a notification: whether it disarms (the grace began earlier and is over), else
    /// begins the grace if it has not begun.
    private func endsGrace(_ graceEnd: inout ContinuousClock.Instant?, now: inout ContinuousClock.Instant?) -> Bool {
        let instant = now ?? ContinuousClock.now  // read once per commit, when something changed
        now = instant
        guard let end = graceEnd else {
            graceEnd = instant + lateObserverGrace
            return false
        }
        guard instant >= end else { return false }
        graceEnd = nil
        return true
    }

    /// After a commit that changed the state: the key paths of the armed members whose
    /// version moved (`version(name)`, `nil` for a member that is not versioned after all), each
    /// in its grace or, once that is over, disarmed. One version check per armed member; nothing
    /// when none is armed.
    private mutating func changedMembers(
        _ version: (String) -> VersionStamp?,
        now: inout ContinuousClock.Instant?
    ) -> [AnyKeyPath] {
        guard armedCount > 0 else { return [] }
        var changed: [AnyKeyPath] = []
        var index = members.startIndex
        while index != members.endIndex {
            if let recorded = members.values[index].version {
                let current = version(members.keys[index])
                if current != recorded {
                    changed.append(members.values[index].keyPath)
                    if current == nil || endsGrace(&members.values[index].graceEnd, now: &now) {
                        members.values[index].version = nil
                        members.values[index].graceEnd = nil
                        armedCount -= 1
                    } else {
                        members.values[index].version = current
                    }
                }
            }
            members.formIndex(after: &index)
        }
        return changed
    }

    /// After a commit that changed the state: what to tell Observation, with everything notified
    /// in its grace or disarmed.
    mutating func changes(_ version: (String) -> VersionStamp?) -> ObservationChanges {
        guard isActive else { return ObservationChanges() }
        var now: ContinuousClock.Instant?
        let wholeState = observesWholeState
        if wholeState, endsGrace(&wholeStateGraceEnd, now: &now) { observesWholeState = false }
        return ObservationChanges(wholeState: wholeState, members: changedMembers(version, now: &now))
    }
}

/// What a commit tells Observation: the whole state's observers and those of changed members.
struct ObservationChanges {
    var wholeState = false
    /// `KeyPath<Store<State>, Int>`s, made by ``ObservationTable/keyPath(for:in:)``.
    var members: [AnyKeyPath] = []

    var isEmpty: Bool {
        !wholeState && members.isEmpty
    }
}

extension Store {
    /// The key path the registrar knows a member by: one per member name, made once.
    subscript(_observedMember name: String) -> Int { 0 }

    /// Records that the whole state is read: the next commit that changes it notifies.
    func trackWholeState() {
        // Access first, then arm: a commit between the two notifies (at worst needlessly).
        registrar.access(self, keyPath: stateKeyPath)
        if let root = rootStorage {
            root.withLock { root in
                root.observation.recordWholeState()
                root.updateIsListened()
                updateSharedFollowing(&root)
            }
            return
        }
        observation.withLock { table in
            table.recordWholeState()
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
            let keyPath = root.withLock { $0.observation.keyPath(for: name, in: Store.self) }
            // Access first, then read and arm in one critical section: a commit before the read
            // is seen by it, a commit after it checks the member.
            registrar.access(self, keyPath: keyPath)
            let snapshot = root.withLock { root -> State? in
                if _slowPath(cg_change_trace_active()) { _traceStoreRead(&root.state, member: name) }
                guard let version = versions.memberVersion(&root.state, name) else { return nil }
                root.observation.record(name, version: version)
                root.updateIsListened()
                updateSharedFollowing(&root)
                return root.state
            }
            // Not a versioned member after all: observe the whole state.
            return snapshot ?? state
        }
        let keyPath = observation.withLock { $0.keyPath(for: name, in: Store.self) }
        installScopeObservation()
        registrar.access(self, keyPath: keyPath)
        // The parent's state is read under this scope's table lock, so that the version recorded
        // is the one read, whatever parent commit `scopeDidChange` is delivering meanwhile.
        let snapshot = observation.withLock { table -> State? in
            var snapshot = currentState
            guard let version = versions.memberVersion(&snapshot, name) else { return nil }
            table.record(name, version: version)
            return snapshot
        }
        return snapshot ?? state
    }

    /// Notifies the registrar of what a commit changed (never under a lock of the store).
    func notifyObservers(_ changes: ObservationChanges) {
        if changes.wholeState {
            registrar.willSet(self, keyPath: stateKeyPath)
            registrar.didSet(self, keyPath: stateKeyPath)
        }
        for keyPath in changes.members {
            // Made by `ObservationTable.keyPath(for:in:)` for this store's type.
            let keyPath = unsafeDowncast(keyPath, to: KeyPath<Store<State>, Int>.self)
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
            table.changes { versions.memberVersion(&state, $0) }
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
    /// Where the value is in the state, for writes to its members: a nested state's field;
    /// `nil` for `computed` storage, whose members are read-only.
    let base: WritableKeyPath<State, Member>?
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
        read(member)
    }

    /// A writable member of a nested state, read as the read-only one is (tracked alone when it
    /// is a field) and assigned as a commit to the store: `store.shelf.label = "Fiction"` is
    /// `store.commit { $0.shelf.label = "Fiction" }`, except that a value `==` to the current
    /// one is no write at all (no commit, nobody notified).
    ///
    /// `\Store<Library>.shelf.label` is a `ReferenceWritableKeyPath`, so SwiftUI's `@Bindable`
    /// makes bindings of it (`$store.shelf.label`) that commit the same way.
    public subscript<Value>(dynamicMember member: WritableKeyPath<Member, Value>) -> Value {
        get { read(member) }
        nonmutating set {
            guard let base else {
                preconditionFailure("the members of 'computed' are computed from the state and cannot be assigned: commit to their inputs")
            }
            store.assign(newValue, at: base, member)
        }
    }

    private func read<Value>(_ member: KeyPath<Member, Value>) -> Value {
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
            base: nil,
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
        StoreMembers(store: self, project: { $0.computed }, base: nil, prefix: "", wholeName: nil)
    }
}
