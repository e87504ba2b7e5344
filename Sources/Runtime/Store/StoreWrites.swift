extension Store {
    /// A writable member of the current state, read as the read-only members are and assigned
    /// as a commit: `store.query = "milk"` is `store.commit { $0.query = "milk" }`, except that a
    /// value `==` to the current one (for an `Equatable` member type) is no write at all: no
    /// commit, no subscriber call, no Observation notification.
    ///
    /// Reading is as for read-only members: inside `withObservationTracking` or a SwiftUI body, a
    /// field of a generated state is tracked on its own. A write tells the observers of what it
    /// changed and nobody else, as any commit does: the observers of that field, of the computed
    /// values that it changed (after cutoff), of the whole state, and the subscribers.
    ///
    /// Because `Store` is a class, `\Store<TodoState>.query` is a `ReferenceWritableKeyPath`, so
    /// SwiftUI's `@Bindable var store: Store<TodoState>` gives bindings, `$store.query`, and
    /// `Bindable(store).query` where a view has no `@Bindable` property. The same holds for the
    /// members of a nested state (`store.shelf.label`, through ``StoreMembers``), for values
    /// inside a member (`$store.settings.fontSize` reads `settings` and writes it back whole) and
    /// for a scoped store (``scope(_:)``), whose writes commit through its parent.
    ///
    /// Computed values stay read-only: `store.computed.visibleCount = 3` does not compile
    /// ("cannot assign to property: 'visibleCount' is a get-only property").
    ///
    /// A read-modify-write through a member (`store.count += 1`, `store.todos.append(todo)`)
    /// reads, then commits the new value: it is not atomic, and copies the value. Write
    /// `store.commit { $0.count += 1 }` for an atomic update in place.
    @_disfavoredOverload
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<State, Value>) -> Value {
        get {
            observedState(member: _observableMemberName(keyPath, in: State.self))[keyPath: keyPath]
        }
        set {
            assign(newValue, at: keyPath, \.self)
        }
    }

    /// Commits `newValue` at `member` of the value at `base`, unless it `==` the value there now
    /// (for an `Equatable` `Value`): then nothing is committed.
    ///
    /// The comparison reads the current state before the commit. A commit by another thread in
    /// between may change the value; the write is then ordered before that commit (when it was
    /// equal, and so skipped) or after it (when it was not), as if it had happened at that moment.
    func assign<Member, Value>(
        _ newValue: Value,
        at base: WritableKeyPath<State, Member>,
        _ member: WritableKeyPath<Member, Value>
    ) {
        let equality = _DynamicEquality<Value>()
        if equality.isEquatable, equality.isEqual(currentValue(at: base, member), newValue) == true {
            return
        }
        commit { $0[keyPath: base][keyPath: member] = newValue }
    }

    /// The value at `member` of the value at `base`, read under the state's lock without copying
    /// the whole state (a scoped store reads its child through the parent), with no Observation
    /// tracking.
    private func currentValue<Member, Value>(
        at base: WritableKeyPath<State, Member>,
        _ member: WritableKeyPath<Member, Value>
    ) -> Value {
        if let rootStorage {
            return rootStorage.withLock { $0.state[keyPath: base][keyPath: member] }
        }
        return currentState[keyPath: base][keyPath: member]
    }
}
