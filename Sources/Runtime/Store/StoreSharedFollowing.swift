import CComputedAtomics

/// A reference inside a state whose value changes without a commit: a ``Shared`` field's box,
/// written by another holder, another store, its file or its `UserDefaults` key.
protocol _SharedReference: AnyObject, Sendable {
    /// Moves with every change of the value.
    var version: VersionStamp { get }
    /// Calls `handler` after every change, until the token is cancelled or released.
    func _subscribe(_ handler: @escaping @Sendable () -> Void) -> StoreSubscription
}

/// The shared references a store's state holds, and the versions the store last published:
/// followed while anybody listens to the store, so that a change made anywhere reaches its
/// subscribers and observers as a change of the store.
///
/// A root store follows the references of its current state (its `@Shared` fields, and those of
/// nested generated states) from its first listener or observed member until its last; each
/// listened commit re-reads them, so a state that now holds other references is followed by
/// those. A change of a followed reference is published as a commit that changed nothing else
/// would be: to subscribers, `select`/`states` consumers, publishers, derived and scoped stores,
/// and to the observers of the members whose versions moved (the field, the computed values over
/// it, after cutoff). Kept in the store's root state, under its lock.
struct SharedFollowing {
    /// The references followed, their versions when last published, and one subscription each.
    private var references: [any _SharedReference] = []
    private var versions: [VersionStamp] = []
    private var subscriptions: [StoreSubscription] = []
    /// The references of the state just read, reused from commit to commit.
    private var current: [any _SharedReference] = []
    private(set) var isFollowing = false

    /// The references followed, each with the version last published (what a change trace
    /// compares a commit's references with).
    var published: [(reference: ObjectIdentifier, version: VersionStamp)] {
        zip(references, versions).map { (ObjectIdentifier($0), $1) }
    }

    /// Follows the references `collect` reads from the state while `isListened`, and stops
    /// following when not; returns whether a followed reference changed since it was last
    /// published (a version moved, or the state now holds another reference). `subscribe` makes
    /// the subscription of a newly followed reference.
    mutating func update(
        isListened: Bool,
        collect: (inout [any _SharedReference]) -> Void,
        subscribe: (any _SharedReference) -> StoreSubscription
    ) -> Bool {
        guard isListened else {
            if isFollowing { stop() }
            return false
        }
        current.removeAll(keepingCapacity: true)
        collect(&current)
        guard isFollowing else {
            follow(subscribe)
            return false
        }
        if current.count == references.count, zip(current, references).allSatisfy({ $0 === $1 }) {
            var changed = false
            for index in references.indices {
                let version = references[index].version
                if version != versions[index] {
                    versions[index] = version
                    changed = true
                }
            }
            return changed
        }
        stop()
        follow(subscribe)
        return true
    }

    /// Starts following the references in `current`.
    private mutating func follow(_ subscribe: (any _SharedReference) -> StoreSubscription) {
        swap(&references, &current)
        // Subscribed before the versions are read: a change in between is published, not lost.
        subscriptions = references.map(subscribe)
        versions = references.map(\.version)
        isFollowing = true
    }

    private mutating func stop() {
        for subscription in subscriptions { subscription.cancel() }
        subscriptions.removeAll()
        references.removeAll()
        versions.removeAll()
        isFollowing = false
    }
}

/// The shared references of a `T` value, when `T` is a generated state that holds any (decided
/// once per type).
struct _SharedReferences<T>: @unchecked Sendable {
    // Safety: a conformance witness metatype, immutable.
    let witness: (any _AnySharedReferencesWitness.Type)?

    init() {
        let witness = _SharedReferencesWitness<T>.self as? any _AnySharedReferencesWitness.Type
        self.witness = witness?.holdsReferences == true ? witness : nil
    }

    /// Appends the references `value` holds. (`inout` only so that the value is not copied.)
    func collect(_ value: inout T, into references: inout [any _SharedReference]) {
        guard let witness else { return }
        withUnsafePointer(to: &value) { witness.visit(UnsafeRawPointer($0)) { references.append($0) } }
    }
}

enum _SharedReferencesWitness<T> {}

protocol _AnySharedReferencesWitness: SendableMetatype {
    /// Whether values of the type can hold shared references at all.
    static var holdsReferences: Bool { get }
    /// Calls `visit` with each shared reference the value at `value` holds.
    static func visit(_ value: UnsafeRawPointer, _ visit: (any _SharedReference) -> Void)
}

extension _SharedReferencesWitness: _AnySharedReferencesWitness where T: _TableDrivenState {
    static var holdsReferences: Bool {
        T.Extended.__table.holdsSharedReferences
    }

    static func visit(_ value: UnsafeRawPointer, _ visit: (any _SharedReference) -> Void) {
        T.Extended.__table.visitSharedReferences(in: value, visit)
    }
}

extension Store {
    /// Under the root state's lock, after every listened commit: re-reads the shared references
    /// of the state (following those it now holds) and returns whether one changed since the store
    /// last published.
    func sharedReferencesChanged(in state: inout State, following: inout SharedFollowing) -> Bool {
        guard holdsSharedReferences else { return false }
        return follow(&state, &following, isListened: true)
    }

    /// Under the root state's lock, after anything that may have changed whether the store is
    /// listened: starts or stops following the state's shared references.
    func updateSharedFollowing(_ root: inout RootState) {
        guard holdsSharedReferences, root.following.isFollowing != root.isListened else { return }
        _ = follow(&root.state, &root.following, isListened: root.isListened)
    }

    /// `following.update` with the references `state` holds, read in place.
    private func follow(_ state: inout State, _ following: inout SharedFollowing, isListened: Bool) -> Bool {
        let references = sharedReferences
        return following.update(
            isListened: isListened,
            collect: { references.collect(&state, into: &$0) },
            subscribe: subscribe(to:)
        )
    }

    private func subscribe(to reference: any _SharedReference) -> StoreSubscription {
        reference._subscribe { [weak self] in self?.sharedReferenceDidChange() }
    }

    /// A followed shared reference changed: publish it as a change of this store, unless this
    /// thread is inside a commit to this store (which made the change, and finds it itself).
    private func sharedReferenceDidChange() {
        guard !cg_commit_is_active(UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) else { return }
        commitNotifying { _ in }
    }
}
