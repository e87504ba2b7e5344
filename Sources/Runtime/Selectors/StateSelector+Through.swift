extension StateSelector {
    /// This selector read through a parent state: the selector of a child state (for example a
    /// generated `ChildState.Selectors.x`) as a selector of the state that holds it, for
    /// `Store.select`, `Store.derived` and `createSelector` on the parent.
    ///
    /// ```swift
    /// let store = Store(AppState())                          // AppState has `var todoList: TodoState`
    /// let visibleCount = TodoState.Selectors.visibleCount.through(\AppState.todoList)
    /// for await count in store.select(visibleCount) { … }  // distinct values of the child's computed
    /// ```
    ///
    /// The result keeps this selector's memoization, counter and versioning: it is versioned when
    /// this selector is, with the child's stamp, so a commit that leaves the child's value alone
    /// publishes nothing. Each call reads `parent[keyPath: path]`, which copies the child state
    /// (its stored properties; the caches are shared, not recomputed). A child field's selector
    /// read through a path of stored properties keeps reading its stamp in place: a memoized
    /// selector over it checks the parent without that copy.
    ///
    /// - Parameter path: Where the parent holds the child state.
    /// - Returns: A selector of the parent state with this selector's value.
    @inlinable
    public func through<Parent>(_ path: KeyPath<Parent, Root> & Sendable) -> StateSelector<Parent, Value> {
        let child = self
        let lifted: @Sendable (Parent) -> Value = { parent in child(parent[keyPath: path]) }
        var liftedVersion: (@Sendable (Parent) -> VersionStamp)?
        if isVersioned {
            liftedVersion = { parent in child.version(parent[keyPath: path]).unsafelyUnwrapped }
        }
        var versionOffset = -1
        if _storage.versionOffset >= 0, let childOffset = MemoryLayout<Parent>.offset(of: path) {
            versionOffset = childOffset + _storage.versionOffset
        }
        return StateSelector<Parent, Value>(
            _select: lifted,
            _version: liftedVersion,
            _counter: _counter,
            _versionOffset: versionOffset
        )
    }
}
