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
