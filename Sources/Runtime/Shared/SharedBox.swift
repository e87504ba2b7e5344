import CComputedAtomics
import Observation

/// How a shared value is persisted: told about every change, asked to write now, and (for
/// storage that others can change) told which reference to update when the storage changes.
protocol SharedPersistence<Value>: AnyObject, Sendable {
    associatedtype Value: Sendable
    /// Called under the value's lock after every local change, with the new value.
    func valueDidChange(_ value: Value)
    /// Writes the latest value now (no-op when there is nothing to write).
    func flush() throws(SharedError)
    /// Reads the storage now and updates the value when it changed.
    func reload() throws(SharedError)
    /// Starts following the storage on behalf of `box` (held weakly); called once, after `box`
    /// is fully made.
    func attach(to box: SharedBox<Value>)
    /// The last background write error, if the last write failed.
    var saveError: SharedError? { get }
    /// Why the stored value could not be used, if it could not (the latest load decides).
    var loadError: SharedError? { get }
}

/// The reference behind a ``Shared``: the value, its version stamp, its subscribers, its
/// observers and its persistence.
@usableFromInline
final class SharedBox<Value: Sendable>: Observable, @unchecked Sendable {
    // Safety: `value` is reached only under its lock; `versionStorage` only through atomics; the
    // rest is immutable or thread-safe.

    /// The registry key, or `nil` for an unshared value.
    let key: String?
    /// An error decided when the reference was made (a type mismatch); storage errors come from
    /// the persistence.
    private let initialLoadError: SharedError?
    let persistence: (any SharedPersistence<Value>)?
    private let state: LockedBox<Value>
    /// The version stamp's raw value, written under the lock and read without it.
    @usableFromInline let versionStorage: UnsafeMutablePointer<Int64>
    private let changes = Broadcaster<Value>()
    private let registrar = ObservationRegistrar()
    /// `\.value`, made once (a key path literal into a generic class is looked up at run time).
    private let valueKeyPath: KeyPath<SharedBox<Value>, Value> = \.value
    /// `==` when `Value` is `Equatable` (looked up once per reference).
    private let equality = _DynamicEquality<Value>()

    init(value: Value, key: String?, loadError: SharedError? = nil, persistence: (any SharedPersistence<Value>)? = nil) {
        self.key = key
        self.initialLoadError = loadError
        self.persistence = persistence
        state = LockedBox(value)
        versionStorage = .allocate(capacity: 1)
        versionStorage.initialize(to: Int64(bitPattern: VersionStamp.next().rawValue))
        persistence?.attach(to: self)
    }

    deinit {
        try? persistence?.flush()
        versionStorage.deallocate()
    }

    /// The current value; tracked by Observation.
    var value: Value {
        registrar.access(self, keyPath: valueKeyPath)
        return state.withLock { $0 }
    }

    /// The current version: one atomic load, no lock (inlined into a memo's hit path).
    @inlinable
    var version: VersionStamp {
        VersionStamp(rawValue: UInt64(bitPattern: cg_atomic_i64_load(versionStorage)))
    }

    var loadError: SharedError? {
        initialLoadError ?? persistence?.loadError
    }

    /// Runs `body` on the value under the lock; then, when it changed the value, stamps, persists
    /// and notifies.
    ///
    /// For an `Equatable` value, a `body` that leaves a value `==` to the one it found (an
    /// assignment of the current value) is no write: no new version, no save, nobody notified,
    /// as an assignment of an equal value to a generated state's field. Observation is told after
    /// the change (a reader in `onChange` sees the new value).
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        var isChanged = false
        defer {
            if isChanged {
                registrar.willSet(self, keyPath: valueKeyPath)
                registrar.didSet(self, keyPath: valueKeyPath)
                changes.drain()
            }
        }
        return try state.withLock { value in
            // A copy of the value before (a retain for a copy-on-write value), to compare with.
            let before = equality.isEquatable ? value : nil
            defer {
                isChanged = before.flatMap { equality.isEqual($0, value) } != true
                if isChanged {
                    stamp(value)
                    persistence?.valueDidChange(value)
                }
            }
            return try body(&value)
        }
    }

    /// Replaces the value with one that came from storage (written by someone else), without
    /// writing it back. `decide` runs under the lock with the current value and returns the new
    /// one, or `nil` to leave the value alone; it runs first with `commit == false` (observers
    /// hear nothing when that returns `nil`), then with `commit == true` to replace the value.
    /// Returns whether the value was replaced.
    ///
    /// For an `Equatable` value, a new value `==` to the current one is no change, as for a local
    /// write: `decide` still commits (the storage's content is known now), but the version stays
    /// and nobody is notified.
    ///
    /// Must not be called while holding a lock that a subscriber or observer could need: it
    /// notifies them before returning.
    @discardableResult
    func replaceFromStorage(_ decide: (_ current: Value, _ commit: Bool) -> Value?) -> Bool {
        let isNew = state.withLock { current -> Bool in
            guard let newValue = decide(current, false) else { return false }
            guard equality.isEqual(current, newValue) == true else { return true }
            _ = decide(current, true)
            return false
        }
        guard isNew else { return false }
        registrar.willSet(self, keyPath: valueKeyPath)
        defer {
            registrar.didSet(self, keyPath: valueKeyPath)
            changes.drain()
        }
        return state.withLock { value in
            guard let newValue = decide(value, true) else { return false }
            // The value may have moved to the new one in between (another reader of the storage).
            guard equality.isEqual(value, newValue) != true else { return false }
            value = newValue
            stamp(newValue)
            return true
        }
    }

    /// Takes a new version and queues `value` for subscribers; under the lock.
    private func stamp(_ value: Value) {
        cg_atomic_i64_store(versionStorage, Int64(bitPattern: VersionStamp.next().rawValue))
        changes.enqueue(value)
    }

    /// The number of subscribers, the stores that follow this reference included (for tests).
    var subscriberCount: Int {
        changes.subscriberCount
    }

    func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> StoreSubscription {
        let id = changes.subscribe(handler)
        return StoreSubscription { [changes] in changes.unsubscribe(id) }
    }

    /// As ``subscribe(_:)``, first delivering the current value (queued under the value's lock,
    /// so it comes before any later write).
    func subscribeIncludingCurrent(_ handler: @escaping @Sendable (Value) -> Void) -> StoreSubscription {
        let id = state.withLock { value in changes.subscribe(handler, initial: value) }
        changes.drain()
        return StoreSubscription { [changes] in changes.unsubscribe(id) }
    }

    var values: AsyncStream<Value> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let id = state.withLock { value in
                continuation.yield(value)
                return changes.subscribe { continuation.yield($0) }
            }
            continuation.onTermination = { [changes] _ in changes.unsubscribe(id) }
        }
    }
}

extension SharedBox: _SharedReference {
    func _subscribe(_ handler: @escaping @Sendable () -> Void) -> StoreSubscription {
        subscribe { _ in handler() }
    }
}
