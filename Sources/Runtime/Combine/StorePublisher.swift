// Combine interop, part 1: the publisher type and `Publisher.assign(to:)`.
//
// These files are compiled twice from the same source:
// - in ComputedRuntime, where `import Combine` works (Apple platforms): the product's API;
// - in Compat/ (with COMPUTEDGEN_OPENCOMBINE, as symlinks), against OpenCombine where Combine does
//   not exist, so that Linux CI builds and tests them. On Apple platforms the Compat module leaves
//   them out and its tests use the product's own copy.
// They use only ComputedRuntime's public API, so both builds see the same code.
#if (canImport(Combine) && !COMPUTEDGEN_OPENCOMBINE) || (COMPUTEDGEN_OPENCOMBINE && !canImport(Combine))
#if COMPUTEDGEN_OPENCOMBINE
import ComputedRuntime
import OpenCombineShim
#else
import Combine
#endif
import Foundation

/// A Combine publisher of a store's states, a selection, a ``Derived`` value or a ``Shared``
/// value: the current value first, then the same values the matching async sequence delivers.
///
/// Made by ``Store/publisher``, ``Store/publisher(for:)``,
/// ``Derived/publisher``, ``Shared/publisher`` and ``SharedReader/publisher``:
///
/// ```swift
/// store.publisher(for: \.count)
///     .map { "\($0) items" }
///     .receive(on: DispatchQueue.main)
///     .sink { label.text = $0 }
///     .store(in: &cancellables)
/// ```
///
/// - **Delivery** goes through the store's own subscription mechanism: values are sent after the
///   commit's lock is released, one at a time, in commit order, on the thread that delivers the
///   store's notifications (normally the committing one). A commit never waits for a subscriber
///   that has no demand; use `receive(on:)` to move work or UI updates to another queue.
/// - **The current value** is sent on subscription, in order before any later change; normally
///   before `sink` returns.
/// - **Demand**: with unlimited demand (`sink`, `assign`) every value is sent. When the
///   subscriber's demand is exhausted, the newest value waits for more demand and replaces any
///   older one that was not sent yet, as the async sequences' `bufferingNewest(1)`.
/// - The publisher never completes. Cancelling the subscription (or releasing its
///   `AnyCancellable`) ends it.
public struct StorePublisher<Output: Sendable>: Publisher, Sendable {
    /// Store publishers never fail.
    public typealias Failure = Never

    /// Starts one subscription: called with the function that receives each value (the current
    /// one first); returns the token that ends it.
    let start: @Sendable (_ send: @escaping @Sendable (Output) -> Void) -> StoreSubscription

    init(start: @escaping @Sendable (_ send: @escaping @Sendable (Output) -> Void) -> StoreSubscription) {
        self.start = start
    }

    /// Attaches `subscriber`: sends it a subscription, then (on demand) the current value and
    /// every later one.
    public func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Never {
        let subscription = StorePublisherSubscription(downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
        subscription.start(start)
    }
}

/// One subscriber's link to a store: keeps the newest undelivered value and sends it when the
/// subscriber has demand.
///
/// Generic over the value only (the subscriber is type-erased), so that the `@Sendable` closure
/// the store calls captures no non-`Sendable` subscriber type.
final class StorePublisherSubscription<Output: Sendable>: Subscription, @unchecked Sendable {
    // Safety: the mutable properties are reached only under `lock`; `downstream` is called
    // without the lock, by one thread at a time (`isDelivering`).

    typealias Downstream = AnySubscriber<Output, Never>

    private let lock = NSLock()
    /// `nil` once cancelled.
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    /// The newest value not sent yet.
    private var pending: Output?
    private var isDelivering = false
    /// The store subscription; `nil` before `start` and after `cancel`.
    private var link: StoreSubscription?

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Subscribes to the source, unless the subscriber cancelled already.
    func start(_ start: @Sendable (_ send: @escaping @Sendable (Output) -> Void) -> StoreSubscription) {
        let link = start { [weak self] value in self?.offer(value) }
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            link.cancel()
            return
        }
        self.link = link
        lock.unlock()
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        self.demand += demand
        lock.unlock()
        deliver()
    }

    func cancel() {
        lock.lock()
        downstream = nil
        pending = nil
        let link = self.link
        self.link = nil
        lock.unlock()
        link?.cancel()
    }

    /// A value from the source (called one at a time, in order).
    private func offer(_ value: Output) {
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        pending = value
        lock.unlock()
        deliver()
    }

    /// Sends the pending value while there is demand, unless another call is already sending
    /// (it will pick up what arrived meanwhile): no value is sent concurrently or out of order,
    /// and a subscriber that requests more or commits from inside `receive` does not recurse.
    private func deliver() {
        lock.lock()
        guard !isDelivering else {
            lock.unlock()
            return
        }
        isDelivering = true
        while demand > 0, let value = pending, let downstream {
            pending = nil
            demand -= 1
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            demand += more
        }
        isDelivering = false
        lock.unlock()
    }
}

#if COMPUTEDGEN_OPENCOMBINE
extension StoreSubscription: @retroactive Cancellable {}
#else
/// A store subscription is a Combine `Cancellable`: `link.store(in: &cancellables)` keeps it in a
/// `Set<AnyCancellable>`, and `AnyCancellable(link)` wraps it.
extension StoreSubscription: Cancellable {}
#endif

extension Publisher where Failure == Never {
    /// Assigns every value of this publisher to `assignee` (typically another store's
    /// ``Store/assignee(_:)``), as Verge's `publisher.assign(to: store.assignee(\.count))`.
    ///
    /// ```swift
    /// let link = publisher.assign(to: store.assignee(\.count))   // keep `link` alive
    /// ```
    ///
    /// The returned token ends the assignment when cancelled or released, as the one from
    /// ``Derived/assign(to:)``; it is also a Combine `Cancellable`, so it can go into a
    /// `Set<AnyCancellable>`. The target store is held weakly: values that arrive after it is
    /// gone are dropped. Distinct from Combine's `assign(to:on:)` (an object's key path) and
    /// `assign(to: &$published)` (a `@Published` property).
    public func assign(to assignee: Assignee<Output>) -> StoreSubscription {
        let cancellable = CancellableBox(sink { assignee($0) })
        return StoreSubscription { cancellable.cancel() }
    }
}

/// Carries an `AnyCancellable` into the `@Sendable` cancel action of a ``StoreSubscription``.
private final class CancellableBox: @unchecked Sendable {
    // Safety: `AnyCancellable.cancel()` may be called from any thread, and it is the only use.
    private let cancellable: AnyCancellable

    init(_ cancellable: AnyCancellable) {
        self.cancellable = cancellable
    }

    func cancel() {
        cancellable.cancel()
    }
}
#endif
