/// A destination for values: typically a field of a store, made by ``Store/assignee(_:)``.
///
/// ```swift
/// let link = store1.derived(\.count).assign(to: store2.assignee(\.count))
/// let task = someAsyncSequence.assign(to: store2.assignee(\.count))
/// ```
public struct Assignee<Value>: Sendable {
    private let apply: @Sendable (Value) -> Void

    /// An assignee that hands each value to `apply`.
    public init(_ apply: @escaping @Sendable (Value) -> Void) {
        self.apply = apply
    }

    /// Assigns `value`.
    public func callAsFunction(_ value: Value) {
        apply(value)
    }
}

extension Store {
    /// An assignee that commits each value it receives to `keyPath`. The store is held weakly:
    /// values that arrive after it is gone are dropped.
    public func assignee<Value>(_ keyPath: WritableKeyPath<State, Value> & Sendable) -> Assignee<Value> {
        Assignee { [weak self] value in
            self?.commit { $0[keyPath: keyPath] = value }
        }
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Assigns every element of this sequence to `assignee`, from a task that runs until the
    /// sequence ends or the returned token is cancelled or released.
    public func assign(to assignee: Assignee<Element>) -> StoreSubscription {
        let task = Task {
            do {
                for try await element in self {
                    assignee(element)
                }
            } catch {
                // A failing sequence ends the assignment.
            }
        }
        return StoreSubscription { task.cancel() }
    }
}
