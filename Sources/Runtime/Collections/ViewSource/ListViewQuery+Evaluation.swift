/// What a pipeline keeps for a ``ListViewQuery`` or ``PrefixListViewQuery``: the query's state
/// (as a ``ListQuery``'s: the included elements in a tree), and the source view's lineage
/// and place in it when it was last read.
public struct ListViewQueryState<Source: Identifiable & Sendable, Element>: Sendable where Source.ID: Sendable {
    @usableFromInline var query: ListQueryState<Source, Element>
    @usableFromInline var sourceLineage: _ListViewLineage<Source>?
    @usableFromInline var sourceSequence: UInt64

    @inlinable
    init(query: ListQueryState<Source, Element>, sourceLineage: _ListViewLineage<Source>?, sourceSequence: UInt64) {
        self.query = query
        self.sourceLineage = sourceLineage
        self.sourceSequence = sourceSequence
    }

    /// The number of the view's elements the query includes (before any prefix).
    public var includedCount: Int { query.includedCount }
}

extension ListViewQuery {
    /// Where the view stands in its pipeline's lineage (a version no list has when the view has
    /// none: such a view's changes are never known).
    @inlinable
    public var sourceVersion: ListVersion {
        guard let source = _source else { return ListVersion(lineage: 0, sequence: 0) }
        return ListVersion(lineage: source.lineage.stamp, sequence: source.sequence)
    }

    /// The ids of the view's elements that its pipeline's updates touched since `version`, or nil
    /// when not known (another lineage, records dropped, or a view without a lineage).
    @inlinable
    public func sourceChanges(since version: ListVersion) -> ListChanges<Source.ID>? {
        guard let source = _source, version.lineage == source.lineage.stamp,
              let records = source.lineage.records(from: version.sequence, to: source.sequence) else { return nil }
        return ListChanges(records.map { ListChange($0.entry == nil ? .removed : .updated, $0.id) })
    }

    /// Evaluates in full, or follows the view's changes when `previous` was made by the same
    /// operators from a view of the same lineage, and `follow` (the pipeline knew the changes).
    @inlinable
    func _evaluate(updating previous: inout ListViewQueryState<Source, Element>?, follow: Bool, steps: [_QueryStep], limit: Int?,
                   beforeEditing: () -> Void = {}) -> (output: ListView<Element>, isIncremental: Bool) {
        let source = _source
        // Ties of the query's order keep the view's order: its lineage's order of entries, or,
        // for a view without a lineage, its offsets (given as labels below).
        let upstream: @Sendable (_ListEntry<Source>, _ListEntry<Source>) -> Bool
        if let source {
            upstream = source.lineage.less
        } else {
            upstream = { $0.label < $1.label }
        }
        let less = _base._entryOrder(then: upstream)
        if follow, let source, var state = previous?.query, previous?.sourceLineage === source.lineage, state.steps == steps,
           let changes = source.lineage.records(from: previous!.sourceSequence, to: source.sequence),
           changes.count <= Swift.max(64, state.tree.count / 4) {
            // Let the tree be edited in place when no view holds it: neither `previous` nor the
            // view a memo cell caches, which this one replaces.
            previous = nil
            beforeEditing()
            // Each touched id once: its entry in the view as this state last read it (the first
            // record's before), which tells where our tree holds it, and its latest entry.
            var touched: [(old: _ListEntry<Source>?, new: _ListEntry<Source>?)] = []
            if changes.count == 1 {
                // One change, the common case: no table to allocate.
                touched = [(changes[0].old, changes[0].entry)]
            } else {
                var place: [Source.ID: Int] = Dictionary(minimumCapacity: changes.count)
                touched.reserveCapacity(changes.count)
                for change in changes {
                    if let index = place[change.id] {
                        touched[index].new = change.entry
                    } else {
                        place[change.id] = touched.count
                        touched.append((change.old, change.entry))
                    }
                }
            }
            var records: [_TouchRecord<Source>] = []
            records.reserveCapacity(touched.count)
            for element in touched {
                let old = element.old.flatMap { _base._entry($0.element, $0.label) }
                let new = element.new.flatMap { _base._entry($0.element, $0.label) }
                if old != nil || new != nil { records.append(_TouchRecord(old: old, new: new)) }
            }
            let viewChanges = _base._follow(consume records, in: &state, limit: limit, less: _EntryOrder(less))
            previous = ListViewQueryState(query: state, sourceLineage: source.lineage, sourceSequence: source.sequence)
            return (ListView(_storage: state._view(limit: limit, project: _base._project), changes: viewChanges), true)
        }
        // Full evaluation: the view's entries in its order (with their labels when it has a
        // lineage, their offsets otherwise), filtered, then sorted stably.
        var entries = ContiguousArray<_ListEntry<Source>>()
        entries.reserveCapacity(view.count)
        if let source {
            source.tree.forEach { entry in
                if let included = _base._entry(entry.element, entry.label) { entries.append(included) }
                return true
            }
            source.lineage.follow()
        } else {
            for (offset, element) in view.enumerated() {
                if let included = _base._entry(element, UInt64(offset)) { entries.append(included) }
            }
        }
        if let fullSort = _base._fullSort {
            entries.withUnsafeMutableBufferPointer { fullSort($0) }
        } else if let order = _base._order {
            entries.sort { order($0.element, $1.element) }
        }
        let old = previous.map { _TreeListViewStorage(tree: $0.query.tree, limit: $0.query.limit, project: $0.query.project) }
        var state = ListQueryState(tree: _OrderedTree(sorted: entries), steps: steps, limit: limit, project: _base._project)
        // A view without a lineage gives offsets as labels: this evaluation's order is then no
        // order a later one could follow, and a query chained from ours evaluates in full too.
        state.lineage = source == nil ? nil : _base._newLineage(limit: limit, less: less)
        let storage = state._view(limit: limit, project: _base._project)
        previous = ListViewQueryState(query: state, sourceLineage: source?.lineage, sourceSequence: source?.sequence ?? 0)
        return (ListView(_storage: storage, changes: ListViewChanges(_storage: .reload(old: old, new: storage))), false)
    }
}

