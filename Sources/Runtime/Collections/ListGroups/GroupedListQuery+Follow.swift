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

/// A touched element that left its group, entered one, or moved in its group's order: where it
/// was and where it is.
@usableFromInline
struct _GroupTouch<Source> {
    @usableFromInline var old: _GroupMember<Source>?
    @usableFromInline var new: _GroupMember<Source>?
    /// The element's offset in its group before the edits, when it was in one and the offset is
    /// needed (-1 otherwise).
    @usableFromInline var oldRank: Int
    /// Whether the element stays in its group with an equal value: the edit is then no change of
    /// the group if its offset is the same after it.
    @usableFromInline var staysEqual: Bool
    /// The slots of `old` and `new` (-1: none), read without copying the members.
    @usableFromInline var oldSlot: Int
    @usableFromInline var newSlot: Int

    @inlinable
    init(old: _GroupMember<Source>?, new: _GroupMember<Source>?, staysEqual: Bool) {
        self.old = old
        self.new = new
        self.oldRank = -1
        self.staysEqual = staysEqual
        self.oldSlot = old?.slot ?? -1
        self.newSlot = new?.slot ?? -1
    }
}

/// A touched element that kept its group and its place in the order, and was replaced in its
/// tree where it is: no entry kept, only where it is (plain values, copied without retains).
@usableFromInline
struct _ReplacedTouch {
    @usableFromInline var slot: Int
    /// Its offset in its group before the edits (a replacement moves no offset).
    @usableFromInline var rank: Int
    /// Its index in the touched elements.
    @usableFromInline var index: Int
    /// The index of its recorded change in its group's changes (-1: none recorded).
    @usableFromInline var position: Int
    @usableFromInline var staysEqual: Bool

    @inlinable
    init(slot: Int, rank: Int, index: Int, position: Int, staysEqual: Bool) {
        self.slot = slot
        self.rank = rank
        self.index = index
        self.position = position
        self.staysEqual = staysEqual
    }
}

/// The element changes recorded for a run of touched elements of one group, added to the
/// group's changes when the run ends: one dictionary access per run rather than two per element.
@usableFromInline
struct _SlotRun<Element> {
    @usableFromInline var slot = -1
    @usableFromInline var touches: [ListViewChanges<Element>._Touch] = []
    /// How many changes the group had recorded when the run started.
    @usableFromInline var base = 0

    @inlinable
    init() {}

    /// Records the change `touch` makes of a replaced element in `slot`, unless it `staysEqual`
    /// (then its group does not change); returns its index in the group's changes (-1: none
    /// recorded). Touched elements come in runs of one group (the rows of one renamed feed): the
    /// group is looked up once per run, not per element.
    @inlinable
    mutating func record(in slot: Int, staysEqual: Bool, changedSlots: inout Set<Int>,
                         perSlot: inout [Int: [ListViewChanges<Element>._Touch]]?,
                         _ touch: () -> ListViewChanges<Element>._Touch) -> Int {
        guard !staysEqual else { return -1 }
        if slot != self.slot {
            flush(into: &perSlot)
            changedSlots.insert(slot)
            self.slot = slot
            base = perSlot?[slot]?.count ?? 0
        }
        guard perSlot != nil else { return -1 }
        touches.append(touch())
        return base + touches.count - 1
    }

    @inlinable
    mutating func flush(into perSlot: inout [Int: [ListViewChanges<Element>._Touch]]?) {
        defer { slot = -1 }
        guard slot >= 0, !touches.isEmpty, perSlot != nil else { return }
        // Moved, not copied, into a group that has no changes yet (each touch holds two elements).
        let run = touches
        touches = []
        if perSlot![slot] == nil {
            perSlot![slot] = run
        } else {
            perSlot![slot]!.append(contentsOf: run)
        }
    }
}

