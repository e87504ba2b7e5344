import CComputedAtomics

/// A scoped store's access to its parent, with the child's state type only.
class _ScopeLinkBase<Child: Sendable>: @unchecked Sendable {
    func read() -> Child { fatalError("abstract") }

    func commit<Result>(_ mutation: (inout Child) throws -> Result) rethrows -> Result {
        fatalError("abstract")
    }

    func addListener(
        includingCurrent: Bool,
        detection: ChangeDetection<Child>,
        _ handler: @escaping @Sendable (Child) -> Void
    ) -> StoreSubscription {
        fatalError("abstract")
    }
}

/// Reads and commits a child state through its parent store: one source of truth.
final class _ScopeLink<Parent: Sendable, Child: Sendable>: _ScopeLinkBase<Child>, @unchecked Sendable {
    // Safety: immutable after init; the parent store is thread-safe.
    let parent: Store<Parent>
    let keyPath: WritableKeyPath<Parent, Child>

    init(parent: Store<Parent>, keyPath: WritableKeyPath<Parent, Child>) {
        self.parent = parent
        self.keyPath = keyPath
    }

    override func read() -> Child {
        parent.currentState[keyPath: keyPath]
    }

    override func commit<Result>(_ mutation: (inout Child) throws -> Result) rethrows -> Result {
        try parent.commit { try mutation(&$0[keyPath: keyPath]) }
    }

    /// Listens to the parent's changes and passes on those that changed the child: each
    /// listener compares the child with the last one it saw, in the parent's commit order.
    override func addListener(
        includingCurrent: Bool,
        detection: ChangeDetection<Child>,
        _ handler: @escaping @Sendable (Child) -> Void
    ) -> StoreSubscription {
        let tracker = LockedBox(_ChildTracker<Child>())
        let keyPath = UncheckedSendable(keyPath)
        return parent.addListener(includingCurrent: true) { parentState in
            var child = parentState[keyPath: keyPath.value]
            let changed = tracker.withLock { $0.observe(&child, detection) }
            if _slowPath(cg_change_trace_active()), let changed {
                _traceScopeComparison(Parent.self, Child.self, keyPath: keyPath.value, woken: changed)
            }
            if changed ?? includingCurrent {
                handler(child)
            }
        }
    }
}

/// Carries a value that is only read (a key path) into a `@Sendable` closure.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

extension Store {
    /// A child store for the state at `keyPath`: it reads and commits that state through this
    /// store (one source of truth), and its `state`, `commit`, `subscribe`, `states`, `select`,
    /// `derived` and Observation see the child only.
    ///
    /// ```swift
    /// let settings = store.scope(\.settings)       // Store<Settings>
    /// settings.commit { $0.theme = .dark }           // commits to store's state
    /// settings.subscribe { print($0.theme) }         // only commits that changed settings
    /// let theme = settings.scope(\.theme)            // scopes compose
    /// ```
    ///
    /// A child's subscribers hear of a parent commit only when it changed the child: by its
    /// version stamps for a generated state, `==` for another `Equatable` one, else always.
    /// The child keeps its parent alive; the parent does not keep the child.
    ///
    /// What is registered through a scope is tied to the scope's lifetime, so dropping scopes
    /// leaks nothing: when the scope is released, the parent stops listening for it (its commits
    /// are as cheap as before the scope was observed), and observers that read through it are not
    /// notified any more. Hold a scope that a view observes (a view property), rather than making
    /// one in the body and dropping it. A subscription made on a scope (`subscribe`, `states`,
    /// `select`) lasts as long as its token or consumer, whether the scope is kept or not.
    public func scope<Child: Sendable>(_ keyPath: WritableKeyPath<State, Child>) -> Store<Child> {
        Store<Child>(scope: _ScopeLink(parent: self, keyPath: keyPath))
    }
}
