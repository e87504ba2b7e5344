import Observation

/// A reference type that holds the current state and publishes every change.
///
/// ```swift
/// let store = Store(TodoState())
/// store.commit { $0.query = "milk" }        // atomic: serialized with other commits
/// store.state.computed.visibleCount          // a consistent snapshot
/// store.computed.visibleCount                // the same, through dynamic member lookup
/// for await count in store.select(TodoState.Selectors.visibleCount) { … }   // distinct values
/// ```
///
/// - **Thread safety**: reads and commits may come from any thread. Commits are serialized by a
///   lock, so no update is lost; ``state`` returns a snapshot that no later commit changes.
/// - **Notifications** run after the commit's lock is released, in commit order, one at a time,
///   on a thread that committed. A subscriber may commit again; its change is delivered after the
///   current one.
/// - **Observation**: `Store` is `Observable`. Reading ``state`` (or any member through dynamic
///   member lookup) inside `withObservationTracking` or a SwiftUI view body tracks it, and every
///   commit notifies. For change notifications limited to one value, use ``select(_:)-2vtzw`` or
///   ``derived(_:)-1nkvu``, which only publish distinct values.
/// - **Mutations** must not read or commit to the same store (the lock is not recursive). When a
///   mutation throws, the changes it made before throwing are kept and published, as with any
///   `inout` argument.
@dynamicMemberLookup
public final class Store<State: Sendable>: Observable, @unchecked Sendable {
    // Safety: `storage` holds the only mutable state and is reached only under its lock; the
    // registrar and the broadcaster are thread-safe.

    private let storage: LockedBox<State>
    private let changes = Broadcaster<State>()
    private let registrar = ObservationRegistrar()
    /// `\.state`, made once: a key path literal into a generic class is instantiated (a runtime
    /// type lookup by mangled name, ~40,000 instructions) every time it is evaluated.
    private let stateKeyPath: KeyPath<Store<State>, State> = \.state

    /// Creates a store holding `initialState`.
    public init(_ initialState: State) {
        storage = LockedBox(initialState)
    }

    /// The current state: a snapshot that later commits do not change.
    public var state: State {
        registrar.access(self, keyPath: stateKeyPath)
        return storage.withLock { $0 }
    }

    /// A member of the current state: `store.count` is `store.state.count`, and
    /// `store.computed.x` is `store.state.computed.x`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        state[keyPath: keyPath]
    }

    /// Applies `mutation` to the state atomically, then notifies subscribers and observers.
    ///
    /// Commits from many threads are serialized: each sees the state the previous one left.
    ///
    /// - Returns: What `mutation` returned.
    @discardableResult
    public func commit<Result>(_ mutation: (inout State) throws -> Result) rethrows -> Result {
        registrar.willSet(self, keyPath: stateKeyPath)
        defer {
            registrar.didSet(self, keyPath: stateKeyPath)
            changes.drain()
        }
        return try storage.withLock { state in
            defer { changes.enqueue(state) }
            return try mutation(&state)
        }
    }

    /// Calls `handler` with the new state after every commit, until the returned token is
    /// cancelled or released. The current state is not delivered; read ``state`` for it.
    public func subscribe(_ handler: @escaping @Sendable (State) -> Void) -> StoreSubscription {
        let id = changes.subscribe(handler)
        return StoreSubscription { [changes] in changes.unsubscribe(id) }
    }

    /// Calls `handler` after every commit, as ``subscribe(_:)``, and with `includingCurrent`
    /// first with the current state: atomically, so no commit is missed or delivered twice between
    /// the current state and the next one.
    ///
    /// The current state is delivered in order before any later commit, through the same queue as
    /// commits: on the calling thread before this method returns, unless another thread is
    /// delivering notifications at that moment (then that thread delivers it, right after its
    /// current notification). This is the hook behind the Combine publishers.
    public func subscribe(
        includingCurrent: Bool,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> StoreSubscription {
        guard includingCurrent else { return subscribe(handler) }
        let id = storage.withLock { state in changes.subscribe(handler, initial: state) }
        changes.drain()
        return StoreSubscription { [changes] in changes.unsubscribe(id) }
    }

    /// The current state, then the state after each commit.
    ///
    /// Buffering keeps only the latest value: a consumer that falls behind skips intermediate
    /// states and receives the newest one (as Swift's `Observations`), so a slow consumer never
    /// blocks commits and never sees a state older than one it already received.
    public var states: AsyncStream<State> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let id = storage.withLock { state in
                continuation.yield(state)
                return changes.subscribe { continuation.yield($0) }
            }
            continuation.onTermination = { [changes] _ in changes.unsubscribe(id) }
        }
    }

    /// The number of current subscribers and `states`/`select` consumers (for tests and
    /// diagnostics).
    public var subscriberCount: Int {
        changes.subscriberCount
    }
}

// MARK: - Selection

extension Store {
    /// The selector's current value, then each distinct value after a commit.
    ///
    /// A commit that leaves the selector's version stamp unchanged yields nothing (for generated
    /// field and computed selectors: any commit that does not write their inputs); for a different
    /// stamp, a value equal (`==`) to the previous one is not repeated either. Buffering keeps the
    /// latest state, as ``states`` does; the selector runs in the consumer's task, not in `commit`.
    public func select<Value: Equatable & Sendable>(_ selector: StateSelector<State, Value>) -> StoreSelection<State, Value> {
        StoreSelection(states: states, selector: selector, isEqual: ==)
    }

    /// The selector's current value, then its value after each commit that changed its version
    /// stamp (every commit, for an unversioned selector of a non-`Equatable` value).
    public func select<Value>(_ selector: StateSelector<State, Value>) -> StoreSelection<State, Value> {
        StoreSelection(states: states, selector: selector, isEqual: nil)
    }

    /// The value at `keyPath`, then each distinct (`==`) value after a commit.
    public func select<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable
    ) -> StoreSelection<State, Value> {
        select(StateSelector { $0[keyPath: keyPath] })
    }
}

/// The values of a selector over a store's states: the current one first, then only distinct
/// ones. Returned by ``Store/select(_:)-2vtzw``.
public struct StoreSelection<State: Sendable, Value>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = Never

    let states: AsyncStream<State>
    let selector: StateSelector<State, Value>
    let isEqual: (@Sendable (Value, Value) -> Bool)?

    /// Produces the selection's values.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<State>.AsyncIterator
        let selector: StateSelector<State, Value>
        let isEqual: (@Sendable (Value, Value) -> Bool)?
        var last: (value: Value, version: VersionStamp?)?

        /// The next distinct value, or `nil` when the consumer's task is cancelled.
        public mutating func next() async -> Value? {
            while let state = await base.next() {
                let version = selector.version(state)
                if let last, let version, last.version == version {
                    continue
                }
                let value = selector(state)
                if let last, let isEqual, isEqual(last.value, value) {
                    self.last = (value, version)
                    continue
                }
                self.last = (value, version)
                return value
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: states.makeAsyncIterator(), selector: selector, isEqual: isEqual, last: nil)
    }
}