extension GroupedListQuery {
    /// Applies the list's changes (the `touched` elements, each with its entry before them) to
    /// `state`; returns the keys whose group changed, and records their element changes by slot in
    /// `perSlot` when it is not nil.
    ///
    /// A touched element that keeps its group and its place in the order (an edit the key and
    /// the sort do not see, the common case) is replaced in its tree as soon as it is found: one
    /// walk down the tree, which moves no offset, so the rank found on the way is its offset
    /// before the edits, and its change is recorded then. The others (left, entered, moved) are
    /// kept whole, their ranks taken before any removal, and placed after all removals. Where one
    /// of those leaves or enters a group, the offsets after the edits of the replaced elements of
    /// that group are found again at the end.
    @inlinable
    func _follow(_ touched: [_TouchedElement<Source>], in state: inout GroupedListState<Source, Key, Element>,
                 touches perSlot: inout [Int: [ListViewChanges<Element>._Touch]]?) -> Set<Key> {
        let less = base._entryOrder
        let recording = perSlot != nil
        var equality = _Equality<Element>(known: _equal)
        // Read once: `source` is computed (a copy of the list, four references retained and
        // released, per read), and a closure read from `base` per element is retained and released.
        let source = self.source
        let project = base._project
        var changedSlots: Set<Int> = []
        var replaced: [_ReplacedTouch] = []
        replaced.reserveCapacity(touched.count)
        var touches: [_GroupTouch<Source>] = []
        var run = _SlotRun<Element>()
        let include = base._include
        for index in touched.indices {
            // An element included before and after the edits: the entries are read where they are
            // (the touched element's entry before the edits, the list's element and label now), each
            // once, without the optional entries and members of the path below (a read of
            // `touched[index]` or of the list's element copies it, and a copy of an optional entry
            // goes through the element type's value witnesses). The element is looked for first
            // where its last edit left it: no lookup in the id index, most of whose reads miss the
            // caches in a large list.
            if let before = touched[index].old, include?(before.element) ?? true,
               let offset = source._offset(of: before.element.id, hint: touched[index].offset) {
                let entry = _ListEntry(element: source._elements[offset], label: source._labels[offset])
                let oldKey = key(before.element)
                if include?(entry.element) ?? true, oldKey == key(entry.element), !less(before, entry), !less(entry, before) {
                    // The same group and the same place in its order: replaced where it is, now.
                    guard let slot = state.slots.slot(of: oldKey) else {
                        preconditionFailure("GroupedListQuery: an element's group has no slot (a key closure that is not a function of the element?)")
                    }
                    let staysEqual = equality.areEqual(project(before.element), project(entry.element))
                    let rank = state.trees.update(slot) { $0.replace(before, with: entry, less) }
                    let position = run.record(in: slot, staysEqual: staysEqual, changedSlots: &changedSlots, perSlot: &perSlot) {
                        .init(old: (rank, project(before.element)), new: (rank, project(entry.element)), keyChanged: false)
                    }
                    replaced.append(_ReplacedTouch(slot: slot, rank: rank, index: index, position: position, staysEqual: staysEqual))
                    continue
                }
            }
            // Its group and entry before the edits, from its value and label then.
            var old: _GroupMember<Source>? = nil
            var oldKey: Key? = nil
            if let before = touched[index].old, let entry = base._entry(before.element, before.label) {
                let key = key(entry.element)
                guard let slot = state.slots.slot(of: key) else {
                    preconditionFailure("GroupedListQuery: an element's group has no slot (a key or filter closure that is not a function of the element?)")
                }
                old = _GroupMember(slot: slot, entry: entry)
                oldKey = key
            }
            var new: _GroupMember<Source>? = nil
            if let found = source._entry(id: touched[index].id, hint: touched[index].offset), let entry = base._entry(found.element, found.label) {
                let key = key(entry.element)
                if let old, key == oldKey {
                    // The same group (in another place in its order: the same place was handled
                    // above): no second lookup.
                    new = _GroupMember(slot: old.slot, entry: entry)
                } else {
                    let (slot, isNew) = state.slots.slot(adding: key)
                    if isNew { state.trees.append(_OrderedTree()) }
                    new = _GroupMember(slot: slot, entry: entry)
                }
            }
            guard old != nil || new != nil else { continue }
            var staysEqual = false
            if let old, let new, old.slot == new.slot {
                staysEqual = equality.areEqual(project(old.entry.element), project(new.entry.element))
            }
            touches.append(_GroupTouch(old: old, new: new, staysEqual: staysEqual))
        }
        run.flush(into: &perSlot)
        if !touches.isEmpty {
            _place(&touches, in: &state, changedSlots: &changedSlots, recording: recording, perSlot: &perSlot)
            // The groups an element left or entered: there the replaced elements' offsets after
            // the edits are found again.
            var moving: Set<Int> = []
            for index in touches.indices {
                if touches[index].oldSlot >= 0 { moving.insert(touches[index].oldSlot) }
                if touches[index].newSlot >= 0 { moving.insert(touches[index].newSlot) }
            }
            for touch in replaced where moving.contains(touch.slot) {
                guard let found = source._entry(id: touched[touch.index].id, hint: touched[touch.index].offset), let entry = base._entry(found.element, found.label) else {
                    preconditionFailure("GroupedListQuery: a replaced element is gone")
                }
                let newRank = state.trees[touch.slot].rank(of: entry, less)
                guard newRank != touch.rank else { continue }
                if touch.staysEqual {
                    changedSlots.insert(touch.slot)
                    guard recording, let before = touched[touch.index].old else { continue }
                    perSlot![touch.slot, default: []].append(.init(
                        old: (touch.rank, project(before.element)), new: (newRank, project(entry.element)), keyChanged: false))
                } else if recording {
                    perSlot![touch.slot]![touch.position].new!.offset = newRank
                }
            }
        }
        var changedKeys = Set<Key>(minimumCapacity: changedSlots.count)
        for slot in changedSlots { changedKeys.insert(state.slots.key(at: slot)) }
        return changedKeys
    }

