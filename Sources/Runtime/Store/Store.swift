import CComputedAtomics
import Observation

/// A reference type that holds the current state and publishes every change.
///
/// ```swift
/// let store = Store(TodoState())
/// store.commit { $0.query = "milk" }        // atomic: serialized with other commits
/// store.state.computed.visibleCount          // a consistent snapshot
/// store.computed.visibleCount                // the same, observed as that one value
/// for await count in store.select(TodoState.Selectors.visibleCount) { … }   // distinct values
/// let settings = store.scope(\.settings)     // a child store that commits through this one
/// ```
///
/// - **Thread safety**: reads and commits may come from any thread. Commits are serialized by a
///   lock, so no update is lost; ``state`` returns a snapshot that no later commit changes.
/// - **Changes**: a commit that changed nothing publishes nothing: no subscriber call, no
///   ``states`` or ``select(_:)-2vtzw`` element, no Observation notification. For a generated
///   state "changed" means a field's version stamp moved (an assignment of an equal value takes
///   none); for another `Equatable` state, `!=` to the state before the commit; for any other
///   state, every commit is a change.
/// - **Notifications** run after the commit's lock is released, in commit order, one at a time,
///   on a thread that committed. A subscriber may commit again; its change is delivered after the
///   current one.
/// - **Observation**: `Store` is `Observable`, member by member. Inside
///   `withObservationTracking` or a SwiftUI view body, reading `store.items`,
///   `store.computed.visibleCount` or `store.shelf.books` tracks that member only: a commit
///   notifies its observers when a field's version moved, or when a computed value changed (after
///   cutoff: recomputed to an equal value is no change). Reading ``state`` tracks the whole state:
///   every commit that changed something notifies it. Members of states that are not generated
///   are tracked as the whole state. Observation calls an observer once, so a commit checks only
///   the members read through the store since a commit last changed them: with none left and no
///   subscriber, commits are as cheap as with no observer at all.
/// - **`@Shared` fields**: a change of a `@Shared` field of the state (or of a nested generated
///   state), made by anyone (another store or holder of the reference, a write through a
///   snapshot such as `store.state.settings = s`, the file or the `UserDefaults` key), is
///   published as a change of this store, with a commit's rules: subscribers and the observers
///   of the members it changed hear of it; a value `==` to the current one is no change. The
///   store follows the references of its current state while anybody listens.
/// - **Writes through members**: `store.query = "milk"` commits `$0.query = "milk"`, and does
///   nothing when the value `==` the current one; so does a nested state's field
///   (`store.shelf.label = "x"`) and a scoped store's. `\Store<TodoState>.query` is a
///   `ReferenceWritableKeyPath`, so SwiftUI's `@Bindable var store` gives `$store.query`.
///   Computed values are read-only.
/// - **Mutations** must not read or commit to the same store (the lock is not recursive). When a
///   mutation throws, the changes it made before throwing are kept and published, as with any
///   `inout` argument.
@dynamicMemberLookup
public final class Store<State: Sendable>: Observable, @unchecked Sendable {
    // Safety: the state is reached only under its lock (in `root`, or the root store's for a
    // scope); the other mutable state is in locked boxes; the registrar and broadcaster are
    // thread-safe.

    /// The state and its listeners, for a store made by ``init(_:)``.
    @usableFromInline let rootStorage: LockedState<RootState>?
    /// The parent link, for a store made by ``scope(_:)``.
    private let scopeLink: _ScopeLinkBase<State>?
    private let changes = Broadcaster<State>()
    let registrar = ObservationRegistrar()
    /// `\.state`, made once: a key path literal into a generic class is instantiated (a runtime
    /// type lookup by mangled name, ~40,000 instructions) every time it is evaluated.
    let stateKeyPath: KeyPath<Store<State>, State> = \.state
    /// How this store decides that a commit changed its state.
    let detection = ChangeDetection<State>()
    /// For a scoped store, the members read through it, for fine-grained Observation (a root
    /// store keeps them in `RootState`, under the state's lock).
    let observation = LockedBox(ObservationTable())
    /// Subscribers, `states` and `select` consumers (not the store's own listeners).
    private let publicListeners = LockedBox(0)
    /// Whether the state can hold shared references the store follows (a generated state with a
    /// `@Shared` field, its own or a nested state's): a flag of the class, so that stores of other
    /// states pay one load for it (reading `detection`'s fields from unspecialized code looks up
    /// its type's metadata).
    let holdsSharedReferences: Bool
    /// The shared references a generated state holds (its `@Shared` fields'), whose changes
    /// reach the store without a commit. Kept by the class rather than by `detection`: a third
    /// field of `ChangeDetection` made unspecialized commits look up its metadata twice more.
    let sharedReferences = _SharedReferences<State>()
    /// The hubs of the row scopes of this store's list fields, by the list's key path (see
    /// ``scope(_:id:)``).
    let rowScopeHubs = LockedBox<[AnyKeyPath: AnyObject]>([:])

