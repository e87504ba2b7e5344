// How the memo cell of an incremental value lets go of its cached value while the value's
// pipeline edits what they share (issue 34, item 5).
//
// A value made by an incremental query (a `ListView`, `ListGroups`, `ListSections`,
// `KeyedTotals`) shares its structure with the query's maintained state: a view's tree, the
// groups' slot vector of trees, the totals' slot vector. The next update edits that state; a node
// the cached value still holds is then copied (and every child it references retained) rather
// than edited in place, although the cached value is exactly what the update replaces. The
// pipeline calls back once it has decided to follow the source's changes, before it edits its
// state (`IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`); the table's refresh,
// which owns the cell until it publishes, then moves the cached value out of the cell, keeping
// only what its cutoff needs (its changes and identity, see `_StateSharingResult`). Nodes a
// value still holds elsewhere (a reader's copy, a copy of the state) are copied as before.

/// What a cell does with its cached value when the pipeline is about to edit: `take` moves the
/// value out of the cell's slot (left uninitialized) and gives what to put back, from the new
/// value, before the cell's cutoff test.
@usableFromInline
struct _CachedValueRelease<Value> {
    let take: (UnsafeMutablePointer<Value>) -> (Value) -> Value

    @usableFromInline
    init(_ take: @escaping (UnsafeMutablePointer<Value>) -> (Value) -> Value) {
        self.take = take
    }
}

/// A result of an incremental query that shares its structure with the query's maintained state,
/// and that a memo cell can let go of before the state is edited, keeping only `_Released`.
@usableFromInline
protocol _StateSharingResult {
    /// What a released cached result keeps for the cell's cutoff: its changes and identity,
    /// nothing the query's state shares.
    associatedtype _Released
    /// This result's changes and identity.
    var _released: _Released { get }
    /// What the cell keeps when this result, the new one, leaves the cached one unchanged: this
    /// result's contents (equal to the cached one's, and shared with the pipeline), with the
    /// cached result's changes and identity (`released`), as if the cell had kept it.
    func _replacing(_ released: _Released) -> Self
}

extension _CachedValueRelease where Value: _StateSharingResult {
    /// Lets go of the cached value but for its changes and identity; puts back the new value, or,
    /// when `unchanged` (nil: no cutoff) says it leaves the cached one as it was, the new value's
    /// contents with the cached value's changes and identity. `unchanged` must judge from the new
    /// value's changes alone: the cell's cutoff test then compares what is put back with the new
    /// value, and must agree.
    @inlinable
    init(unchanged: ((Value) -> Bool)?) {
        self.init { slot in
            let released = slot.move()._released
            return { new in
                guard let unchanged, unchanged(new) else { return new }
                return new._replacing(released)
            }
        }
    }
}

extension ListView: _StateSharingResult {
    /// The view's changes; of a reload, only the previous view it names (which shares nothing
    /// with the pipeline's tree): the new view is the one put back.
    @usableFromInline
    typealias _Released = (changes: ListViewChanges<Element>, reloadedFrom: _ListViewStorage<Element>??)

    @inlinable
    var _released: _Released {
        switch changes._storage {
        case .incremental(let touches): (ListViewChanges(_storage: .incremental(touches)), nil)
        case .reload(let old, _): (ListViewChanges(), .some(old))
        }
    }

    @inlinable
    func _replacing(_ released: _Released) -> ListView<Element> {
        let changes = released.reloadedFrom.map { ListViewChanges(_storage: .reload(old: $0, new: _storage)) } ?? released.changes
        return ListView(_storage: _storage, changes: changes)
    }
}

extension ListGroups: _StateSharingResult {
    @usableFromInline typealias _Released = Set<Key>

    @inlinable var _released: Set<Key> { changedKeys }

    /// The new groups, which share the cached groups' identity when none changed.
    @inlinable
    func _replacing(_ released: Set<Key>) -> ListGroups<Key, Element> {
        ListGroups(_storage: _storage, changedKeys: released)
    }
}

extension ListSections: _StateSharingResult {
    /// The changes, of the sections and of their groups; the previous groups a reload of a
    /// section compares with (after a full evaluation: they share nothing with the pipeline).
    @usableFromInline
    typealias _Released = (changes: ListSectionChanges<Key>, changedKeys: Set<Key>, previous: _ListGroupsStorage<Key, Element>?,
                           touches: [Int: [ListViewChanges<Element>._Touch]]?)

    @inlinable
    var _released: _Released { (changes, groups.changedKeys, _previous, _touches) }

    @inlinable
    func _replacing(_ released: _Released) -> ListSections<Key, Element> {
        ListSections(groups: groups._replacing(released.changedKeys), _order: _order, changes: released.changes,
                     _previous: released.previous, _touches: released.touches)
    }
}

extension KeyedTotals: _StateSharingResult {
    @usableFromInline
    typealias _Released = (token: UInt64, previous: UInt64?, numbering: UInt64, changed: _ChangedKeys<Key>)

    @inlinable var _released: _Released { (_token, _previous, _numbering, _changed) }

    /// The new totals under the cached totals' identity and changes (the new ones share the
    /// identity when no total changed). The cached changes' slots are slots of the new table: a
    /// cell lets go of its value only when the pipeline follows edits, which keep the numbering
    /// (only appending keys), and it keeps a result of another numbering through no cutoff
    /// (see `StateTable.Builder.keyedTotals`).
    @inlinable
    func _replacing(_ released: _Released) -> KeyedTotals<Key, Value> {
        assert(released.numbering == _numbering, "KeyedTotals: a cached result's changes handed to a result of another numbering")
        return KeyedTotals(_slots: _slots, _totals: _totals, _keyCount: _keyCount, _token: released.token, _previous: released.previous,
                           _numbering: _numbering, _changed: released.changed)
    }
}
