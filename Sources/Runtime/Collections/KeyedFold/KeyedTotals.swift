/// A total per key of a list's included elements (``ListQuery/count(by:fileID:line:column:)``,
/// ``ListQuery/sum(of:by:fileID:line:column:)``): an unread count per feed, a size per folder.
/// Keys with no element are absent (their total reads as zero), and ``changedKeys`` says whose
/// total changed since the previous result of the same pipeline, so that a row showing one
/// key's total need only look at its key.
///
/// A value: it keeps its totals while the pipeline that made it goes on (later results share
/// every total an edit did not touch with it).
///
/// ## Complexity
/// - ``subscript(_:)``, ``contains(_:)``, ``count``: O(1) (a dictionary lookup, then at most
///   ⌈log₃₂ keys⌉ nodes).
/// - ``keys``, ``dictionary``: O(keys).
/// - ``changedKeys``: O(changed keys) (the set is made when asked).
/// - Following one edit of the list: O(1) for each changed element (and O(log₃₂ keys) to share
///   the result's totals), whatever the number of keys.
public struct KeyedTotals<Key: Hashable & Sendable, Value: AdditiveArithmetic & Sendable>: Sendable {
    @usableFromInline let _slots: _KeySlots<Key>
    @usableFromInline let _totals: _SlotVector<_KeyedTotal<Value>>
    @usableFromInline let _keyCount: Int
    /// This result's identity (a stamp no other result of the process has), shared with the
    /// results after it that no edit changed; and the previous result's, when some total changed
    /// (see ``==(_:_:)``). Stamps, not objects: no allocation per edit.
    @usableFromInline let _token: UInt64
    @usableFromInline let _previous: UInt64?
    /// Which numbering of the keys `_slots` has: the same for every result of a pipeline until
    /// a full evaluation numbers them anew (see `_ChangedKeys`).
    @usableFromInline let _numbering: UInt64
    /// The keys whose total changed (``changedKeys``).
    @usableFromInline let _changed: _ChangedKeys<Key>

    @usableFromInline
    init(_slots: _KeySlots<Key>, _totals: _SlotVector<_KeyedTotal<Value>>, _keyCount: Int, _token: UInt64, _previous: UInt64?,
         _numbering: UInt64, _changed: _ChangedKeys<Key>) {
        self._slots = _slots
        self._totals = _totals
        self._keyCount = _keyCount
        self._token = _token
        self._previous = _previous
        self._numbering = _numbering
        self._changed = _changed
    }

    /// No key.
    ///
    /// - Complexity: O(1).
    public init() {
        self.init(_slots: _KeySlots(), _totals: _SlotVector(), _keyCount: 0, _token: VersionStamp.next().rawValue, _previous: nil,
                  _numbering: 0, _changed: _ChangedKeys())
    }

    /// The keys whose total changed, or that gained their first element or lost their last,
    /// since the previous result of the same pipeline (after a full evaluation, compared with
    /// the previous result, if any).
    ///
    /// After an edit, the result knows these keys by their slots and makes the set when asked:
    /// an edit whose changes nobody asks about allocates and hashes nothing for them.
    ///
    /// - Complexity: O(changed keys).
    public var changedKeys: Set<Key> { _changed.keys(in: _slots) }

    /// The total of `key`'s elements (zero if it has none).
    ///
    /// - Complexity: O(1): a dictionary lookup and at most ⌈log₃₂ keys⌉ nodes.
    @inlinable
    public subscript(key: Key) -> Value {
        guard let slot = _slots.slot(of: key) else { return .zero }
        return _totals[slot].value
    }

    /// Whether `key` has at least one element.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func contains(_ key: Key) -> Bool {
        guard let slot = _slots.slot(of: key) else { return false }
        return _totals[slot].members > 0
    }

    /// The number of keys with at least one element.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { _keyCount }

    /// The keys with at least one element, in no particular order.
    ///
    /// - Complexity: O(keys ever seen by the pipeline since its last full evaluation).
    public var keys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(_keyCount)
        _totals.forEach { slot, total in
            if total.members > 0 { keys.append(_slots.key(at: slot)) }
        }
        return keys
    }

    /// The totals of the keys with at least one element.
    ///
    /// - Complexity: O(keys ever seen by the pipeline since its last full evaluation).
    public var dictionary: [Key: Value] {
        var totals: [Key: Value] = Dictionary(minimumCapacity: _keyCount)
        _totals.forEach { slot, total in
            if total.members > 0 { totals[_slots.key(at: slot)] = total.value }
        }
        return totals
    }
}

extension KeyedTotals: Equatable {
    /// The same keys with the same totals (``changedKeys`` are not compared, so a recomputed
    /// result equal to the cached one lets a memo cell cut off).
    ///
    /// - Complexity: O(1) for a result and later ones of its pipeline while no total changed;
    ///   O(changed keys) for a result and the next one; otherwise O(keys).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs._token == rhs._token { return true }
        if lhs._keyCount != rhs._keyCount { return false }
        // One result and the next: the totals whose key did not change are equal.
        if rhs._previous == lhs._token {
            return rhs._changed.allSatisfy(in: rhs._slots) { lhs[$0] == rhs[$0] && lhs.contains($0) == rhs.contains($0) }
        }
        if lhs._previous == rhs._token {
            return lhs._changed.allSatisfy(in: lhs._slots) { lhs[$0] == rhs[$0] && lhs.contains($0) == rhs.contains($0) }
        }
        return lhs.dictionary == rhs.dictionary
    }
}

extension KeyedTotals: CustomStringConvertible {
    /// The totals by key, as a dictionary prints them.
    ///
    /// - Complexity: O(keys).
    public var description: String { dictionary.description }
}

/// A key's total and how many elements make it (0: the key is absent).
@usableFromInline
struct _KeyedTotal<Value> {
    @usableFromInline var value: Value
    @usableFromInline var members: Int

    @inlinable
    init(value: Value, members: Int) {
        self.value = value
        self.members = members
    }
}

extension _KeyedTotal: Sendable where Value: Sendable {}
