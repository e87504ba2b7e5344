// Combine interop, part 2: the publishers beside the async sequences. Compiled as
// StorePublisher.swift explains (the product on Apple platforms, Compat/ with OpenCombine
// elsewhere); only ComputedRuntime's public API is used.
#if (canImport(Combine) && !COMPUTEDGEN_OPENCOMBINE) || (COMPUTEDGEN_OPENCOMBINE && !canImport(Combine))
#if COMPUTEDGEN_OPENCOMBINE
import ComputedRuntime
import OpenCombineShim
#else
import Combine
#endif
// NSLock. (The runtime's selector type is `StateSelector`, a name Foundation's Objective-C
// `Selector` cannot hide on Apple platforms.)
import Foundation

extension Store {
    /// The current state, then the state after each commit, as a Combine publisher (the
    /// publisher beside ``states``).
    ///
    /// ```swift
    /// store.publisher
    ///     .map(\.query)
    ///     .removeDuplicates()
    ///     .sink { print($0) }
    /// ```
    ///
    /// With unlimited demand every commit is sent; see ``StorePublisher`` for delivery and
    /// demand. A subscription does not keep the store alive.
    public var publisher: StorePublisher<State> {
        StorePublisher { [self] send in
            subscribe(includingCurrent: true, send)
        }
    }

    /// The selector's current value, then each distinct value after a commit, as a Combine
    /// publisher (the publisher beside ``select(_:)-2vtzw``, as ReCombine's `store.select`).
    ///
    /// ```swift
    /// store.publisher(for: TodoState.Selectors.visibleCount)
    ///     .sink { count in print(count) }
    /// ```
    ///
    /// A commit that leaves the selector's version stamp unchanged sends nothing (for generated
    /// selectors: a commit that does not write their inputs), and a value equal (`==`) to the
    /// last one sent is not repeated. The selector runs on the delivering thread after the
    /// commit's lock is released, once per commit for all demand.
    public func publisher<Value: Equatable & Sendable>(
        for selector: StateSelector<State, Value>
    ) -> StorePublisher<Value> {
        selectionPublisher(selector, isEqual: ==)
    }

    /// The selector's current value, then its value after each commit that changed its version
    /// stamp (every commit, for an unversioned selector of a non-`Equatable` value).
    public func publisher<Value: Sendable>(
        for selector: StateSelector<State, Value>
    ) -> StorePublisher<Value> {
        selectionPublisher(selector, isEqual: nil)
    }

    /// The value at `keyPath`, then each distinct (`==`) value after a commit.
    ///
    /// ```swift
    /// store.publisher(for: \.count).sink { print($0) }
    /// ```
    public func publisher<Value: Equatable & Sendable>(
        for keyPath: KeyPath<State, Value> & Sendable
    ) -> StorePublisher<Value> {
        selectionPublisher(StateSelector { $0[keyPath: keyPath] }, isEqual: ==)
    }

    private func selectionPublisher<Value: Sendable>(
        _ selector: StateSelector<State, Value>,
        isEqual: (@Sendable (Value, Value) -> Bool)?
    ) -> StorePublisher<Value> {
        StorePublisher { [self] send in
            let filter = DistinctSelection(selector: selector, isEqual: isEqual)
            return subscribe(includingCurrent: true) { state in
                if let value = filter.next(state) {
                    send(value)
                }
            }
        }
    }
}

/// The per-subscription filter of a selection publisher: the same rule as ``StoreSelection``.
private final class DistinctSelection<State, Value>: @unchecked Sendable {
    // Safety: `last` is reached only under `lock`. (The store calls `next` one state at a time;
    // the lock orders those calls' memory across threads.)

    private let lock = NSLock()
    private let selector: StateSelector<State, Value>
    private let isEqual: (@Sendable (Value, Value) -> Bool)?
    private var last: (value: Value, version: VersionStamp?)?

    init(selector: StateSelector<State, Value>, isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.selector = selector
        self.isEqual = isEqual
    }

    /// The selector's value for `state` when it differs from the last one, `nil` otherwise.
    func next(_ state: State) -> Value? {
        let version = selector.version(state)
        lock.lock()
        let previous = last
        lock.unlock()
        if let previous, let version, previous.version == version {
            return nil
        }
        let value = selector(state)
        lock.lock()
        last = (value, version)
        lock.unlock()
        if let previous, let isEqual, isEqual(previous.value, value) {
            return nil
        }
        return value
    }
}

extension Derived {
    /// The current value, then each new value, as a Combine publisher (the publisher beside
    /// ``values``).
    ///
    /// ```swift
    /// store.derived(\.count).publisher.sink { print($0) }
    /// ```
    ///
    /// A subscription keeps this derived store (and so its source) alive, as
    /// ``assign(to:)`` does, so the chain above needs no other reference to it.
    public var publisher: StorePublisher<Value> {
        StorePublisher { [self] send in
            let link = subscribe(includingCurrent: true, send)
            return StoreSubscription { [self] in
                withExtendedLifetime(self) { link.cancel() }
            }
        }
    }
}

extension Shared {
    /// The current value, then the value after each write by any holder, as a Combine publisher
    /// (TCA's `$count.publisher`; the publisher beside ``values``).
    ///
    /// ```swift
    /// state.$count.publisher
    ///     .map(Action.countUpdated)
    /// ```
    ///
    /// A subscription keeps the reference alive (a `.fileStorage` value stays loaded while
    /// somebody listens).
    public var publisher: StorePublisher<Value> {
        StorePublisher { [self] send in
            let link = subscribe(includingCurrent: true, send)
            return StoreSubscription { [self] in
                withExtendedLifetime(self) { link.cancel() }
            }
        }
    }
}

extension SharedReader {
    /// The current value, then the value after each write, as a Combine publisher; see
    /// ``Shared/publisher``.
    public var publisher: StorePublisher<Value> {
        StorePublisher { [self] send in
            let link = subscribe(includingCurrent: true, send)
            return StoreSubscription { [self] in
                withExtendedLifetime(self) { link.cancel() }
            }
        }
    }
}
#endif