    /// The state and its listeners. The state comes last: fields laid out before it have fixed
    /// offsets, which the unspecialized code of a commit with listeners reads without looking up
    /// this type's metadata.
    @usableFromInline
    struct RootState {
        /// Whether a commit must find out what it changed: somebody subscribed, or read a member
        /// that no commit changed since. Read by the inlined fast path of ``commit(_:)``.
        @usableFromInline var isListened = false
        /// Every listener, internal ones included.
        var listenerCount = 0
        /// The members read through the store, for fine-grained Observation.
        var observation = ObservationTable()
        /// The field stamps a notifying commit records before and after the mutation, kept so
        /// that every commit records into the same storage (no allocation per commit).
        var fieldVersions = MemoInputs([])
        /// The shared references of the state, followed while the store is listened.
        var following = SharedFollowing()
        @usableFromInline var state: State

        init(state: State) {
            self.state = state
        }

        /// Call after changing `listenerCount` or `observation`.
        mutating func updateIsListened() {
            isListened = listenerCount > 0 || observation.isActive
        }
    }

    /// What the inlined fast path of ``commit(_:)`` did.
    @usableFromInline
    enum _CommitOutcome<Result> {
        case done(Result)
        case listened
    }

    /// Creates a store holding `initialState`.
    public init(_ initialState: State) {
        rootStorage = LockedState.make(RootState(state: initialState))
        scopeLink = nil
        holdsSharedReferences = sharedReferences.witness != nil
    }

    init(scope link: _ScopeLinkBase<State>) {
        rootStorage = nil
        scopeLink = link
        holdsSharedReferences = sharedReferences.witness != nil
    }

    /// The current state: a snapshot that later commits do not change. Reading it inside
    /// `withObservationTracking` (or a SwiftUI body) tracks the whole state.
    public var state: State {
        trackWholeState()
        return currentState
    }

    /// The current state, with no Observation tracking.
    var currentState: State {
        if let rootStorage { return rootStorage.withLock { $0.state } }
        return scopeLink!.read()
    }

