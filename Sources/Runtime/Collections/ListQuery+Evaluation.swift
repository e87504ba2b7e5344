/// What a pipeline keeps for a ``ListQuery`` or ``PrefixListQuery``: the included source
/// elements in a tree ordered by the query's order, and each one's entry by id (to find it in
/// the tree when its source element changes).
public struct ListQueryState<Source: Identifiable & Sendable>: Sendable where Source.ID: Sendable {
    @usableFromInline var tree: _OrderedTree<_ListEntry<Source>>
    @usableFromInline var members: [Source.ID: _ListEntry<Source>]
    @usableFromInline let steps: [_QueryStep]
    /// The prefix length of the last result (nil: all).
    @usableFromInline var limit: Int?

    /// The number of source elements the query includes (before any prefix).
    public var includedCount: Int { tree.count }
}

/// One touched source element: its entry and offset before and after an update.
struct _TouchRecord<Source> {
    var old: _ListEntry<Source>?
    var oldRank = 0
    var new: _ListEntry<Source>?
    var newRank = 0
}

extension ListQuery {
    /// The order of the tree's entries: the query's order, then the source list's order.
    var _entryOrder: (_ListEntry<Source>, _ListEntry<Source>) -> Bool {
        guard let order = _order else { return { $0.label < $1.label } }
        return { a, b in
            if order(a.element, b.element) { return true }
            if order(b.element, a.element) { return false }
            return a.label < b.label
        }
    }

    /// The entry of `element` (with `label`) if the query includes it.
    func _entry(_ element: Source, _ label: UInt64) -> _ListEntry<Source>? {
        if let include = _include, !include(element) { return nil }
        return _ListEntry(element: element, label: label)
    }

    /// Evaluates in full, or follows `changes` when `previous` was made by the same operators.
    func _evaluate(updating previous: inout ListQueryState<Source>?, changes: ListChanges<Source.ID>?,
                   steps: [_QueryStep], limit: Int?) -> (output: ListView<Element>, isIncremental: Bool) {
        let less = _entryOrder
        if var state = previous, state.steps == steps, let changes,
           changes.count <= Swift.max(64, state.tree.count / 4) {
            previous = nil   // let the tree be edited in place when no view holds it
            let touched = changes.touchedIDs
            let oldCount = state.tree.count
            var records: [_TouchRecord<Source>] = []
            records.reserveCapacity(touched.count)
            for id in touched {
                let old = state.members[id]
                let new = source._entry(id: id).flatMap { _entry($0.element, $0.label) }
                guard old != nil || new != nil else { continue }
                records.append(_TouchRecord(old: old, oldRank: old.map { state.tree.rank(of: $0, less) } ?? 0, new: new))
            }
            // The old tree is needed only to find elements pushed out of a prefix; keeping it
            // makes the edits below copy the nodes on their paths.
            let oldTree = state.limit == nil ? nil : state.tree
            for record in records {
                if let old = record.old {
                    state.tree.remove(old, less)
                    state.members[old.element.id] = nil
                }
            }
            for record in records {
                if let new = record.new {
                    state.tree.insert(new, less)
                    state.members[new.element.id] = new
                }
            }
            for index in records.indices {
                if let new = records[index].new { records[index].newRank = state.tree.rank(of: new, less) }
            }
            let viewChanges = _changes(records, oldTree: oldTree, oldCount: oldCount, oldLimit: state.limit,
                                       newTree: state.tree, newLimit: limit,
                                       less: less, isIncremental: true)
            state.limit = limit
            previous = state
            return (ListView(_storage: _TreeListViewStorage(tree: state.tree, limit: limit, project: _project), changes: viewChanges), true)
        }
        // Full evaluation.
        var entries = ContiguousArray<_ListEntry<Source>>()
        entries.reserveCapacity(source.count)
        for offset in 0..<source.count {
            if let entry = _entry(source._elements[offset], source._labels[offset]) { entries.append(entry) }
        }
        if _order != nil { entries.sort(by: less) }
        var members: [Source.ID: _ListEntry<Source>] = Dictionary(minimumCapacity: entries.count)
        for entry in entries { members[entry.element.id] = entry }
        let tree = _OrderedTree(sorted: entries)
        let viewChanges: ListViewChanges<Element>
        if let old = previous {
            // Changes by id: every element of either result is touched; offsets by walking the
            // trees (the old one may be in another order), O(n).
            let oldRanks = Self._ranks(of: old.tree)
            let newRanks = Self._ranks(of: tree)
            var records: [_TouchRecord<Source>] = []
            records.reserveCapacity(Swift.max(oldRanks.count, newRanks.count))
            for (id, entry) in old.members {
                records.append(_TouchRecord(old: entry, oldRank: oldRanks[id]!, new: members[id], newRank: newRanks[id] ?? 0))
            }
            for (id, entry) in members where old.members[id] == nil {
                records.append(_TouchRecord(old: nil, new: entry, newRank: newRanks[id]!))
            }
            viewChanges = _changes(records, oldTree: old.tree, oldCount: old.tree.count, oldLimit: old.limit, newTree: tree, newLimit: limit,
                                   less: nil, isIncremental: false)
        } else {
            var changes: [CollectionDifference<Element>.Change] = []
            let count = Swift.min(tree.count, limit ?? .max)
            var offset = 0
            tree.forEach { entry in
                guard offset < count else { return false }
                changes.append(.insert(offset: offset, element: _project(entry.element), associatedWith: nil))
                offset += 1
                return true
            }
            viewChanges = ListViewChanges(removals: [], insertions: Array(0..<count), moves: [], updates: [],
                                          difference: CollectionDifference(changes)!, isIncremental: false)
        }
        previous = ListQueryState(tree: tree, members: members, steps: steps, limit: limit)
        return (ListView(_storage: _TreeListViewStorage(tree: tree, limit: limit, project: _project), changes: viewChanges), false)
    }

