/// What a pipeline keeps for a ``ListQuery`` or ``PrefixListQuery``: the included source
/// elements in a tree ordered by the query's order, and how the last result was cut and mapped.
///
/// No table by id: when a source element changes, its old place in the tree is found from the
/// value and label it had before (the list's change record keeps them, see ``ListChanges``).
public struct ListQueryState<Source: Identifiable & Sendable, Element>: Sendable where Source.ID: Sendable {
    @usableFromInline var tree: _OrderedTree<_ListEntry<Source>>
    @usableFromInline let steps: [_QueryStep]
    /// The prefix length of the last result (nil: all).
    @usableFromInline var limit: Int?
    /// The last result's map (to list its elements when the next result is a reload).
    @usableFromInline var project: @Sendable (Source) -> Element
    /// The record of the changes of the views this state makes, for queries chained from them
    /// (nil when none may chain: see `ListQuery._newLineage`), and the last view's place in it.
    @usableFromInline var lineage: _ListViewLineage<Source>?
    @usableFromInline var sequence: UInt64 = 0

    @inlinable
    init(tree: _OrderedTree<_ListEntry<Source>>, steps: [_QueryStep], limit: Int?,
         project: @escaping @Sendable (Source) -> Element) {
        self.tree = tree
        self.steps = steps
        self.limit = limit
        self.project = project
    }

    /// The number of source elements the query includes (before any prefix).
    public var includedCount: Int { tree.count }
}

/// One touched source element: its entry and offset before and after an update.
@usableFromInline
struct _TouchRecord<Source> {
    @usableFromInline var old: _ListEntry<Source>?
    @usableFromInline var oldRank: Int
    @usableFromInline var new: _ListEntry<Source>?
    @usableFromInline var newRank: Int

    @inlinable
    init(old: _ListEntry<Source>?, oldRank: Int = 0, new: _ListEntry<Source>?, newRank: Int = 0) {
        self.old = old
        self.oldRank = oldRank
        self.new = new
        self.newRank = newRank
    }
}

extension ListQuery {
    /// The order of the tree's entries: the query's order, then the source list's order.
    @inlinable
    var _entryOrder: _EntryOrder<_ListEntry<Source>> {
        if let entryLess = _entryLess { return entryLess }
        guard let order = _order else { return _EntryOrder { $0.label < $1.label } }
        return _EntryOrder { a, b in
            if order(a.element, b.element) { return true }
            if order(b.element, a.element) { return false }
            return a.label < b.label
        }
    }

    /// The entry of `element` (with `label`) if the query includes it.
    @inlinable
    func _entry(_ element: Source, _ label: UInt64) -> _ListEntry<Source>? {
        if let include = _include, !include(element) { return nil }
        return _ListEntry(element: element, label: label)
    }

    /// Evaluates in full, or follows `changes` when `previous` was made by the same operators.
    @inlinable
    func _evaluate(updating previous: inout ListQueryState<Source, Element>?, changes: ListChanges<Source.ID>?,
                   steps: [_QueryStep], limit: Int?, beforeEditing: () -> Void = {}) -> (output: ListView<Element>, isIncremental: Bool) {
        let less = _entryOrder
        if var state = previous, state.steps == steps, let changes,
           changes.count <= Swift.max(64, state.tree.count / 4),
           let touched = changes._touched(Source.self) {
            // Let the tree be edited in place when no view holds it: neither `previous` nor the
            // view a memo cell caches, which this one replaces.
            previous = nil
            beforeEditing()
            var records: [_TouchRecord<Source>] = []
            records.reserveCapacity(touched.count)
            for element in touched {
                // What the tree holds for the element: its entry before the edits, if included
                // then; and what it should hold now.
                let old = element.old.flatMap { _entry($0.element, $0.label) }
                let new = source._entry(id: element.id, hint: element.offset).flatMap { _entry($0.element, $0.label) }
                if old != nil || new != nil { records.append(_TouchRecord(old: old, new: new)) }
            }
            let viewChanges = _follow(consume records, in: &state, limit: limit, less: less)
            previous = state
            return (ListView(_storage: state._view(limit: limit, project: _project), changes: viewChanges), true)
        }
        // Full evaluation: the included entries in a scratch buffer, sorted there, then moved
        // into the tree's leaves (each entry copied once, from the list, and never released).
        let scratch = UnsafeMutablePointer<_ListEntry<Source>>.allocate(capacity: source.count)
        defer { scratch.deallocate() }
        var included = 0
        // The filter read once (a closure read from `self` per element is retained and released
        // per element).
        let include = _include
        for offset in 0..<source.count where include?(source._elements[offset]) ?? true {
            (scratch + included).initialize(to: _ListEntry(element: source._elements[offset], label: source._labels[offset]))
            included += 1
        }
        var entries = UnsafeMutableBufferPointer(start: scratch, count: included)
        // The entries are in source order, and the sort is stable: ties keep it without
        // comparing labels (half the calls to the caller's order).
        if let fullSort = _fullSort {
            fullSort(entries)
        } else if let order = _order {
            entries.sort { order($0.element, $1.element) }
        }
        let tree = _OrderedTree(moving: entries)
        let old = previous.map { _TreeListViewStorage(tree: $0.tree, limit: $0.limit, project: $0.project) }
        var state = ListQueryState(tree: tree, steps: steps, limit: limit, project: _project)
        state.lineage = _newLineage(limit: limit, less: _entryOrder(then: { $0.label < $1.label }))
        let storage = state._view(limit: limit, project: _project)
        previous = state
        return (ListView(_storage: storage, changes: ListViewChanges(_storage: .reload(old: old, new: storage))), false)
    }

