/// A ``ListQuery``'s result split into groups by a key (``ListQuery/grouped(by:fileID:line:column:)-k5fj``),
/// each group in the query's order, maintained in O(log n) per changed element whatever the
/// number of groups.
public struct GroupedListQuery<Source: Identifiable & Sendable, Key: Hashable & Sendable, Element>: Sendable
where Source.ID: Sendable {
    /// The query whose result is grouped.
    public let base: ListQuery<Source, Element>
    @usableFromInline let key: @Sendable (Source) -> Key
    @usableFromInline let steps: [_QueryStep]
    /// `==` of the elements, when the groups were made where they are known to be `Equatable`.
    @usableFromInline var _equal: (@Sendable (Element, Element) -> Bool)? = nil

    @usableFromInline
    init(base: ListQuery<Source, Element>, key: @escaping @Sendable (Source) -> Key, steps: [_QueryStep]) {
        self.base = base
        self.key = key
        self.steps = steps
    }

    /// The list the query reads.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var source: IdentifiedList<Source> { base.source }
}

/// What a pipeline keeps for a ``GroupedListQuery``: a slot per key seen, a tree per slot (in a
/// persistent vector its results share), and the number of included elements. An edited
/// element's group and entry before the edit are computed again from its previous value and
/// label (the list's change record keeps them, see ``ListChanges``): no table by id.
public struct GroupedListState<Source: Identifiable & Sendable, Key: Hashable & Sendable, Element>: Sendable where Source.ID: Sendable {
    @usableFromInline var slots: _KeySlots<Key>
    @usableFromInline var trees: _SlotVector<_OrderedTree<_ListEntry<Source>>>
    /// The number of included elements.
    @usableFromInline var includedCount: Int
    /// The number of non-empty trees.
    @usableFromInline var groupCount: Int
    /// The last result's identity, and its map (to compare groups after a full evaluation).
    @usableFromInline var token: _GroupsToken
    @usableFromInline var project: @Sendable (Source) -> Element
    @usableFromInline let steps: [_QueryStep]

    @inlinable
    init(slots: _KeySlots<Key>, trees: _SlotVector<_OrderedTree<_ListEntry<Source>>>, includedCount: Int,
         groupCount: Int, token: _GroupsToken, project: @escaping @Sendable (Source) -> Element, steps: [_QueryStep]) {
        self.slots = slots
        self.trees = trees
        self.includedCount = includedCount
        self.groupCount = groupCount
        self.token = token
        self.project = project
        self.steps = steps
    }
}