    /// Removes the `touches` that leave a place and inserts those that take one, ranks taken
    /// before any removal and after every insertion; adds the slots they change to `changedSlots`
    /// and, when `recording`, their element changes to `perSlot`.
    @inlinable
    func _place(_ touches: inout [_GroupTouch<Source>], in state: inout GroupedListState<Source, Key, Element>,
                changedSlots: inout Set<Int>, recording: Bool, perSlot: inout [Int: [ListViewChanges<Element>._Touch]]?) {
        let less = base._entryOrder
        let project = base._project
        // By index, here and below: a `_GroupTouch` holds two entries, and a copy of one (a
        // `for touch in touches` loop makes one per element) retains what each entry references.
        for index in touches.indices where touches[index].oldSlot >= 0 && (touches[index].staysEqual || recording) {
            // Before any edit of the trees.
            touches[index].oldRank = state.trees[touches[index].oldSlot].rank(of: touches[index].old!.entry, less)
        }
        // All removals before any insertion: a renumbered element's new place in the order may
        // be one a touched element still holds.
        for index in touches.indices where touches[index].oldSlot >= 0 {
            let isEmpty = state.trees.update(touches[index].oldSlot) { tree in
                tree.remove(touches[index].old!.entry, less)
                return tree.count == 0
            }
            if isEmpty { state.groupCount -= 1 }
            state.includedCount -= 1
        }
        for index in touches.indices where touches[index].newSlot >= 0 {
            let wasEmpty = state.trees.update(touches[index].newSlot) { tree in
                defer { tree.insert(touches[index].new!.entry, less) }
                return tree.count == 0
            }
            if wasEmpty { state.groupCount += 1 }
            state.includedCount += 1
        }
        for index in touches.indices {
            let (oldSlot, newSlot, oldRank, staysEqual) = (touches[index].oldSlot, touches[index].newSlot,
                                                           touches[index].oldRank, touches[index].staysEqual)
            var newRank = -1
            if newSlot >= 0, staysEqual || recording {
                newRank = state.trees[newSlot].rank(of: touches[index].new!.entry, less)
            }
            // Same group, same place, equal value: no change of the group.
            let unchanged = staysEqual && newRank == oldRank
            if !unchanged {
                if oldSlot >= 0 { changedSlots.insert(oldSlot) }
                if newSlot >= 0 { changedSlots.insert(newSlot) }
            }
            guard recording else { continue }
            // Every touch here that stays in its group moved in its order: a move for the view.
            let keyChanged = oldSlot >= 0 && oldSlot == newSlot
            // An element at the same offset whose place among the others changed (others touched
            // in its group moved around it) is a move too.
            if unchanged, !keyChanged { continue }
            let oldSide = touches[index].old.map { (offset: oldRank, element: project($0.entry.element)) }
            let newSide = touches[index].new.map { (offset: newRank, element: project($0.entry.element)) }
            if keyChanged {
                perSlot![oldSlot, default: []].append(.init(old: oldSide, new: newSide, keyChanged: true))
            } else {
                if oldSlot >= 0 { perSlot![oldSlot, default: []].append(.init(old: oldSide, new: nil, keyChanged: false)) }
                if newSlot >= 0 { perSlot![newSlot, default: []].append(.init(old: nil, new: newSide, keyChanged: false)) }
            }
        }
    }
}
