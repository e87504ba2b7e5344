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
/// - Following one edit of the list: O(1) for each changed element (and O(log₃₂ keys) to share
///   the result's totals), whatever the number of keys.
public struct KeyedTotals<Key: Hashable & Sendable, Value: AdditiveArithmetic & Sendable>: Sendable {
    @usableFromInline let _slots: _KeySlots<Key>
    @usableFromInline let _totals: _SlotVector<_KeyedTotal<Value>>
    @usableFromInline let _keyCount: Int
    /// This result's identity, shared with the results after it that no edit changed, and the
    /// previous result's when some total changed (see ``==(_:_:)``).
    @usableFromInline let _token: _GroupsToken
    @usableFromInline let _previous: _GroupsToken?
    /// The keys whose total changed, or that gained their first element or lost their last,
    /// since the previous result of the same pipeline (after a full evaluation, compared with
    /// the previous result, if any).
    ///
    /// - Complexity: O(1).
    public let changedKeys: Set<Key>

    @usableFromInline
    init(_slots: _KeySlots<Key>, _totals: _SlotVector<_KeyedTotal<Value>>, _keyCount: Int, _token: _GroupsToken, _previous: _GroupsToken?,
         changedKeys: Set<Key>) {
        self._slots = _slots
        self._totals = _totals
        self._keyCount = _keyCount
        self._token = _token
        self._previous = _previous
        self.changedKeys = changedKeys
    }

    /// No key.
    ///
    /// - Complexity: O(1).
    public init() {
        self.init(_slots: _KeySlots(), _totals: _SlotVector(), _keyCount: 0, _token: _GroupsToken(), _previous: nil, changedKeys: [])
    }

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
        if lhs._token === rhs._token { return true }
        if lhs._keyCount != rhs._keyCount { return false }
        // One result and the next: the totals whose key did not change are equal.
        if let previous = rhs._previous, previous === lhs._token { return rhs.changedKeys.allSatisfy { lhs[$0] == rhs[$0] && lhs.contains($0) == rhs.contains($0) } }
        if let previous = lhs._previous, previous === rhs._token { return lhs.changedKeys.allSatisfy { lhs[$0] == rhs[$0] && lhs.contains($0) == rhs.contains($0) } }
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
