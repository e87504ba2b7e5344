import CComputedAtomics

/// The id index of an ``IdentifiedList``: each id's offset in its elements. Also the key → slot
/// table of keyed results (``_KeySlots``).
///
/// A dictionary, with two economies over `[ID: Int]` that count in a bulk load, where every
/// element is inserted at a random place of a table that does not fit in the caches at 10^6
/// elements: offsets are stored in 32 bits (a quarter less memory to touch, with 64-bit ids),
/// and integer ids are hashed by a mix of the id with the table's seed and a random key of the
/// process (a few multiplications) rather than by SipHash, which was most of the instructions of
/// building the index. Other ids hash as they define.
@usableFromInline
struct _IDIndex<ID: Hashable> {
    @usableFromInline var _storage: [_IDKey<ID>: UInt32]

    /// An empty index.
    @inlinable
    init() {
        _publishIDHashKey()
        _storage = [:]
    }

    /// An empty index with room for `minimumCapacity` ids without growing.
    @inlinable
    init(minimumCapacity: Int) {
        _publishIDHashKey()
        _storage = Dictionary(minimumCapacity: minimumCapacity)
    }

    /// The offset of `id`, or nil; setting nil removes `id`.
    @inlinable
    subscript(id: ID) -> Int? {
        get { _storage[_IDKey(id)].map { Int($0) } }
        set { _storage[_IDKey(id)] = newValue.map { Self._stored($0) } }
    }

    /// Adds `id` at `offset`; false, with `id` then at `offset`, if it was there already.
    @inlinable
    mutating func insertNew(_ id: ID, at offset: Int) -> Bool {
        _storage.updateValue(Self._stored(offset), forKey: _IDKey(id)) == nil
    }

    /// `offset` in 32 bits: a list holds fewer than 2^32 elements (a precondition failure
    /// otherwise).
    @inlinable @inline(__always)
    static func _stored(_ offset: Int) -> UInt32 {
        guard let stored = UInt32(exactly: offset) else {
            preconditionFailure("IdentifiedList: more than \(UInt32.max) elements")
        }
        return stored
    }
}

/// An id as a key of the id index: equal and hashed as the id, except that integer ids of 32 and
/// 64 bits are hashed by `_IDKey.mix`.
@usableFromInline
struct _IDKey<ID: Hashable>: Hashable {
    @usableFromInline let id: ID

    @inlinable
    init(_ id: ID) {
        self.id = id
    }

    @inlinable
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(_rawHashValue(seed: 0))
    }

    /// What a dictionary hashes keys with: `mix` for integer ids, the id's own hash otherwise.
    @inlinable
    func _rawHashValue(seed: Int) -> Int {
        if ID.self == Int.self { return Self.mix(UInt64(bitPattern: Int64(unsafeBitCast(id, to: Int.self))), seed) }
        if ID.self == Int64.self { return Self.mix(UInt64(bitPattern: unsafeBitCast(id, to: Int64.self)), seed) }
        if ID.self == UInt.self { return Self.mix(UInt64(unsafeBitCast(id, to: UInt.self)), seed) }
        if ID.self == UInt64.self { return Self.mix(unsafeBitCast(id, to: UInt64.self), seed) }
        if ID.self == Int32.self { return Self.mix(UInt64(bitPattern: Int64(unsafeBitCast(id, to: Int32.self))), seed) }
        if ID.self == UInt32.self { return Self.mix(UInt64(unsafeBitCast(id, to: UInt32.self)), seed) }
        return id._rawHashValue(seed: seed)
    }

    /// `value` xored with `seed` and the process's key, then SplitMix64's finalizer (a bijection
    /// whose every output bit depends on every input bit): consecutive ids spread over the table,
    /// and which ids collide depends on keys an input cannot know.
    ///
    /// The key is read from a C global (one load) rather than from `_idHashKey`, whose lazy
    /// initialization would cost a `swift_once` check per hash: a third of a lookup's
    /// instructions. Every index's initializer has published it (`_publishIDHashKey`), so the
    /// hashes of an index all see the same key.
    @inlinable @inline(__always)
    static func mix(_ value: UInt64, _ seed: Int) -> Int {
        var z = value ^ UInt64(bitPattern: Int64(seed)) ^ cg_id_hash_key()
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: z ^ (z >> 31))
    }
}

/// A random key per process, drawn as `Hasher`'s (so fixed when SWIFT_DETERMINISTIC_HASHING is
/// set, as `Hasher` is), for `_IDKey.mix`.
let _idHashKey: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x1D_1D)
    return UInt64(truncatingIfNeeded: hasher.finalize())
}()

/// `_idHashKey`, stored once into the C global that `_IDKey.mix` reads (`cg_id_hash_key`).
private let _idHashKeyPublished: Void = cg_id_hash_key_publish(_idHashKey)

/// Makes sure the id index's hash key is published before an index hashes anything: every
/// index's initializer calls it (one `swift_once` check per index made, none per hash). The
/// `once` orders the store before whatever follows the call on any thread.
@usableFromInline
func _publishIDHashKey() {
    _ = _idHashKeyPublished
}

extension _IDIndex: Sendable where ID: Sendable {}
extension _IDKey: Sendable where ID: Sendable {}