extension ListQuery {
    /// Splits the result into groups by `key`, keeping the query's order within each group.
    ///
    /// - Complexity: O(1) (builds the query; see ``GroupedListQuery`` for its evaluation).
    @inlinable @inline(__always)
    public func grouped<Key: Hashable & Sendable>(by key: @escaping @Sendable (Element) -> Key,
                                                  fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> GroupedListQuery<Source, Key, Element> {
        _grouped(by: key, fileID: fileID, line: line, column: column)
    }

    @inlinable @inline(__always)
    func _grouped<Key: Hashable & Sendable>(by key: @escaping @Sendable (Element) -> Key,
                                            fileID: StaticString, line: UInt, column: UInt) -> GroupedListQuery<Source, Key, Element> {
        let project = _project
        let keyOfSource: @Sendable (Source) -> Key
        if _isIdentity, let direct = key as? @Sendable (Source) -> Key {
            keyOfSource = direct
        } else {
            keyOfSource = { key(project($0)) }
        }
        return GroupedListQuery(base: self, key: keyOfSource, steps: _steps._appending(_QueryStep(.group, fileID, line, column)))
    }

    /// Splits the result into groups by `key`, keeping the query's order within each group; an
    /// edited element is compared with its previous value by its own `==`.
    ///
    /// - Complexity: O(1) (builds the query; see ``GroupedListQuery`` for its evaluation).
    @inlinable @inline(__always)
    public func grouped<Key: Hashable & Sendable>(by key: @escaping @Sendable (Element) -> Key,
                                                  fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> GroupedListQuery<Source, Key, Element> where Element: Equatable & Sendable {
        var query: GroupedListQuery<Source, Key, Element> = _grouped(by: key, fileID: fileID, line: line, column: column)
        query._equal = { $0 == $1 }
        return query
    }
}

extension GroupedListQuery: IncrementalListQuery {
    /// Evaluates the groups (see ``IncrementalListQuery``): following the list's changes costs
    /// O(log n) per changed element, in the groups it leaves and enters, whatever the number of
    /// groups; the result shares every other group with the previous one.
    ///
    /// - Complexity: O(changes · log n) following `changes`, in the groups they touch; otherwise
    ///   O(n log n), and O(n) more to compare the groups with the previous result's.
    @inlinable
    public func evaluate(updating previous: inout GroupedListState<Source, Key, Element>?, changes: ListChanges<Source.ID>?)
        -> (output: ListGroups<Key, Element>, isIncremental: Bool) {
        var touches: [Int: [ListViewChanges<Element>._Touch]]? = nil
        return _evaluate(updating: &previous, changes: changes, touches: &touches, beforeEditing: {})
    }

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` before it edits the trees (see
    /// `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    public func _evaluate(updating previous: inout GroupedListState<Source, Key, Element>?, changes: ListChanges<Source.ID>?,
                          beforeEditing: () -> Void) -> (output: ListGroups<Key, Element>, isIncremental: Bool) {
        var touches: [Int: [ListViewChanges<Element>._Touch]]? = nil
        return _evaluate(updating: &previous, changes: changes, touches: &touches, beforeEditing: beforeEditing)
    }

    /// ``evaluate(updating:changes:)``, recording in `touches` (when not nil) the element changes
    /// of each changed group, by slot, as a view's changes, when it follows the list's changes,
    /// and calling `beforeEditing` before it edits the trees.
    @inlinable
    func _evaluate(updating previous: inout GroupedListState<Source, Key, Element>?, changes: ListChanges<Source.ID>?,
                   touches: inout [Int: [ListViewChanges<Element>._Touch]]?,
                   beforeEditing: () -> Void) -> (output: ListGroups<Key, Element>, isIncremental: Bool) {
        if var state = previous, state.steps == steps, let changes, changes.count <= Swift.max(64, state.includedCount / 4),
           let touched = changes._touched(Source.self) {
            // Let the trees be edited in place where no result holds them: neither `previous` nor
            // the result a memo cell caches, which this one replaces.
            previous = nil
            beforeEditing()
            let changedKeys = _follow(touched, in: &state, touches: &touches)
            // No group changed: the result is equal to the previous one, and says so by sharing
            // its identity (a cutoff keeps the older result; later ones compare to it in O(1)).
            let token = changedKeys.isEmpty ? state.token : _GroupsToken()
            let output = _output(state, token: token, previous: changedKeys.isEmpty ? nil : state.token, changedKeys: changedKeys)
            state.token = token
            previous = state
            return (output, true)
        }
        var state = _evaluateInFull()
        let changedKeys = _changedKeys(from: previous, to: state)
        if changedKeys.isEmpty, let token = previous?.token { state.token = token }
        previous = state
        return (_output(state, token: state.token, previous: nil, changedKeys: changedKeys), false)
    }

    /// The groups evaluated in full, each sorted stably (ties keep list order). O(n log n).
    @inlinable
    func _evaluateInFull() -> GroupedListState<Source, Key, Element> {
        var slots = _KeySlots<Key>()
        var lists = ContiguousArray<ContiguousArray<_ListEntry<Source>>>()
        var includedCount = 0
        for offset in 0..<source.count {
            guard let entry = base._entry(source._elements[offset], source._labels[offset]) else { continue }
            let (slot, isNew) = slots.slot(adding: key(entry.element))
            if isNew { lists.append([]) }
            lists[slot].append(entry)
            includedCount += 1
        }
        var trees = ContiguousArray<_OrderedTree<_ListEntry<Source>>>()
        trees.reserveCapacity(lists.count)
        for var entries in lists {
            if let order = base._order { entries.sort { order($0.element, $1.element) } }
            trees.append(_OrderedTree(sorted: entries))
        }
        return GroupedListState(slots: slots, trees: _SlotVector(trees), includedCount: includedCount, groupCount: trees.count,
                                token: _GroupsToken(), project: base._project, steps: steps)
    }

    /// The keys whose group differs between `old` (the previous full or followed evaluation, if
    /// any) and `new`: compared element by element when `Element` is `Equatable` (O(n)),
    /// otherwise every key of either.
    @inlinable
    func _changedKeys(from old: GroupedListState<Source, Key, Element>?, to new: GroupedListState<Source, Key, Element>) -> Set<Key> {
        var changed: Set<Key> = []
        var equality = _Equality<Element>()
        let isEquatable = equality.isAvailable()
        let compare = old != nil && isEquatable
        new.trees.forEach { slot, tree in
            let key = new.slots.key(at: slot)
            guard compare, let old else { changed.insert(key); return }
            let previous = old.slots.slot(of: key).map { old.trees[$0] } ?? _OrderedTree()
            if !Self._sameElements(previous, old.project, tree, new.project, &equality) { changed.insert(key) }
        }
        old?.trees.forEach { slot, tree in
            let key = old!.slots.key(at: slot)
            if tree.count > 0, new.slots.slot(of: key) == nil { changed.insert(key) }
        }
        return changed
    }

    /// Whether two trees hold elements equal after their maps, in the same order.
    @inlinable
    static func _sameElements(_ lhs: _OrderedTree<_ListEntry<Source>>, _ projectLeft: (Source) -> Element,
                              _ rhs: _OrderedTree<_ListEntry<Source>>, _ projectRight: (Source) -> Element,
                              _ equality: inout _Equality<Element>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.root === rhs.root { return true }
        var left = ContiguousArray<Element>()
        left.reserveCapacity(lhs.count)
        lhs.forEach { left.append(projectLeft($0.element)); return true }
        var offset = 0
        var equal = true
        rhs.forEach { entry in
            equal = equality.areEqual(left[offset], projectRight(entry.element))
            offset += 1
            return equal
        }
        return equal
    }

    /// The result for `state`.
    @inlinable
    func _output(_ state: GroupedListState<Source, Key, Element>, token: _GroupsToken, previous: _GroupsToken?,
                 changedKeys: Set<Key>) -> ListGroups<Key, Element> {
        let storage = _TreeListGroupsStorage(slots: state.slots, trees: state.trees, groupCount: state.groupCount,
                                             project: base._project, token: token, previous: previous)
        return ListGroups(_storage: storage, changedKeys: changedKeys)
    }

    /// Evaluates the groups once, in full (no state kept).
    ///
    /// - Complexity: O(n log n).
    public var groups: ListGroups<Key, Element> {
        var state: GroupedListState<Source, Key, Element>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}
