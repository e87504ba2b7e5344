/// Pointing a query at a later value of its list (`_replaceSource(with:)`): a generated value whose
/// closures read nothing but constants builds its query once, on its first evaluation, and then
/// only swaps the list in after each edit. Building `messages.filter { … }.sorted(by: \.date)`
/// allocates each operator's closures and its step array; swapping the list allocates nothing, and
/// the pipeline finds the same steps (the same array) as last time at once.

extension IncrementalListQuery {
    /// False: this query's source is not an ``IdentifiedList`` it can be pointed at (a view of a
    /// view, a misuse). Not meant to be called by hand.
    @inlinable
    public mutating func _replaceSource(with list: IdentifiedList<Source>) -> Bool { false }
}

extension ListQuery {
    /// This query over `list`, with the same operators. Not meant to be called by hand.
    @inlinable
    public mutating func _replaceSource(with list: IdentifiedList<Source>) -> Bool {
        self = ListQuery(source: list, include: _include, order: _order, project: _project, steps: _steps,
                         isIdentity: _isIdentity, fullSort: _fullSort, entryLess: _entryLess)
        return true
    }
}

extension PrefixListQuery {
    /// This query over `list`, with the same operators. Not meant to be called by hand.
    @inlinable
    public mutating func _replaceSource(with list: IdentifiedList<Source>) -> Bool {
        var base = base
        _ = base._replaceSource(with: list)
        self = PrefixListQuery(base: base, limit: limit, step: _step)
        return true
    }
}

extension ListFoldQuery {
    /// This fold over `list`, with the same operators. Not meant to be called by hand.
    @inlinable
    public mutating func _replaceSource(with list: IdentifiedList<Source>) -> Bool {
        self = ListFoldQuery(source: list, include: include, contribution: contribution, initial: initial, add: add,
                             remove: remove, steps: steps)
        return true
    }
}

extension KeyedFoldQuery {
    /// This fold over `list`, with the same operators. Not meant to be called by hand.
    @inlinable
    public mutating func _replaceSource(with list: IdentifiedList<Source>) -> Bool {
        self = KeyedFoldQuery(source: list, include: include, key: key, contribution: contribution, steps: steps)
        return true
    }
}

extension GroupedListQuery {
    /// These groups over `list`, with the same operators. Not meant to be called by hand.
    @inlinable
    public mutating func _replaceSource(with list: IdentifiedList<Source>) -> Bool {
        var base = base
        _ = base._replaceSource(with: list)
        self = GroupedListQuery(base: base, key: key, steps: steps)
        return true
    }
}

extension SectionedListQuery {
    /// These sections over `list`, with the same operators and key order. Not meant to be called
    /// by hand.
    @inlinable
    public mutating func _replaceSource(with list: IdentifiedList<Source>) -> Bool {
        var groups = groups
        _ = groups._replaceSource(with: list)
        let orderMoved = _orderMoved
        self = SectionedListQuery(groups: groups, less: _less, steps: _steps)
        _orderMoved = orderMoved
        return true
    }
}