    /// Each entry's offset in `tree`, by id. O(n).
    static func _ranks(of tree: _OrderedTree<_ListEntry<Source>>) -> [Source.ID: Int] {
        var ranks: [Source.ID: Int] = Dictionary(minimumCapacity: tree.count)
        var offset = 0
        tree.forEach { entry in
            ranks[entry.element.id] = offset
            offset += 1
            return true
        }
        return ranks
    }

    /// The view's changes from the touched elements' offsets, cut to the prefixes `oldLimit` and
    /// `newLimit`. Untouched elements keep their relative order, so the ones that leave (or
    /// enter) a prefix are the last untouched ones of the old (or new) prefix: found by walking
    /// back from its end past the touched offsets, O((changes) · log n).
    func _changes(_ records: [_TouchRecord<Source>], oldTree: _OrderedTree<_ListEntry<Source>>?, oldCount: Int, oldLimit: Int?,
                  newTree: _OrderedTree<_ListEntry<Source>>, newLimit: Int?,
                  less: ((_ListEntry<Source>, _ListEntry<Source>) -> Bool)?, isIncremental: Bool) -> ListViewChanges<Element> {
        let oldEnd = Swift.min(oldCount, oldLimit ?? .max)
        let newEnd = Swift.min(newTree.count, newLimit ?? .max)
        var builder = _ListViewChangesBuilder<Element>()
        var oldTouched = Set<Int>()
        var newTouched = Set<Int>()
        for record in records {
            let old = record.old.flatMap { record.oldRank < oldEnd ? (record.oldRank, _project($0.element)) : nil }
            let new = record.new.flatMap { record.newRank < newEnd ? (record.newRank, _project($0.element)) : nil }
            var keyChanged = record.oldRank != record.newRank
            if let less, let a = record.old, let b = record.new { keyChanged = less(a, b) || less(b, a) }
            builder.add(old: old, new: new, keyChanged: keyChanged)
            if record.old != nil, record.oldRank < oldEnd { oldTouched.insert(record.oldRank) }
            if record.new != nil, record.newRank < newEnd { newTouched.insert(record.newRank) }
        }
        let keptBefore = oldEnd - oldTouched.count
        let keptAfter = newEnd - newTouched.count
        if keptBefore > keptAfter {
            var offset = oldEnd - 1
            var leaving = keptBefore - keptAfter
            while leaving > 0 {
                if !oldTouched.contains(offset) {
                    builder.add(old: (offset, _project(oldTree![offset].element)), new: nil, keyChanged: false)
                    leaving -= 1
                }
                offset -= 1
            }
        } else if keptAfter > keptBefore {
            var offset = newEnd - 1
            var entering = keptAfter - keptBefore
            while entering > 0 {
                if !newTouched.contains(offset) {
                    builder.add(old: nil, new: (offset, _project(newTree[offset].element)), keyChanged: false)
                    entering -= 1
                }
                offset -= 1
            }
        }
        return builder.build(isIncremental: isIncremental)
    }
}

extension ListQuery: IncrementalListQuery {
    /// Evaluates the query into a ``ListView`` (see ``IncrementalListQuery``).
    public func evaluate(updating previous: inout ListQueryState<Source>?, changes: ListChanges<Source.ID>?)
        -> (output: ListView<Element>, isIncremental: Bool) {
        _evaluate(updating: &previous, changes: changes, steps: _steps, limit: nil)
    }

    /// Evaluates the query once, in full, into a ``ListView`` (no state kept).
    public var view: ListView<Element> {
        var state: ListQueryState<Source>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}

extension PrefixListQuery: IncrementalListQuery {
    /// Evaluates the query into a ``ListView`` of at most ``limit`` elements.
    public func evaluate(updating previous: inout ListQueryState<Source>?, changes: ListChanges<Source.ID>?)
        -> (output: ListView<Element>, isIncremental: Bool) {
        base._evaluate(updating: &previous, changes: changes, steps: base._steps + [_step], limit: limit)
    }

    /// Evaluates the query once, in full, into a ``ListView`` (no state kept).
    public var view: ListView<Element> {
        var state: ListQueryState<Source>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}
