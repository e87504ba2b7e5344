/// How a shared value is persisted: told about every change, asked to write now.
protocol SharedPersistence<Value>: AnyObject, Sendable {
    associatedtype Value: Sendable
    /// Called under the value's lock after every change, with the new value.
    func valueDidChange(_ value: Value)
    /// Writes the latest value now (no-op when there is nothing to write).
    func flush() throws(SharedError)
    /// The last background write error, if the last write failed.
    var saveError: SharedError? { get }
}

import CComputedAtomics

/// The reference behind a ``Shared``: the value, its version stamp, its subscribers and its
/// persistence.
final class SharedBox<Value: Sendable>: @unchecked Sendable {
    // Safety: `value` is reached only under its lock; `versionStorage` only through atomics; the
    // rest is immutable or thread-safe.

    /// The registry key, or `nil` for an unshared value.
    let key: String?
    let loadError: SharedError?
    let persistence: (any SharedPersistence<Value>)?
    private let state: LockedBox<Value>
    /// The version stamp's raw value, written under the lock and read without it.
    private let versionStorage: UnsafeMutablePointer<Int64>
    private let changes = Broadcaster<Value>()

    init(value: Value, key: String?, loadError: SharedError? = nil, persistence: (any SharedPersistence<Value>)? = nil) {
        self.key = key
        self.loadError = loadError
        self.persistence = persistence
        state = LockedBox(value)
        versionStorage = .allocate(capacity: 1)
        versionStorage.initialize(to: Int64(bitPattern: VersionStamp.next().rawValue))
    }

    deinit {
        try? persistence?.flush()
        versionStorage.deallocate()
    }

    var value: Value {
        state.withLock { $0 }
    }

    /// The current version: one atomic load, no lock.
    var version: VersionStamp {
        VersionStamp(rawValue: UInt64(bitPattern: cg_atomic_i64_load(versionStorage)))
    }

    /// Runs `body` on the value under the lock; then stamps, persists and notifies.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        defer { changes.drain() }
        return try state.withLock { value in
            defer {
                cg_atomic_i64_store(versionStorage, Int64(bitPattern: VersionStamp.next().rawValue))
                changes.enqueue(value)
                persistence?.valueDidChange(value)
            }
            return try body(&value)
        }
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
