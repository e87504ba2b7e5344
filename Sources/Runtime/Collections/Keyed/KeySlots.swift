/// Stable slots for the keys of a keyed result (``ListGroups``): each key gets the next slot the
/// first time it appears and keeps it, so per-key values live in a ``_SlotVector`` by slot and
/// this table changes only when a new key appears.
///
/// Copy-on-write: results share the table with the state that made them; adding a key to a
/// shared table copies it (O(keys), once per new key).
///
/// The key → slot table is an ``_IDIndex`` (slots in 32 bits, integer keys hashed by a keyed mix
/// rather than SipHash): a sidebar reads every key's total after each edit, and with the caches
/// cold that read is the table's lines.
@usableFromInline
struct _KeySlots<Key: Hashable> {
    @usableFromInline
    final class Storage {
        // Unchecked exclusivity: these fields are read on every access by offset or key and edited
        // only through a uniquely held reference, in non-overlapping accesses; the dynamic checks
        // (inlined into the user's module) cost more than the read itself.
        @usableFromInline @exclusivity(unchecked) var slots: _IDIndex<Key>
        @usableFromInline @exclusivity(unchecked) var keys: ContiguousArray<Key>

        @usableFromInline
        init(slots: _IDIndex<Key>, keys: ContiguousArray<Key>) {
            self.slots = slots
            self.keys = keys
        }
    }

    @usableFromInline var storage: Storage

    /// No key.
    @inlinable
    init() {
        storage = Storage(slots: _IDIndex(), keys: [])
    }

    /// The number of slots (every key seen, including keys whose value became empty).
    @inlinable var count: Int { storage.keys.count }

    /// The slot of `key`, if it has one. O(1).
    @inlinable
    func slot(of key: Key) -> Int? {
        storage.slots[key]
    }

    /// The key of `slot` (0..<count). O(1).
    @inlinable
    func key(at slot: Int) -> Key {
        storage.keys[slot]
    }

    /// The slot of `key`, given the next one (`count`) if it has none; `isNew` says so. O(1), or
    /// O(keys) when a new key is added to a table another value holds.
    @inlinable
    mutating func slot(adding key: Key) -> (slot: Int, isNew: Bool) {
        if let slot = storage.slots[key] { return (slot, false) }
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(slots: storage.slots, keys: storage.keys)
        }
        let slot = storage.keys.count
        storage.keys.append(key)
        _ = storage.slots.insertNew(key, at: slot)
        return (slot, true)
    }
}

extension _KeySlots: @unchecked Sendable where Key: Sendable {}
// Safety: the storage is mutated only when uniquely referenced; otherwise it is a value.
