import ConcurrencyTestSupport
import Testing

@testable import ComputedRuntime

@Suite("Ordered tree (the order-statistic B+tree behind ListView)")
struct OrderedTreeTests {
    /// 10^5 random insertions and removals (tens of thousands of entries, so three or four
    /// levels, splits and merges at every level), checked against a sorted array: count, entry
    /// by offset, rank; and snapshots taken along the way keep their contents. With the order
    /// given over values and over the entries' addresses (the searches then read the entries in
    /// place).
    @Test("random insertions and removals match a sorted array; snapshots stay unchanged",
          arguments: [11, 12] as [UInt64], [false, true])
    func randomEdits(seed: UInt64, byAddress: Bool) {
        var generator = SeededGenerator(seed: seed)
        var tree = _OrderedTree<Int>()
        var sorted: [Int] = []
        var snapshots: [(tree: _OrderedTree<Int>, contents: [Int])] = []
        let less = byAddress ? _EntryOrder<Int>(byAddress: { $0.pointee < $1.pointee }) : _EntryOrder { $0 < $1 }
        func position(_ value: Int) -> Int {
            var low = 0
            var high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        for step in 0..<100_000 {
            // Grow to ~40k, then shrink to empty, then grow again.
            let growing = (step / 25_000) % 2 == 0
            let insert = sorted.isEmpty || Int.random(in: 0..<10, using: &generator) < (growing ? 8 : 2)
            if insert {
                let value = Int.random(in: 0..<1_000_000_000, using: &generator)
                let at = position(value)
                if at < sorted.count, sorted[at] == value { continue }
                sorted.insert(value, at: at)
                tree.insert(value, less)
            } else {
                let at = Int.random(in: 0..<sorted.count, using: &generator)
                tree.remove(sorted.remove(at: at), less)
            }
            if tree.count != sorted.count {
                Issue.record("step \(step): count \(tree.count) != \(sorted.count)")
                return
            }
            if !sorted.isEmpty, step % 7 == 0 {
                let offset = Int.random(in: 0..<sorted.count, using: &generator)
                #expect(tree[offset] == sorted[offset])
                #expect(tree.rank(of: sorted[offset], less) == offset)
                #expect(tree.rank(of: sorted[offset] + 1, less) == position(sorted[offset] + 1))
            }
            if step % 10_000 == 5_000 { snapshots.append((tree, sorted)) }
        }
        var all: [Int] = []
        tree.forEach { all.append($0); return true }
        #expect(all == sorted)
        for snapshot in snapshots {
            var contents: [Int] = []
            snapshot.tree.forEach { contents.append($0); return true }
            #expect(contents == snapshot.contents)
        }
    }

    @Test("a tree built from sorted entries answers like one built by insertions")
    func bulkBuild() {
        for count in [0, 1, 31, 32, 33, 1_000, 50_000] {
            let tree = _OrderedTree(sorted: Array(0..<count).map { $0 * 2 })
            #expect(tree.count == count)
            if count > 0 {
                #expect(tree[count - 1] == (count - 1) * 2)
                #expect(tree.rank(of: count, _EntryOrder { $0 < $1 }) == (count + 1) / 2)
            }
            var copy = tree
            copy.insert(-1, _EntryOrder { $0 < $1 })
            #expect(copy.count == count + 1 && tree.count == count)
        }
    }

    /// An entry replaced by one at the same place in the order: every level's separator that was
    /// the old entry names the new one (a later search for entries around it still finds them),
    /// and a snapshot taken before keeps the old entry.
    @Test("replacing an entry in place keeps the order, the separators and snapshots", arguments: [false, true])
    func replaceInPlace(byAddress: Bool) {
        /// A key that orders, and a payload that does not.
        struct Entry: Equatable {
            var key: Int
            var payload: Int
        }
        let less = byAddress
            ? _EntryOrder<Entry>(byAddress: { $0.pointee.key < $1.pointee.key }) : _EntryOrder { $0.key < $1.key }
        let keys = Array(0..<5_000)
        var tree = _OrderedTree(sorted: keys.map { Entry(key: $0, payload: 0) })
        let snapshot = tree
        // Every entry, the last of each leaf and branch among them.
        for key in keys { tree.replace(Entry(key: key, payload: 0), with: Entry(key: key, payload: key + 1), less) }
        var contents: [Entry] = []
        tree.forEach { contents.append($0); return true }
        #expect(contents == keys.map { Entry(key: $0, payload: $0 + 1) })
        for key in stride(from: 0, to: 5_000, by: 97) {
            #expect(tree.rank(of: Entry(key: key, payload: -1), less) == key)
            #expect(tree[key].payload == key + 1)
        }
        // Removing and inserting around replaced entries still finds them.
        tree.remove(Entry(key: 2_000, payload: 2_001), less)
        tree.insert(Entry(key: 2_000, payload: 7), less)
        #expect(tree[2_000].payload == 7 && tree.count == 5_000)
        var old: [Entry] = []
        snapshot.forEach { old.append($0); return true }
        #expect(old.allSatisfy { $0.payload == 0 } && old.count == 5_000)
    }
}