    /// A member of the current state: `store.count` is `store.state.count`. Inside
    /// `withObservationTracking`, a field or computed value of a generated state is tracked on
    /// its own; anything else is tracked as the whole state.
    @_disfavoredOverload
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        observedState(member: _observableMemberName(keyPath, in: State.self))[keyPath: keyPath]
    }

    /// The members of a nested generated state: `store.shelf.books` reads (and observes) one
    /// member; `store.shelf.value` reads the whole nested state. A field of the nested state can
    /// be assigned through it (`store.shelf.label = "Fiction"`), as a commit.
    public subscript<Member: MemberVersioned>(
        dynamicMember keyPath: KeyPath<State, Member>
    ) -> StoreMembers<State, Member> {
        let project = UncheckedSendable(keyPath)
        let name = _observableMemberName(keyPath, in: State.self)
        return StoreMembers(
            store: self,
            project: { $0[keyPath: project.value] },
            base: keyPath as? WritableKeyPath<State, Member>,
            prefix: name.map { $0 + "." },
            wholeName: name
        )
    }

    /// Applies `mutation` to the state atomically, then notifies subscribers and observers when
    /// it changed the state (see the type's documentation for what a change is).
    ///
    /// Commits from many threads are serialized: each sees the state the previous one left. With
    /// no subscriber and no observer, a commit is the mutation under a lock and nothing else.
    ///
    /// - Returns: What `mutation` returned.
    @discardableResult
    @inlinable
    public func commit<Result>(_ mutation: (inout State) throws -> Result) rethrows -> Result {
        // Inlined into the caller and specialized for its state: with nobody listening, a commit
        // is the lock, one flag and the mutation.
        // (While a change trace records, every commit takes the notifying path, which records it.)
        if let rootStorage, _fastPath(!cg_change_trace_active()) {
            let outcome = try rootStorage.withLock { root -> _CommitOutcome<Result> in
                guard !root.isListened else { return .listened }
                return .done(try mutation(&root.state))
            }
            if case .done(let result) = outcome { return result }
        }
        return try commitNotifying(mutation)
    }

    /// A commit that finds out what it changed and tells subscribers and observers.
    ///
    /// Not specialized (it is not inlinable), so it avoids generic types of its own: each one
    /// costs a metadata lookup per commit.
    @usableFromInline
    func commitNotifying<Result>(_ mutation: (inout State) throws -> Result) rethrows -> Result {
        guard let rootStorage else { return try scopeLink!.commit(mutation) }
        var published = false
        var observed = ObservationChanges()
        let tracer = cg_change_trace_active() && ChangeTrace.isRecordingHere ? _CommitTracer() : nil
        defer {
            if !observed.isEmpty { notifyObservers(observed) }
            if published { changes.drain() }
        }
        guard holdsSharedReferences else {
            return try commitLocked(rootStorage, mutation, published: &published, observed: &observed, tracer: tracer)
        }
        // Marks this thread as committing to this store, for a shared reference the mutation
        // writes: its notification reaches this store on this thread, under the lock.
        var frame = cg_commit_frame()
        return try withUnsafeMutablePointer(to: &frame) { frame in
            cg_commit_push(frame, UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
            defer { cg_commit_pop(frame) }
            return try commitLocked(rootStorage, mutation, published: &published, observed: &observed, tracer: tracer)
        }
    }

    /// ``commitNotifying(_:)`` under the state's lock.
    private func commitLocked<Result>(
        _ rootStorage: LockedState<RootState>,
        _ mutation: (inout State) throws -> Result,
        published: inout Bool,
        observed: inout ObservationChanges,
        tracer: _CommitTracer?
    ) rethrows -> Result {
        try rootStorage.withLock { root in
            tracer?.begin(&root.state, detection, following: root.following)
            defer {
                tracer?.end(&root.state, detection, observation: root.observation, observed: observed,
                            subscribers: published ? root.listenerCount : 0)
            }
            guard root.isListened else { return try mutation(&root.state) }
            defer {
                root.updateIsListened()
                updateSharedFollowing(&root)
            }
            // The state, the stamps and the tables are disjoint stored properties: one access each.
            return try commitListened(
                mutation,
                to: &root.state,
                fieldVersions: &root.fieldVersions,
                following: &root.following,
                isPublished: root.listenerCount > 0,
                observation: &root.observation,
                published: &published,
                observed: &observed
            )
        }
    }

    /// Under the state's lock: applies `mutation`, and when it changed the state (or a shared
    /// reference it holds changed since the last publication), enqueues the new state for
    /// subscribers (`isPublished`) and collects what to tell Observation.
    private func commitListened<Result>(
        _ mutation: (inout State) throws -> Result,
        to state: inout State,
        fieldVersions: inout MemoInputs,
        following: inout SharedFollowing,
        isPublished: Bool,
        observation: inout ObservationTable,
        published: inout Bool,
        observed: inout ObservationChanges
    ) rethrows -> Result {
        var isChanged = false
        defer {
            if sharedReferencesChanged(in: &state, following: &following) { isChanged = true }
            if isChanged {
                if isPublished {
                    changes.enqueue(state)
                    published = true
                }
                if observation.isActive {
                    let versions = detection.versions
                    observed = observation.changes { versions.memberVersion(&state, $0) }
                }
            }
        }
        return try detection.apply(mutation, to: &state, versions: &fieldVersions, isChanged: &isChanged)
    }

    /// Calls `handler` with the new state after every commit that changed it, until the returned
    /// token is cancelled or released. The current state is not delivered; read ``state`` for it.
    public func subscribe(_ handler: @escaping @Sendable (State) -> Void) -> StoreSubscription {
        addPublicListener(includingCurrent: false, handler)
    }

    /// Calls `handler` after every commit that changed the state, as ``subscribe(_:)``, and with
    /// `includingCurrent` first with the current state: atomically, so no change is missed or
    /// delivered twice between the current state and the next one.
    ///
    /// The current state is delivered in order before any later commit, through the same queue as
    /// commits: on the calling thread before this method returns, unless another thread is
    /// delivering notifications at that moment (then that thread delivers it, right after its
    /// current notification). This is the hook behind the Combine publishers.
    public func subscribe(
        includingCurrent: Bool,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> StoreSubscription {
        addPublicListener(includingCurrent: includingCurrent, handler)
    }

    /// The current state, then the state after each commit that changed it.
    ///
    /// Buffering keeps only the latest value: a consumer that falls behind skips intermediate
    /// states and receives the newest one (as Swift's `Observations`), so a slow consumer never
    /// blocks commits and never sees a state older than one it already received.
    public var states: AsyncStream<State> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let subscription = addPublicListener(includingCurrent: true) { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }

    /// The number of current subscribers and `states`/`select` consumers (for tests and
    /// diagnostics).
    public var subscriberCount: Int {
        publicListeners.withLock { $0 }
    }

    private func addPublicListener(
        includingCurrent: Bool,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> StoreSubscription {
        publicListeners.withLock { $0 += 1 }
        let subscription = addListener(includingCurrent: includingCurrent, handler)
        return StoreSubscription { [publicListeners] in
            subscription.cancel()
            publicListeners.withLock { $0 -= 1 }
        }
    }

    /// Adds a listener of changed states, counted so that commits detect changes while anybody
    /// listens. With `includingCurrent`, the current state comes first, in commit order.
    func addListener(
        includingCurrent: Bool,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> StoreSubscription {
        guard let rootStorage else {
            return scopeLink!.addListener(includingCurrent: includingCurrent, detection: detection, handler)
        }
        let id = rootStorage.withLock { root in
            root.listenerCount += 1
            root.updateIsListened()
            updateSharedFollowing(&root)
            return changes.subscribe(handler, initial: includingCurrent ? root.state : nil)
        }
        if includingCurrent { changes.drain() }
        return StoreSubscription { [weak self] in
            guard let self, let root = self.rootStorage else { return }
            root.withLock { root in
                root.listenerCount -= 1
                root.updateIsListened()
                self.updateSharedFollowing(&root)
            }
            self.changes.unsubscribe(id)
        }
    }
}