    /// Follows the changes of the touched source elements (`records`, each element once, with
    /// the entry the state's tree holds for it, nil if none, and the entry the query now
    /// includes, nil if none): moves them in `state`'s tree, and returns the view's changes, cut
    /// to the prefixes of the state's last result and `limit`. O(changes · log n). The state then
    /// holds this result's limit, map and lineage.
    ///
    /// `records` is consumed: the ranks are written into the caller's array, not into a copy of
    /// it (a second allocation per edit).
    @inlinable
    func _follow(_ records: consuming [_TouchRecord<Source>], in state: inout ListQueryState<Source, Element>, limit: Int?,
                 less: _EntryOrder<_ListEntry<Source>>) -> ListViewChanges<Element> {
        let oldCount = state.tree.count
        var records = records  // moved, not copied: a consuming parameter has no implicit copies
        // Every touched element keeps its place in the order (edits the sort key does not see):
        // each is replaced where it is, in one walk that also gives its offset, the same after.
        if state.limit == nil, limit == nil,
           records.allSatisfy({ record in record.old.map { old in record.new.map { !less(old, $0) && !less($0, old) } ?? false } ?? false }) {
            for index in records.indices {
                let rank = state.tree.replace(records[index].old!, with: records[index].new!, less)
                records[index].oldRank = rank
                records[index].newRank = rank
            }
            let viewChanges = _changes(records, oldTree: nil, oldCount: oldCount, oldLimit: nil,
                                       newTree: state.tree, newLimit: nil, less: less)
            state.project = _project
            state._advanceLineage(records)
            return viewChanges
        }
        for index in records.indices {
            if let old = records[index].old { records[index].oldRank = state.tree.rank(of: old, less) }
        }
        // The old tree is needed only to find elements pushed out of a prefix; keeping it
        // makes the edits below copy the nodes on their paths.
        let oldTree = state.limit == nil ? nil : state.tree
        // All removals before any insertion: a renumbered element's new place in the order
        // may be one a touched element still holds. An element that keeps its place in the order
        // (an edit the sort key does not see) is replaced where it is.
        var inPlace: [Bool]? = nil
        for index in records.indices {
            guard let old = records[index].old else { continue }
            if let new = records[index].new, !less(old, new), !less(new, old) {
                state.tree.replace(old, with: new, less)
                if inPlace == nil { inPlace = Array(repeating: false, count: records.count) }
                inPlace![index] = true
            } else {
                state.tree.remove(old, less)
            }
        }
        for index in records.indices where !(inPlace?[index] ?? false) {
            if let new = records[index].new { state.tree.insert(new, less) }
        }
        for index in records.indices {
            if let new = records[index].new { records[index].newRank = state.tree.rank(of: new, less) }
        }
        let viewChanges = _changes(records, oldTree: oldTree, oldCount: oldCount, oldLimit: state.limit,
                                   newTree: state.tree, newLimit: limit, less: less)
        state.limit = limit
        state.project = _project
        state._advanceLineage(records)
        return viewChanges
    }

