import Observation

/// A read-only store whose value is derived from another store's state and changes only when the
/// derived value does.
///
/// ```swift
/// let count = store.derived(\.count)          // Derived<Int>
/// count.value                                  // the current count
/// let link = count.assign(to: other.assignee(\.count))   // keep `link` alive
/// ```
///
/// A derived store keeps its source alive; the source does not keep it alive. It updates
/// synchronously during each source commit's notification, computing the selector on the new
/// state and publishing only when the value changed: by version stamp for versioned selectors,
/// then by `==` for `Equatable` values.
@dynamicMemberLookup
public final class Derived<Value: Sendable>: Observable, @unchecked Sendable {
    // Safety: `current` is reached only under its lock; the other properties are immutable or
    // thread-safe.

    private struct Current {
        var value: Value
        var version: VersionStamp?
    }

    private let current: LockedBox<Current>
    private let changes = Broadcaster<Value>()
    private let registrar = ObservationRegistrar()
    /// `\.value`, made once (a key path literal into a generic class is instantiated by a
    /// runtime type lookup every time it is evaluated; see `Store.stateKeyPath`).
    private let valueKeyPath: KeyPath<Derived<Value>, Value> = \.value
    private let isEqual: (@Sendable (Value, Value) -> Bool)?
    /// Keeps the source store alive and subscribed while this derived store exists.
    private var sourceLink: StoreSubscription?

    init<State>(source: Store<State>, selector: StateSelector<State, Value>, isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.isEqual = isEqual
        let initial = source.currentState
        current = LockedBox(Current(value: selector(initial), version: selector.version(initial)))
        let subscription = source.subscribe { [weak self] state in
            self?.sourceDidCommit(selector: selector, state: state)
        }
        // Retain the source for as long as the link exists.
        sourceLink = StoreSubscription { [source] in
            _ = source
            subscription.cancel()
        }
    }

    /// A derived store whose values come from `link` (which delivers the current value first,
    /// then the new ones, each `!=` to the one before): one key's total through the hub of
    /// ``Store/derived(_:key:)``.
    init<State>(
        initial: Value,
        source: Store<State>,
        link: (@escaping @Sendable (Value) -> Void) -> StoreSubscription
    ) where Value: Equatable {
        isEqual = (==)
        current = LockedBox(Current(value: initial, version: nil))
        let subscription = link { [weak self] value in self?.receive(value) }
        sourceLink = StoreSubscription { [source] in
            _ = source
            subscription.cancel()
        }
    }

    /// The current derived value.
    public var value: Value {
        registrar.access(self, keyPath: valueKeyPath)
        return current.withLock { $0.value }
    }

    /// A member of the current value: `derived.count` is `derived.value.count`.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        value[keyPath: keyPath]
    }

    /// Calls `handler` with each new value, until the returned token is cancelled or released.
    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> StoreSubscription {
        let id = changes.subscribe(handler)
        return StoreSubscription { [changes] in changes.unsubscribe(id) }
    }

    /// Calls `handler` with each new value, as ``subscribe(_:)``, and with `includingCurrent`
    /// first with the current value: atomically, so no change is missed or delivered twice. The
    /// current value is delivered in order before any later one, on the calling thread before this
    /// method returns unless another thread is delivering at that moment (see
    /// ``Store/subscribe(includingCurrent:_:)``). The token does not keep this derived store alive.
    public func subscribe(
        includingCurrent: Bool,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> StoreSubscription {
        guard includingCurrent else { return subscribe(handler) }
        // Subscribing and queueing the current value under the value's lock delivers it before
        // any later value, so the subscriber never ends up with a stale one.
        let id = current.withLock { current in
            changes.subscribe(handler, initial: current.value)
        }
        changes.drain()
        return StoreSubscription { [changes] in changes.unsubscribe(id) }
    }

    /// The current value, then each new value; buffering keeps only the latest, as
    /// ``Store/states`` does.
    public var values: AsyncStream<Value> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let id = current.withLock { current in
                continuation.yield(current.value)
                return changes.subscribe { continuation.yield($0) }
            }
            continuation.onTermination = { [changes] _ in changes.unsubscribe(id) }
        }
    }

    /// Pushes the current value and every later value into `assignee` (typically another store's
    /// ``Store/assignee(_:)``), until the returned token is cancelled or released. The token keeps
    /// this derived store and its source alive; the target is held weakly, so the assignment does
    /// nothing once the target store is gone.
    public func assign(to assignee: Assignee<Value>) -> StoreSubscription {
        let link = subscribe(includingCurrent: true) { assignee($0) }
        // The token keeps this derived store (and so its source) alive, so that
        // `store.derived(…).assign(to: …)` works without keeping the derived store elsewhere.
        return StoreSubscription { [self] in
            withExtendedLifetime(self) { link.cancel() }
        }
    }

    /// Runs for each source commit. The source delivers its notifications one at a time, so
    /// this never runs concurrently with itself.
    private func sourceDidCommit<State>(selector: StateSelector<State, Value>, state: State) {
        let version = selector.version(state)
        let previous = current.withLock { $0 }
        if let version, previous.version == version { return }
        publish(selector(state), version: version, previous: previous.value)
    }

    /// A new value from the link of ``init(initial:source:link:)``.
    private func receive(_ value: Value) {
        publish(value, version: nil, previous: current.withLock { $0.value })
    }

    /// Makes `value` the current value and tells observers and subscribers, unless it is equal
    /// to `previous` (the current value, read by the caller).
    private func publish(_ value: Value, version: VersionStamp?, previous: Value) {
        if let isEqual, isEqual(previous, value) {
            current.withLock { $0.version = version }
            return
        }
        registrar.willSet(self, keyPath: valueKeyPath)
        current.withLock { current in
            current = Current(value: value, version: version)
            changes.enqueue(value)
        }
        registrar.didSet(self, keyPath: valueKeyPath)
        changes.drain()
    }
}

extension Store {
    /// A read-only store of the selector's value that updates only when that value changes (by
    /// version stamp, then by `==`).
    public func derived<Value: Equatable & Sendable>(_ selector: StateSelector<State, Value>) -> Derived<Value> {
        Derived(source: self, selector: selector, isEqual: ==)
    }

    /// A read-only store of the selector's value that updates when its version stamp changes
    /// (after every commit, for an unversioned selector).
    public func derived<Value: Sendable>(_ selector: StateSelector<State, Value>) -> Derived<Value> {
        Derived(source: self, selector: selector, isEqual: nil)
    }

    /// A read-only store of the value at `keyPath` that updates only when that value changes.
    public func derived<Value: Equatable & Sendable>(_ keyPath: KeyPath<State, Value> & Sendable) -> Derived<Value> {
        derived(StateSelector { $0[keyPath: keyPath] })
    }
}
