/// A ``ListQuery``'s result split into groups by a key (``ListQuery/grouped(by:fileID:line:column:)``),
/// each group in the query's order, maintained in O(log n) per changed element whatever the
/// number of groups.
public struct GroupedListQuery<Source: Identifiable & Sendable, Key: Hashable & Sendable, Element>: Sendable
where Source.ID: Sendable {
    /// The query whose result is grouped.
    public let base: ListQuery<Source, Element>
    @usableFromInline let key: @Sendable (Source) -> Key
    @usableFromInline let steps: [_QueryStep]

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

/// An included element's group (by slot) and its entry in that group's tree.
@usableFromInline
struct _GroupMember<Source> {
    @usableFromInline var slot: Int
    @usableFromInline var entry: _ListEntry<Source>

    @inlinable
    init(slot: Int, entry: _ListEntry<Source>) {
        self.slot = slot
        self.entry = entry
    }
}

extension _GroupMember: Sendable where Source: Sendable {}

/// One touched element of a grouped query: where it was and where it is.
@usableFromInline
struct _GroupTouch<Source> {
    @usableFromInline var old: _GroupMember<Source>?
    @usableFromInline var new: _GroupMember<Source>?
    /// The element's offset in its group before the edit, when it was in one and the offset is
    /// needed (-1 otherwise).
    @usableFromInline var oldRank: Int
    /// Whether the element stays in its group with an equal value: the edit is then no change of
    /// the group if its offset is the same after it.
    @usableFromInline var staysEqual: Bool
    /// Whether the element kept its group and its place in the order, and is replaced in its
    /// tree rather than removed and inserted.
    @usableFromInline var inPlace = false
    /// Whether it was replaced in a group no element leaves or enters: its offset is the same
    /// after the edits (`oldRank`).
    @usableFromInline var keepsOffset = false

    /// The slots of `old` and `new` (-1: none), read without copying the members.
    @usableFromInline var oldSlot: Int
    @usableFromInline var newSlot: Int

    @inlinable
    init(old: _GroupMember<Source>?, new: _GroupMember<Source>?, oldRank: Int, staysEqual: Bool) {
        self.old = old
        self.new = new
        self.oldRank = oldRank
        self.staysEqual = staysEqual
        self.oldSlot = old?.slot ?? -1
        self.newSlot = new?.slot ?? -1
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
        let project = _project
        let keyOfSource: @Sendable (Source) -> Key
        if _isIdentity, let direct = key as? @Sendable (Source) -> Key {
            keyOfSource = direct
        } else {
            keyOfSource = { key(project($0)) }
        }
        return GroupedListQuery(base: self, key: keyOfSource, steps: _steps._appending(_QueryStep(.group, fileID, line, column)))
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

    /// Applies the list's changes (the `touched` elements, each with its entry before them) to
    /// `state`; returns the keys whose group changed, and records their element changes by slot in
    /// `perSlot` when it is not nil.
    @inlinable
    func _follow(_ touched: [_TouchedElement<Source>], in state: inout GroupedListState<Source, Key, Element>,
                 touches perSlot: inout [Int: [ListViewChanges<Element>._Touch]]?) -> Set<Key> {
        let less = base._entryOrder
        let recording = perSlot != nil
        var equality = _Equality<Element>()
        // Read once: `source` is computed (a copy of the list, four references retained and
        // released, per read), and a closure read from `base` per element is retained and released.
        let source = self.source
        let project = base._project
        var touches: [_GroupTouch<Source>] = []
        touches.reserveCapacity(touched.count)
        for touch in touched {
            // Its group and entry before the edits, from its value and label then.
            var old: _GroupMember<Source>? = nil
            var oldKey: Key? = nil
            if let before = touch.old, let entry = base._entry(before.element, before.label) {
                let key = key(entry.element)
                guard let slot = state.slots.slot(of: key) else {
                    preconditionFailure("GroupedListQuery: an element's group has no slot (a key or filter closure that is not a function of the element?)")
                }
                old = _GroupMember(slot: slot, entry: entry)
                oldKey = key
            }
            var new: _GroupMember<Source>? = nil
            if let found = source._entry(id: touch.id), let entry = base._entry(found.element, found.label) {
                let key = key(entry.element)
                if let old, key == oldKey {
                    new = _GroupMember(slot: old.slot, entry: entry)   // the same group: no second lookup
                } else {
                    let (slot, isNew) = state.slots.slot(adding: key)
                    if isNew { state.trees.append(_OrderedTree()) }
                    new = _GroupMember(slot: slot, entry: entry)
                }
            }
            guard old != nil || new != nil else { continue }
            var staysEqual = false
            var inPlace = false
            if let old, let new, old.slot == new.slot {
                staysEqual = equality.areEqual(project(old.entry.element), project(new.entry.element))
                // Same group, same place in its order (an edit the sort key does not see).
                inPlace = !less(old.entry, new.entry) && !less(new.entry, old.entry)
            }
            var touch = _GroupTouch(old: old, new: new, oldRank: -1, staysEqual: staysEqual)
            touch.inPlace = inPlace
            touches.append(touch)
        }
        // The groups an element leaves or enters: there, offsets move, so ranks are taken before
        // any edit and again after them all. In the other groups every touched element is
        // replaced where it is, and keeps its offset: one walk down its tree each.
        // By index, here and below: a `_GroupTouch` holds two entries, and a copy of one (a
        // `for touch in touches` loop makes one per element) retains what each entry references.
        var moving: Set<Int>? = nil
        for index in touches.indices where !touches[index].inPlace {
            if moving == nil { moving = [] }
            if touches[index].oldSlot >= 0 { moving!.insert(touches[index].oldSlot) }
            if touches[index].newSlot >= 0 { moving!.insert(touches[index].newSlot) }
        }
        for index in touches.indices {
            guard let old = touches[index].old else { continue }
            let needsRank = touches[index].staysEqual || recording
            if touches[index].inPlace, !(moving?.contains(old.slot) ?? false) {
                let new = touches[index].new!.entry
                let rank = state.trees.update(old.slot) { $0.replace(old.entry, with: new, less) }
                touches[index].oldRank = rank
                touches[index].keepsOffset = true
            } else if needsRank {
                touches[index].oldRank = state.trees[old.slot].rank(of: old.entry, less)   // before any edit of the trees
            }
        }
        // All removals before any insertion: a renumbered element's new place in the order may
        // be one a touched element still holds.
        for index in touches.indices where !touches[index].keepsOffset {
            guard let old = touches[index].old else { continue }
            if touches[index].inPlace {
                let new = touches[index].new!.entry
                state.trees.update(old.slot) { _ = $0.replace(old.entry, with: new, less) }
                continue
            }
            let isEmpty = state.trees.update(old.slot) { tree in
                tree.remove(old.entry, less)
                return tree.count == 0
            }
            if isEmpty { state.groupCount -= 1 }
            state.includedCount -= 1
        }
        for index in touches.indices where !touches[index].inPlace {
            guard let new = touches[index].new else { continue }
            let wasEmpty = state.trees.update(new.slot) { tree in
                defer { tree.insert(new.entry, less) }
                return tree.count == 0
            }
            if wasEmpty { state.groupCount += 1 }
            state.includedCount += 1
        }
        var changedSlots: Set<Int> = []
        for index in touches.indices {
            let (oldSlot, newSlot, oldRank, staysEqual) = (touches[index].oldSlot, touches[index].newSlot,
                                                           touches[index].oldRank, touches[index].staysEqual)
            var newRank = -1
            if touches[index].keepsOffset {
                newRank = oldRank
            } else if newSlot >= 0, staysEqual || recording, let new = touches[index].new {
                newRank = state.trees[newSlot].rank(of: new.entry, less)
            }
            // Same group, same place, equal value: no change of the group.
            let unchanged = staysEqual && newRank == oldRank
            if !unchanged {
                if oldSlot >= 0 { changedSlots.insert(oldSlot) }
                if newSlot >= 0 { changedSlots.insert(newSlot) }
            }
            guard recording else { continue }
            var keyChanged = false
            if !touches[index].inPlace, oldSlot >= 0, oldSlot == newSlot, let old = touches[index].old, let new = touches[index].new {
                keyChanged = less(old.entry, new.entry) || less(new.entry, old.entry)
            }
            // An element at the same offset whose place among the others changed (others touched
            // in its group moved around it) is a move for the view's changes.
            if unchanged, !keyChanged { continue }
            let oldSide = touches[index].old.map { (offset: oldRank, element: project($0.entry.element)) }
            let newSide = touches[index].new.map { (offset: newRank, element: project($0.entry.element)) }
            if oldSlot >= 0, oldSlot == newSlot {
                perSlot![oldSlot, default: []].append(.init(old: oldSide, new: newSide, keyChanged: keyChanged))
            } else {
                if oldSlot >= 0 { perSlot![oldSlot, default: []].append(.init(old: oldSide, new: nil, keyChanged: false)) }
                if newSlot >= 0 { perSlot![newSlot, default: []].append(.init(old: nil, new: newSide, keyChanged: false)) }
            }
        }
        var changedKeys = Set<Key>(minimumCapacity: changedSlots.count)
        for slot in changedSlots { changedKeys.insert(state.slots.key(at: slot)) }
        return changedKeys
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
