import CComputedAtomics
import ConcurrencyTestSupport
import Testing

@testable import ComputedRuntime

/// The id index of `IdentifiedList` (integer ids hashed by a mix, offsets in 32 bits) answers as
/// a `[ID: Int]` does, for integer ids of every width and sign and for other ids.
@Suite("IdentifiedList's id index")
struct IDIndexTests {
    private func check<ID: Hashable>(_ ids: [ID], _ what: Comment) {
        var index = _IDIndex<ID>(minimumCapacity: ids.count)
        var reference: [ID: Int] = [:]
        for (offset, id) in ids.enumerated() {
            let inserted = index.insertNew(id, at: offset)
            let new = reference.updateValue(offset, forKey: id) == nil
            #expect(inserted == new, what)
        }
        for id in ids { #expect(index[id] == reference[id], what) }
        // Removals and rewrites, as the list's edits make them.
        for (position, id) in ids.enumerated() where position % 3 == 0 {
            index[id] = nil
            reference[id] = nil
        }
        for (position, id) in ids.enumerated() where position % 3 == 1 {
            index[id] = position + 7
            reference[id] = position + 7
        }
        for id in ids { #expect(index[id] == reference[id], what) }
    }

    @Test("integer ids of every width and sign, other ids")
    func lookups() {
        var generator = SeededGenerator(seed: 5)
        let ints = (0..<3_000).map { _ in Int.random(in: -2_000...2_000, using: &generator) }
        check(ints, "Int, with repeats")
        check([Int.min, .max, 0, -1, 1, .min], "Int, extremes")
        check(ints.map { Int64($0) << 32 }, "Int64, high bits only")
        check(ints.map { UInt(bitPattern: $0) }, "UInt")
        check(ints.map { UInt64(bitPattern: Int64($0)) }, "UInt64")
        check(ints.map { Int32($0) }, "Int32")
        check(ints.map { UInt32(truncatingIfNeeded: $0) }, "UInt32")
        check(ints.map { Int16($0) }, "Int16 (hashed as it defines)")
        check(ints.map { "id \($0)" }, "String")
    }

    @Test("keys equal as their ids are, hashed alike when equal")
    func keys() {
        #expect(_IDKey(42) == _IDKey(42))
        #expect(_IDKey(42) != _IDKey(43))
        #expect(_IDKey(42).hashValue == _IDKey(42).hashValue)
        #expect(_IDKey(42)._rawHashValue(seed: 1) == _IDKey(42)._rawHashValue(seed: 1))
        // Consecutive ids do not map to consecutive hashes (they spread over the table).
        let hashes = Set((0..<1_024).map { _IDKey($0)._rawHashValue(seed: 0) & 1_023 })
        #expect(hashes.count > 512)
    }

    @Test("every index hashes with the process's key, published before its first hash")
    func hashKey() {
        _ = _IDIndex<Int>()
        // The key `mix` reads is the one drawn for the process, not the C global's initial 0.
        #expect(cg_id_hash_key() == _idHashKey)
        let seed = 17
        let mixed = _IDKey<Int>.mix(42, seed)
        var z = UInt64(42) ^ UInt64(seed) ^ _idHashKey
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        #expect(mixed == Int(truncatingIfNeeded: z ^ (z >> 31)))
    }

    @Test("a bulk load finds every id; a repeated id is refused")
    func bulkLoad() {
        let ids = [Int.min, -5, 0, 3, .max] + Array(1_000..<6_000)
        let list = IdentifiedList(ids.map { Mail(id: $0) })
        for (offset, id) in ids.enumerated() { #expect(list.index(id: id) == offset) }
        #expect(list.index(id: 7) == nil)
        var index = _IDIndex<Int>()
        let first = index.insertNew(3, at: 0)
        let second = index.insertNew(3, at: 1)
        #expect(first && !second)
    }
}
