/// The groups of a ``GroupedListQuery``'s result: a ``ListView`` per key (empty groups are
/// absent), with their counts and the keys whose group changed since the previous result.
///
/// A value: it keeps its groups while the pipeline that made it goes on (later results share
/// the groups an edit did not touch with it).
///
/// ## Complexity
/// - ``subscript(_:)``, ``count(of:)``, ``count``: O(1) (a dictionary lookup, then at most
///   ⌈log₃₂ keys⌉ nodes); a group's view is made on demand, without copying its elements.
/// - ``keys``, ``counts``: O(keys).
/// - Following one edit of the list: O(log n) for each group the edit touches, whatever the
///   number of groups.
public struct ListGroups<Key: Hashable & Sendable, Element>: @unchecked Sendable {
    // Safety: immutable; the storage holds Sendable values (see ListView).
    @usableFromInline let _storage: _ListGroupsStorage<Key, Element>
    /// The keys whose group's elements changed since the previous result of the same pipeline:
    /// after following the list's edits, exactly those whose group gained, lost, moved or changed
    /// an element (an element edited in place that keeps its group, its place and an equal value,
    /// when `Element` is `Equatable`, is no change); after a full evaluation, those whose group
    /// differs from the previous result's (when `Element` is `Equatable`; otherwise every key of
    /// both).
    ///
    /// - Complexity: O(1).
    public let changedKeys: Set<Key>

    @usableFromInline
    init(_storage: _ListGroupsStorage<Key, Element>, changedKeys: Set<Key>) {
        self._storage = _storage
        self.changedKeys = changedKeys
    }

    /// No group.
    ///
    /// - Complexity: O(1).
    public init() {
        self.init(_storage: _ListGroupsStorage(), changedKeys: [])
    }

    /// The keys of the non-empty groups, in no particular order.
    ///
    /// - Complexity: O(keys ever seen by the pipeline since its last full evaluation).
    public var keys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(_storage.groupCount)
        _storage.forEachGroup { slot, _ in keys.append(_storage.slots.key(at: slot)) }
        return keys
    }

    /// The number of non-empty groups.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { _storage.groupCount }

    /// The group of `key` (empty if there is none), in the query's order.
    ///
    /// - Complexity: O(1): a dictionary lookup and at most ⌈log₃₂ keys⌉ nodes; the view shares
    ///   the group's tree.
    @inlinable
    public subscript(key: Key) -> ListView<Element> {
        guard let slot = _storage.slots.slot(of: key) else { return ListView() }
        return ListView(_storage: _storage.view(at: slot), changes: ListViewChanges())
    }

    /// The number of elements in the group of `key` (0 if there is none).
    ///
    /// - Complexity: O(1): a dictionary lookup and at most ⌈log₃₂ keys⌉ nodes.
    @inlinable
    public func count(of key: Key) -> Int {
        guard let slot = _storage.slots.slot(of: key) else { return 0 }
        return _storage.count(at: slot)
    }

    /// Every non-empty group's count.
    ///
    /// - Complexity: O(keys ever seen by the pipeline since its last full evaluation).
    public var counts: [Key: Int] {
        var counts: [Key: Int] = Dictionary(minimumCapacity: _storage.groupCount)
        _storage.forEachGroup { slot, count in counts[_storage.slots.key(at: slot)] = count }
        return counts
    }
}

extension ListGroups: Equatable where Element: Equatable {
    /// The same keys, each with the same elements in the same order (``changedKeys`` are not
    /// compared, so a recomputed result equal to the cached one lets a memo cell cut off).
    ///
    /// - Complexity: O(1) for the same result, or for a result and later ones of its pipeline
    ///   while no group changed; O(elements of the changed groups) for a result and the next
    ///   one; otherwise O(keys + elements) at worst.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs._storage.token === rhs._storage.token { return true }   // the same result, or one found equal to it
        if lhs.count != rhs.count { return false }
        // One result and the next: the groups whose key did not change are equal.
        if rhs._storage.follows(lhs._storage) { return rhs.changedKeys.allSatisfy { Self.groupsEqual(lhs, rhs, $0) } }
        if lhs._storage.follows(rhs._storage) { return lhs.changedKeys.allSatisfy { Self.groupsEqual(lhs, rhs, $0) } }
        var equal = true
        lhs._storage.forEachGroup { slot, _ in
            if equal { equal = groupsEqual(lhs, rhs, lhs._storage.slots.key(at: slot)) }
        }
        return equal
    }

    static func groupsEqual(_ lhs: Self, _ rhs: Self, _ key: Key) -> Bool {
        let (left, right) = (lhs[key], rhs[key])
        return left.count == right.count && left.elementsEqual(right)
    }
}

extension ListGroups: CustomStringConvertible {
    /// The groups' elements by key, as a dictionary of arrays prints them.
    ///
    /// - Complexity: O(keys + elements).
    public var description: String {
        var groups: [Key: [Element]] = [:]
        for key in keys { groups[key] = self[key].elements }
        return groups.description
    }
}
