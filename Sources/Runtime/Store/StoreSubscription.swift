/// A token that keeps a subscription, a derived store's link to its source, or an assignment
/// alive: cancelling it, or letting it go, ends it.
///
/// ```swift
/// let subscription = store.subscribe { state in print(state.count) }
/// // …
/// subscription.cancel()   // or just drop the last reference
/// ```
///
/// Keep the tokens of long-lived subscriptions in a property, or in a set with
/// ``store(in:)``.
public final class StoreSubscription: Hashable, Sendable {
    private let onCancel: LockedBox<(@Sendable () -> Void)?>

    /// Creates a token that runs `onCancel` once, on the first ``cancel()`` or when released.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = LockedBox(onCancel)
    }

    deinit {
        cancel()
    }

    /// Ends the subscription. Calling it again does nothing.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Whether ``cancel()`` has run.
    public var isCancelled: Bool {
        onCancel.withLock { $0 == nil }
    }

    /// Keeps this token in `set` (as Combine's `AnyCancellable.store(in:)`).
    public func store(in set: inout Set<StoreSubscription>) {
        set.insert(self)
    }

    public static func == (lhs: StoreSubscription, rhs: StoreSubscription) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// A `Sendable` box around a lock-protected value, for the runtime's reference types.
final class LockedBox<Value>: @unchecked Sendable {
    // Safety: `value` is only reached through `withLock`.
    private let storage: LockedState<Value>

    init(_ value: Value) {
        storage = LockedState.make(value)
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