    /// The view's changes from the touched elements' offsets, cut to the prefixes `oldLimit` and
    /// `newLimit`. Untouched elements keep their relative order, so the ones that leave (or
    /// enter) a prefix are the last untouched ones of the old (or new) prefix: found by walking
    /// back from its end past the touched offsets, O((changes) · log n).
    @inlinable
    func _changes(_ records: [_TouchRecord<Source>], oldTree: _OrderedTree<_ListEntry<Source>>?, oldCount: Int, oldLimit: Int?,
                  newTree: _OrderedTree<_ListEntry<Source>>, newLimit: Int?,
                  less: _EntryOrder<_ListEntry<Source>>) -> ListViewChanges<Element> {
        let oldEnd = Swift.min(oldCount, oldLimit ?? .max)
        let newEnd = Swift.min(newTree.count, newLimit ?? .max)
        var touches: [ListViewChanges<Element>._Touch] = []
        // Each record is one element, so its ranks are distinct within each tree: counting the
        // touched ranks in each prefix is enough to know how many untouched elements it keeps.
        var oldTouchedCount = 0
        var newTouchedCount = 0
        for record in records {
            let old = record.old.flatMap { record.oldRank < oldEnd ? (record.oldRank, _project($0.element)) : nil }
            let new = record.new.flatMap { record.newRank < newEnd ? (record.newRank, _project($0.element)) : nil }
            var keyChanged = false
            if let a = record.old, let b = record.new { keyChanged = less(a, b) || less(b, a) }
            if old != nil || new != nil { touches.append(.init(old: old, new: new, keyChanged: keyChanged)) }
            if old != nil { oldTouchedCount += 1 }
            if new != nil { newTouchedCount += 1 }
        }
        let keptBefore = oldEnd - oldTouchedCount
        let keptAfter = newEnd - newTouchedCount
        // Without a prefix both sides keep the same untouched elements, so neither walk runs and
        // no set of touched ranks is built (an allocation and hashing per edit).
        if keptBefore > keptAfter {
            let oldTouched = Set(records.lazy.filter { $0.old != nil && $0.oldRank < oldEnd }.map(\.oldRank))
            var offset = oldEnd - 1
            var leaving = keptBefore - keptAfter
            while leaving > 0 {
                if !oldTouched.contains(offset) {
                    touches.append(.init(old: (offset, _project(oldTree![offset].element)), new: nil, keyChanged: false))
                    leaving -= 1
                }
                offset -= 1
            }
        } else if keptAfter > keptBefore {
            let newTouched = Set(records.lazy.filter { $0.new != nil && $0.newRank < newEnd }.map(\.newRank))
            var offset = newEnd - 1
            var entering = keptAfter - keptBefore
            while entering > 0 {
                if !newTouched.contains(offset) {
                    touches.append(.init(old: nil, new: (offset, _project(newTree[offset].element)), keyChanged: false))
                    entering -= 1
                }
                offset -= 1
            }
        }
        return ListViewChanges(_storage: .incremental(touches))
    }
}

extension ListQuery: IncrementalListQuery {
    /// Evaluates the query into a ``ListView`` (see ``IncrementalListQuery``).
    @inlinable
    public func evaluate(updating previous: inout ListQueryState<Source, Element>?, changes: ListChanges<Source.ID>?)
        -> (output: ListView<Element>, isIncremental: Bool) {
        _evaluate(updating: &previous, changes: changes, steps: _steps, limit: nil)
    }

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` before it edits the tree (see
    /// `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    public func _evaluate(updating previous: inout ListQueryState<Source, Element>?, changes: ListChanges<Source.ID>?,
                          beforeEditing: () -> Void) -> (output: ListView<Element>, isIncremental: Bool) {
        _evaluate(updating: &previous, changes: changes, steps: _steps, limit: nil, beforeEditing: beforeEditing)
    }

    /// Evaluates the query once, in full, into a ``ListView`` (no state kept).
    public var view: ListView<Element> {
        var state: ListQueryState<Source, Element>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}

extension PrefixListQuery: IncrementalListQuery {
    /// Evaluates the query into a ``ListView`` of at most ``limit`` elements.
    @inlinable
    public func evaluate(updating previous: inout ListQueryState<Source, Element>?, changes: ListChanges<Source.ID>?)
        -> (output: ListView<Element>, isIncremental: Bool) {
        base._evaluate(updating: &previous, changes: changes, steps: base._steps._appending(_step), limit: limit)
    }

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` before it edits the tree (see
    /// `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    public func _evaluate(updating previous: inout ListQueryState<Source, Element>?, changes: ListChanges<Source.ID>?,
                          beforeEditing: () -> Void) -> (output: ListView<Element>, isIncremental: Bool) {
        base._evaluate(updating: &previous, changes: changes, steps: base._steps._appending(_step), limit: limit,
                       beforeEditing: beforeEditing)
    }

    /// Evaluates the query once, in full, into a ``ListView`` (no state kept).
    public var view: ListView<Element> {
        var state: ListQueryState<Source, Element>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}
