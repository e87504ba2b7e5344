/// A ``ListQuery``'s result split into groups by a key (``ListQuery/grouped(by:fileID:line:column:)``),
/// each group in the query's order, maintained in O(log n) per changed element.
public struct GroupedListQuery<Source: Identifiable & Sendable, Key: Hashable & Sendable, Element>: Sendable
where Source.ID: Sendable {
    /// The query whose result is grouped.
    public let base: ListQuery<Source, Element>
    let key: @Sendable (Source) -> Key
    let steps: [_QueryStep]

    /// The list the query reads.
    public var source: IdentifiedList<Source> { base.source }
}

/// What a pipeline keeps for a ``GroupedListQuery``: a tree per group, and each included
/// element's group and entry.
public struct GroupedListState<Source: Identifiable & Sendable, Key: Hashable & Sendable>: Sendable where Source.ID: Sendable {
    var groups: [Key: _OrderedTree<_ListEntry<Source>>]
    var members: [Source.ID: (key: Key, entry: _ListEntry<Source>)]
    let steps: [_QueryStep]
}

/// The groups of a ``GroupedListQuery``'s result: a ``ListView`` per key (empty groups are
/// absent), with their counts.
public struct ListGroups<Key: Hashable & Sendable, Element>: @unchecked Sendable {
    // Safety: immutable; the storage holds Sendable values (see ListView).
    let _groups: [Key: _ListViewStorage<Element>]
    /// The keys whose group changed since the previous result (all keys after a full
    /// evaluation).
    public let changedKeys: Set<Key>

    /// The keys of the non-empty groups, in no particular order.
    public var keys: [Key] { Array(_groups.keys) }

    /// The number of non-empty groups.
    public var count: Int { _groups.count }

    /// The group of `key` (empty if there is none), in the query's order. O(1).
    public subscript(key: Key) -> ListView<Element> {
        ListView(_storage: _groups[key] ?? _ListViewStorage(), changes: ListViewChanges())
    }

    /// The number of elements in the group of `key`. O(1).
    public func count(of key: Key) -> Int {
        _groups[key]?.count ?? 0
    }

    /// Every group's count.
    public var counts: [Key: Int] { _groups.mapValues(\.count) }
}

extension ListQuery {
    /// Splits the result into groups by `key`, keeping the query's order within each group.
    public func grouped<Key: Hashable & Sendable>(by key: @escaping @Sendable (Element) -> Key,
                                                  fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> GroupedListQuery<Source, Key, Element> {
        let project = _project
        return GroupedListQuery(base: self, key: { key(project($0)) }, steps: _steps._appending(_QueryStep(.group, fileID, line, column)))
    }
}

extension GroupedListQuery: IncrementalListQuery {
    /// Evaluates the groups (see ``IncrementalListQuery``).
    public func evaluate(updating previous: inout GroupedListState<Source, Key>?, changes: ListChanges<Source.ID>?)
        -> (output: ListGroups<Key, Element>, isIncremental: Bool) {
        let less = base._entryOrder
        if var state = previous, state.steps == steps, let changes, changes.count <= Swift.max(64, state.members.count / 4) {
            previous = nil
            var changed = Set<Key>()
            let touched = changes.touchedIDs
            // All removals before any insertion: a renumbered element's new place in the order
            // may be one a touched element still holds.
            for id in touched {
                if let removed = state.members.removeValue(forKey: id) {
                    state.groups[removed.key]!.remove(removed.entry, less)
                    if state.groups[removed.key]!.count == 0 { state.groups[removed.key] = nil }
                    changed.insert(removed.key)
                }
            }
            for id in touched {
                if let found = source._entry(id: id), let entry = base._entry(found.element, found.label) {
                    let newKey = key(entry.element)
                    state.groups[newKey, default: _OrderedTree()].insert(entry, less)
                    state.members[id] = (newKey, entry)
                    changed.insert(newKey)
                }
            }
            previous = state
            return (_output(state, changedKeys: changed), true)
        }
        var lists: [Key: ContiguousArray<_ListEntry<Source>>] = [:]
        var members: [Source.ID: (key: Key, entry: _ListEntry<Source>)] = [:]
        for offset in 0..<source.count {
            guard let entry = base._entry(source._elements[offset], source._labels[offset]) else { continue }
            let groupKey = key(entry.element)
            lists[groupKey, default: []].append(entry)
            members[entry.element.id] = (groupKey, entry)
        }
        var groups: [Key: _OrderedTree<_ListEntry<Source>>] = [:]
        for (groupKey, var entries) in lists {
            if let order = base._order { entries.sort { order($0.element, $1.element) } }   // stable: ties keep list order
            groups[groupKey] = _OrderedTree(sorted: entries)
        }
        let state = GroupedListState(groups: groups, members: members, steps: steps)
        let changed = Set(groups.keys).union(previous?.groups.keys ?? [:].keys)
        previous = state
        return (_output(state, changedKeys: changed), false)
    }

    func _output(_ state: GroupedListState<Source, Key>, changedKeys: Set<Key>) -> ListGroups<Key, Element> {
        let project = base._project
        return ListGroups(_groups: state.groups.mapValues { _TreeListViewStorage(tree: $0, limit: nil, project: project) },
                          changedKeys: changedKeys)
    }

    /// Evaluates the groups once, in full (no state kept).
    public var groups: ListGroups<Key, Element> {
        var state: GroupedListState<Source, Key>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}