extension ListViewQuery: IncrementalListQuery {
    /// Evaluates the query into a ``ListView`` (see ``IncrementalListQuery``).
    @inlinable
    public func evaluate(updating previous: inout ListViewQueryState<Source, Element>?, changes: ListChanges<Source.ID>?)
        -> (output: ListView<Element>, isIncremental: Bool) {
        _evaluate(updating: &previous, follow: changes != nil, steps: _base._steps, limit: nil)
    }

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` before it edits the tree (see
    /// `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    public func _evaluate(updating previous: inout ListViewQueryState<Source, Element>?, changes: ListChanges<Source.ID>?,
                          beforeEditing: () -> Void) -> (output: ListView<Element>, isIncremental: Bool) {
        _evaluate(updating: &previous, follow: changes != nil, steps: _base._steps, limit: nil, beforeEditing: beforeEditing)
    }

    /// Evaluates the query once, in full, into a ``ListView`` (no state kept).
    public var result: ListView<Element> {
        var state: ListViewQueryState<Source, Element>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}

extension PrefixListViewQuery: IncrementalListQuery {
    /// Where the view stands in its pipeline's lineage (see ``ListViewQuery/sourceVersion``).
    @inlinable
    public var sourceVersion: ListVersion { base.sourceVersion }

    /// The ids of the view's elements touched since `version` (see
    /// ``ListViewQuery/sourceChanges(since:)``).
    @inlinable
    public func sourceChanges(since version: ListVersion) -> ListChanges<Source.ID>? {
        base.sourceChanges(since: version)
    }

    /// Evaluates the query into a ``ListView`` of at most ``limit`` elements.
    @inlinable
    public func evaluate(updating previous: inout ListViewQueryState<Source, Element>?, changes: ListChanges<Source.ID>?)
        -> (output: ListView<Element>, isIncremental: Bool) {
        base._evaluate(updating: &previous, follow: changes != nil, steps: base._base._steps._appending(_step), limit: limit)
    }

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` before it edits the tree (see
    /// `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    public func _evaluate(updating previous: inout ListViewQueryState<Source, Element>?, changes: ListChanges<Source.ID>?,
                          beforeEditing: () -> Void) -> (output: ListView<Element>, isIncremental: Bool) {
        base._evaluate(updating: &previous, follow: changes != nil, steps: base._base._steps._appending(_step), limit: limit,
                       beforeEditing: beforeEditing)
    }

    /// Evaluates the query once, in full, into a ``ListView`` (no state kept).
    public var result: ListView<Element> {
        var state: ListViewQueryState<Source, Element>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}
