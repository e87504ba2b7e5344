import ConcurrencyTestSupport
import Testing

@testable import ComputedRuntime

@Suite("Ordered tree (the order-statistic B+tree behind ListView)")
struct OrderedTreeTests {
    /// 10^5 random insertions and removals (tens of thousands of entries, so three or four
    /// levels, splits and merges at every level), checked against a sorted array: count, entry
    /// by offset, rank; and snapshots taken along the way keep their contents.
    @Test("random insertions and removals match a sorted array; snapshots stay unchanged", arguments: [11, 12] as [UInt64])
    func randomEdits(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var tree = _OrderedTree<Int>()
        var sorted: [Int] = []
        var snapshots: [(tree: _OrderedTree<Int>, contents: [Int])] = []
        let less: (Int, Int) -> Bool = { $0 < $1 }
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
                #expect(tree.rank(of: count, { $0 < $1 }) == (count + 1) / 2)
            }
            var copy = tree
            copy.insert(-1, { $0 < $1 })
            #expect(copy.count == count + 1 && tree.count == count)
        }
    }
}
