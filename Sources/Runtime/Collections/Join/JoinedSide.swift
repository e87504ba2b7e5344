/// What a join looks its rows' related values up in: an ``IdentifiedList`` (by element id) or a
/// `Dictionary` (by key). Besides the lookup, it says which keys may have changed since a mark it
/// gave earlier, so that a ``JoinQuery`` updates only the rows that refer to them.
///
/// The conformances are the runtime's; the requirements are not meant to be called by hand.
public protocol JoinedSide<Key, Value> {
    /// What a row refers to a value by: an element's id, or a dictionary's key.
    associatedtype Key: Hashable
    /// What a row is joined with: an element, or a dictionary's value.
    associatedtype Value
    /// Where this side stands, kept by the join to ask ``_changedKeys(since:)`` at its next
    /// evaluation.
    associatedtype _Mark

    /// The value for `key`, or nil. O(1).
    func _value(for key: Key) -> Value?

    /// This side's mark now.
    var _mark: _Mark { get }

    /// The keys whose value may differ from what it was at `mark` (added, removed or changed,
    /// each once, in any order), or nil when that is not known: the join then evaluates in full.
    func _changedKeys(since mark: _Mark) -> [Key]?
}

extension IdentifiedList: JoinedSide {
    /// The element with `key`, or nil. O(1).
    @inlinable
    public func _value(for key: ID) -> Element? {
        self[id: key]
    }

    /// The list's version.
    @inlinable
    public var _mark: ListVersion { version }

    /// The ids of the elements inserted, removed or updated since `mark`, from the list's change
    /// record (O(changes)); a move changes no row. Nil when ``changes(since:)`` is.
    @inlinable
    public func _changedKeys(since mark: ListVersion) -> [ID]? {
        guard let changes = changes(since: mark) else { return nil }
        // One edit, the common case: no set to allocate.
        if changes.count == 1 { return changes[0].kind == .moved ? [] : [changes[0].id] }
        var seen = Set<ID>(minimumCapacity: changes.count)
        return changes.compactMap { $0.kind != .moved && seen.insert($0.id).inserted ? $0.id : nil }
    }
}

extension Dictionary: JoinedSide where Value: Equatable {
    /// The dictionary as it was: the next evaluation compares it with the new one.
    public typealias _Mark = Self

    /// The value for `key`, or nil. O(1).
    @inlinable
    public func _value(for key: Key) -> Value? {
        self[key]
    }

    /// This dictionary.
    @inlinable
    public var _mark: Self { self }

    /// The keys whose value differs between `mark` and this dictionary: O(count) comparisons, as
    /// a dictionary keeps no record of its edits (a join on a large table of related values is
    /// best made on an ``IdentifiedList``).
    @inlinable
    public func _changedKeys(since mark: Self) -> [Key]? {
        var changed: [Key] = []
        for (key, value) in self where mark[key] != value { changed.append(key) }
        for key in mark.keys where self[key] == nil { changed.append(key) }
        return changed
    }
}
