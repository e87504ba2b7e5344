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

/// The reference behind a ``Shared``: the value, its version stamp, its subscribers and its
/// persistence.
final class SharedBox<Value: Sendable>: @unchecked Sendable {
    // Safety: `state` is reached only under its lock; the rest is immutable or thread-safe.

    private struct State {
        var value: Value
        var version: VersionStamp
    }

    /// The registry key, or `nil` for an unshared value.
    let key: String?
    let loadError: SharedError?
    let persistence: (any SharedPersistence<Value>)?
    private let state: LockedBox<State>
    private let changes = Broadcaster<Value>()

    init(value: Value, key: String?, loadError: SharedError? = nil, persistence: (any SharedPersistence<Value>)? = nil) {
        self.key = key
        self.loadError = loadError
        self.persistence = persistence
        state = LockedBox(State(value: value, version: .next()))
    }

    deinit {
        try? persistence?.flush()
    }

    var value: Value {
        state.withLock { $0.value }
    }

    var version: VersionStamp {
        state.withLock { $0.version }
    }

    /// Runs `body` on the value under the lock; then stamps, persists and notifies.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        defer { changes.drain() }
        return try state.withLock { state in
            defer {
                state.version = .next()
                changes.enqueue(state.value)
                persistence?.valueDidChange(state.value)
            }
            return try body(&state.value)
        }
    }

    func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> StoreSubscription {
        let id = changes.subscribe(handler)
        return StoreSubscription { [changes] in changes.unsubscribe(id) }
    }

    var values: AsyncStream<Value> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let id = state.withLock { state in
                continuation.yield(state.value)
                return changes.subscribe { continuation.yield($0) }
            }
            continuation.onTermination = { [changes] _ in changes.unsubscribe(id) }
        }
    }
}
