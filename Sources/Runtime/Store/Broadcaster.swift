/// Delivers published values to subscribers in publication order, one value at a time, and never
/// while the publisher holds its own lock.
///
/// Publishing is two steps. ``enqueue(_:)`` records the value; a publisher calls it while holding
/// the lock that orders its changes (a store's state lock), so the queue order is the commit order.
/// ``drain()`` then runs the handlers after that lock is released. Only one thread drains at a
/// time: a thread that finds another one draining leaves its value to it and returns, so handlers
/// never run concurrently and a handler that publishes again (a commit from inside a subscriber)
/// neither deadlocks nor reorders anything.
///
/// A subscriber receives exactly the values enqueued after it subscribed. A handler may still run
/// once after ``unsubscribe(_:)`` when a delivery to it was already under way.
final class Broadcaster<Value: Sendable>: @unchecked Sendable {
    // Safety: all mutable state is in `storage`, accessed only under its lock.

    typealias Handler = @Sendable (Value) -> Void

    private struct Subscriber {
        var id: UInt64
        /// The sequence number of the last value enqueued before this subscriber joined.
        var startSequence: UInt64
        var handler: Handler
    }

    private struct Pending {
        var sequence: UInt64
        var value: Value
        /// Set for a replayed initial value, which goes to that one subscriber only.
        var recipient: UInt64?
    }

    private struct State {
        var subscribers: [Subscriber] = []
        var pending: [Pending] = []
        var pendingHead = 0
        var lastSequence: UInt64 = 0
        var nextID: UInt64 = 0
        var isDelivering = false
    }

    private let storage = LockedState<State>.make(State())

    /// Whether anybody listens (publishers may skip work when nobody does).
    var hasSubscribers: Bool {
        storage.withLock { !$0.subscribers.isEmpty }
    }

    /// The number of subscribers.
    var subscriberCount: Int {
        storage.withLock { $0.subscribers.count }
    }

    /// Adds a subscriber that receives every value enqueued after this call, and returns its id.
    ///
    /// With `initial`, the subscriber first receives that value, in order before any value
    /// enqueued later (call ``drain()`` afterwards to deliver it).
    func subscribe(_ handler: @escaping Handler, initial: Value? = nil) -> UInt64 {
        storage.withLock { state in
            state.nextID += 1
            let id = state.nextID
            state.subscribers.append(Subscriber(id: id, startSequence: state.lastSequence, handler: handler))
            if let initial {
                state.lastSequence += 1
                state.pending.append(Pending(sequence: state.lastSequence, value: initial, recipient: id))
            }
            return id
        }
    }

    /// Removes a subscriber; unknown ids are ignored.
    func unsubscribe(_ id: UInt64) {
        storage.withLock { state in
            state.subscribers.removeAll { $0.id == id }
        }
    }

    /// Records `value` for delivery by the next ``drain()``. Cheap when nobody subscribed.
    func enqueue(_ value: Value) {
        storage.withLock { state in
            state.lastSequence += 1
            guard !state.subscribers.isEmpty else { return }
            state.pending.append(Pending(sequence: state.lastSequence, value: value, recipient: nil))
        }
    }

    /// Delivers every pending value in order, unless another thread is already doing so.
    func drain() {
        let shouldDeliver = storage.withLock { state -> Bool in
            guard !state.isDelivering, state.pendingHead < state.pending.count else { return false }
            state.isDelivering = true
            return true
        }
        guard shouldDeliver else { return }
        while let (entry, subscribers) = nextDelivery() {
            for subscriber in subscribers
            where entry.sequence > subscriber.startSequence && (entry.recipient ?? subscriber.id) == subscriber.id {
                subscriber.handler(entry.value)
            }
        }
    }

    /// Takes the next pending value with a snapshot of the subscribers, or ends the delivery.
    private func nextDelivery() -> (Pending, [Subscriber])? {
        storage.withLock { state in
            guard state.pendingHead < state.pending.count else {
                state.pending.removeAll(keepingCapacity: state.pending.count <= 64)
                state.pendingHead = 0
                state.isDelivering = false
                return nil
            }
            let entry = state.pending[state.pendingHead]
            state.pendingHead += 1
            return (entry, state.subscribers)
        }
    }
}
