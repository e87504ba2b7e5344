/// The keys of a keyed result whose value changed since the previous result of its pipeline
/// (``KeyedTotals/changedKeys``), kept so that an edit builds no set for them.
///
/// After following the list's edits: the keys' slots in the result's key table, the first two
/// inline (an edit changes one or two keys), made into keys only when asked. After a full
/// evaluation: the set the comparison with the previous result made (it may name keys the new
/// table does not have).
///
/// Slots are read in the result's own table. A memo cell that keeps an older result's changes
/// for a newer result (a cutoff, `_StateSharingResult._replacing`) relies on both tables
/// numbering keys alike: results of one pipeline do until a full evaluation numbers them anew,
/// which the results' `_numbering` tells.
@usableFromInline
struct _ChangedKeys<Key: Hashable> {
    /// How many slots are listed: `_first`, `_second`, then `_more`.
    @usableFromInline var _slotCount = 0
    @usableFromInline var _first = 0
    @usableFromInline var _second = 0
    @usableFromInline var _more: [Int] = []
    /// The keys of a full evaluation (empty after following edits).
    @usableFromInline var _keys: Set<Key> = []

    /// No key.
    @inlinable
    init() {}

    /// The keys of a full evaluation.
    @inlinable
    init(_ keys: Set<Key>) {
        _keys = keys
    }

    /// Adds a changed key by its slot (each slot at most once).
    @inlinable
    mutating func append(slot: Int) {
        switch _slotCount {
        case 0: _first = slot
        case 1: _second = slot
        default: _more.append(slot)
        }
        _slotCount += 1
    }

    /// Whether no key changed. O(1).
    @inlinable
    var isEmpty: Bool { _slotCount == 0 && _keys.isEmpty }

    /// The number of changed keys. O(1).
    @inlinable
    var count: Int { _slotCount + _keys.count }

    /// Whether `body` holds for every key (slots read in `table`), called until it does not.
    /// O(changed keys).
    @inlinable
    func allSatisfy(in table: _KeySlots<Key>, _ body: (Key) throws -> Bool) rethrows -> Bool {
        if _slotCount > 0, try !body(table.key(at: _first)) { return false }
        if _slotCount > 1, try !body(table.key(at: _second)) { return false }
        for slot in _more where try !body(table.key(at: slot)) { return false }
        return try _keys.allSatisfy(body)
    }

    /// The keys (slots read in `table`). O(changed keys).
    @inlinable
    func keys(in table: _KeySlots<Key>) -> Set<Key> {
        if _slotCount == 0 { return _keys }
        var keys = Set<Key>(minimumCapacity: count)
        _ = allSatisfy(in: table) { keys.insert($0); return true }
        return keys
    }

    /// The keys as an array, in no particular order (slots read in `table`): no hashing.
    /// O(changed keys).
    @inlinable
    func array(in table: _KeySlots<Key>) -> [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        _ = allSatisfy(in: table) { keys.append($0); return true }
        return keys
    }
}

extension _ChangedKeys: Sendable where Key: Sendable {}
