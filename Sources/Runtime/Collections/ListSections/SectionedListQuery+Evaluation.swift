extension SectionedListQuery: IncrementalListQuery {
    /// Evaluates the sections (see ``IncrementalListQuery``): the groups as
    /// ``GroupedListQuery`` evaluates them, then the key order. Following the list's changes,
    /// the sections that appear or disappear are placed in O(log k) each; after
    /// ``keyOrderChanged()``, or a full evaluation, the keys are sorted again.
    ///
    /// - Complexity: O(changes · log n) following `changes` (in the groups they touch), and
    ///   O(log k) per section that appears or disappears; O(k log k) more to sort the k keys
    ///   again; otherwise O(n log n).
    @inlinable
    public func evaluate(updating previous: inout SectionedListState<Source, Key, Element>?, changes: ListChanges<Source.ID>?)
        -> (output: ListSections<Key, Element>, isIncremental: Bool) {
        _evaluate(updating: &previous, changes: changes, beforeEditing: {})
    }

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` before it edits the groups' trees
    /// (see `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    public func _evaluate(updating previous: inout SectionedListState<Source, Key, Element>?, changes: ListChanges<Source.ID>?,
                          beforeEditing: () -> Void) -> (output: ListSections<Key, Element>, isIncremental: Bool) {
        let sameOrder = previous?.steps == _steps
        let oldOrder = previous?.order
        // The previous result's groups, for the sections' element changes after a full
        // evaluation; following the list, the groups record those changes, and these are let go
        // of before the groups' trees, which they share, are edited.
        var oldOutput = previous?.output
        let oldSlots = previous?.output.slots
        var tieBreak = previous?.tieBreak
        var groupsState = previous?.groups
        previous = nil   // let the groups' trees be edited in place where no result holds them
        var touches: [Int: [ListViewChanges<Element>._Touch]]? = [:]
        let (groupsOutput, followed) = groups._evaluate(updating: &groupsState, changes: changes, touches: &touches) {
            oldOutput = nil
            beforeEditing()
        }
        guard let state = groupsState else { preconditionFailure("SectionedListQuery: the groups kept no state") }
        if tieBreak == nil { tieBreak = _Tiebreak(_comparisonTest(Key.self)) }
        let less = Self._slotOrder(state.slots, _less, tieBreak!)
        var order: _OrderedTree<Int>
        let sectionChanges: ListSectionChanges<Key>
        if followed, sameOrder, !_orderMoved, var kept = oldOrder {
            // The order is the same: only the sections that appeared or disappeared move.
            var gone: [(offset: Int, key: Key, slot: Int)] = []
            var arrived: [Int] = []
            for key in groupsOutput.changedKeys {
                guard let slot = state.slots.slot(of: key) else { continue }
                let isEmpty = state.trees[slot].count == 0
                let offset = kept.rank(of: slot, less)
                let isPresent = offset < kept.count && kept[offset] == slot
                if isEmpty, isPresent { gone.append((offset, key, slot)) }
                if !isEmpty, !isPresent { arrived.append(slot) }
            }
            for section in gone { kept.remove(section.slot, less) }
            for slot in arrived { kept.insert(slot, less) }
            let insertions = arrived.map { (offset: kept.rank(of: $0, less), key: state.slots.key(at: $0)) }
            order = kept
            sectionChanges = ListSectionChanges(
                _storage: .followed(removals: gone.map { ($0.offset, $0.key) }, insertions: insertions), changedKeys: groupsOutput.changedKeys)
        } else {
            var slots = ContiguousArray<Int>()
            slots.reserveCapacity(state.groupCount)
            if followed, let oldOrder {
                // The previous order first, then the sections that appeared: the sort (adaptive,
                // on runs already in order) then costs O(k) comparisons when the new order moves
                // a few keys, rather than O(k log k).
                var placed = [Bool](repeating: false, count: state.slots.count)
                oldOrder.forEach { slot in
                    if state.trees[slot].count > 0 { slots.append(slot) }
                    placed[slot] = true
                    return true
                }
                state.trees.forEach { slot, tree in
                    if tree.count > 0, !placed[slot] { slots.append(slot) }
                }
            } else {
                state.trees.forEach { slot, tree in
                    if tree.count > 0 { slots.append(slot) }
                }
            }
            slots.sort(by: { less($0, $1) })
            order = _OrderedTree(sorted: slots)
            let old = oldOrder.flatMap { tree in oldSlots.map { _KeyOrder(tree: tree, slots: $0) } }
            sectionChanges = ListSectionChanges(_storage: .compared(old: old, new: _KeyOrder(tree: order, slots: state.slots)),
                                                changedKeys: groupsOutput.changedKeys)
        }
        previous = SectionedListState(groups: state, order: order, output: groupsOutput._storage, tieBreak: tieBreak!, steps: _steps)
        let output = ListSections(groups: groupsOutput, _order: order, changes: sectionChanges, _previous: oldOutput,
                                  _touches: followed ? touches : nil)
        return (output, followed)
    }

    /// The strict total order of the slots: their keys by `less`, then by `tieBreak` (the keys'
    /// own order, when `Key` is `Comparable`), then by slot.
    @inlinable
    static func _slotOrder(_ slots: _KeySlots<Key>, _ less: @escaping @Sendable (Key, Key) -> Bool,
                           _ tieBreak: _Tiebreak<Key>) -> _EntryOrder<Int> {
        return _EntryOrder { a, b in
            if a == b { return false }
            let (left, right) = (slots.key(at: a), slots.key(at: b))
            if less(left, right) { return true }
            if less(right, left) { return false }
            if let tieBreak = tieBreak.less {
                if tieBreak(left, right) { return true }
                if tieBreak(right, left) { return false }
            }
            return a < b
        }
    }

    /// Evaluates the sections once, in full (no state kept).
    ///
    /// - Complexity: O(n log n).
    public var sections: ListSections<Key, Element> {
        var state: SectionedListState<Source, Key, Element>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}

/// The keys' own order, when they are `Comparable` (found once per pipeline).
public struct _Tiebreak<Key>: @unchecked Sendable {
    // Safety: a comparison of values made from a metatype; it captures nothing mutable.
    @usableFromInline let less: ((Key, Key) -> Bool)?

    @inlinable
    init(_ less: ((Key, Key) -> Bool)?) {
        self.less = less
    }
}

/// `<` of `Value` if it is `Comparable`.
@usableFromInline
func _comparisonTest<Value>(_: Value.Type) -> ((Value, Value) -> Bool)? {
    guard let comparable = Value.self as? any Comparable.Type else { return nil }
    return _openedComparison(comparable, Value.self)
}

/// `<` of `Same`, which is `Value`, on values of `Value`.
private func _openedComparison<Same: Comparable, Value>(_: Same.Type, _: Value.Type) -> (Value, Value) -> Bool {
    // Safety: `Same` is `Value` (found by casting `Value.self`).
    return { lhs, rhs in unsafeBitCast(lhs, to: Same.self) < unsafeBitCast(rhs, to: Same.self) }
}
