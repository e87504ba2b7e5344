/// What changed between two results of one ``SectionedListQuery`` pipeline, section by section:
/// what a diffable data source applies to its sections, or a `UITableView`'s batch updates.
///
/// - ``removals``: sections that were in the previous result and are not in this one (offsets
///   in the previous result);
/// - ``insertions``: sections that are in this result and were not in the previous one (offsets
///   in this result);
/// - ``moves``: sections in both whose place among the others changed (after the key order's
///   inputs changed): the fewest such that every other section keeps its relative order;
/// - ``changedKeys``: the keys whose section's elements changed, including the sections inserted
///   and removed (see ``ListGroups/changedKeys``).
///
/// Following the list's edits, the first two cost O(log k) per section that appeared or
/// disappeared and there are no moves; after the keys were sorted again or the sections were
/// evaluated in full, the two results' keys are compared when a property is read, in
/// O(k log k).
public struct ListSectionChanges<Key: Hashable & Sendable>: @unchecked Sendable {
    // Safety: immutable; holds Sendable keys and immutable key orders.
    /// A section's offset in the previous result and in this one.
    public typealias Move = ListViewChanges<Key>.Move

    @usableFromInline
    enum _Storage {
        /// The sections that disappeared (offsets in the previous result) and appeared (offsets
        /// in this one); the others kept their order.
        case followed(removals: [(offset: Int, key: Key)], insertions: [(offset: Int, key: Key)])
        /// The previous order (nil: no previous result) and this one, compared when read.
        case compared(old: _KeyOrder<Key>?, new: _KeyOrder<Key>)
    }

    @usableFromInline let _storage: _Storage
    /// The keys whose section's elements changed since the previous result, including the
    /// sections inserted and removed (after a full evaluation, as ``ListGroups/changedKeys``).
    ///
    /// - Complexity: O(1).
    public let changedKeys: Set<Key>

    @usableFromInline
    init(_storage: _Storage, changedKeys: Set<Key>) {
        self._storage = _storage
        self.changedKeys = changedKeys
    }

    /// Offsets in the previous result of the sections that left, ascending.
    ///
    /// - Complexity: O(changes log changes) after following edits; otherwise O(k log k).
    public var removals: [Int] { _changes.removals.map(\.offset) }

    /// Offsets in this result of the sections that arrived, ascending.
    ///
    /// - Complexity: O(changes log changes) after following edits; otherwise O(k log k).
    public var insertions: [Int] { _changes.insertions.map(\.offset) }

    /// Sections in both results whose place among the others changed, by offset in this result.
    ///
    /// - Complexity: O(1) after following edits (there are none); otherwise O(k log k).
    public var moves: [Move] { _changes.moves.map(\.move) }

    /// Whether no section arrived, left, moved or changed its elements.
    ///
    /// - Complexity: O(1) after following edits; otherwise O(k).
    public var isEmpty: Bool {
        guard changedKeys.isEmpty else { return false }
        switch _storage {
        case .followed(let removals, let insertions): return removals.isEmpty && insertions.isEmpty
        case .compared(let old, let new): return (old?.keys ?? []) == new.keys
        }
    }

    /// All of the section changes as a `CollectionDifference` of the keys from the previous
    /// result to this one: a move is a removal at `from` associated with an insertion at `to`,
    /// so `previousKeys.applying(difference)` gives this result's keys.
    ///
    /// - Complexity: O(changes log changes) after following edits; otherwise O(k log k).
    public var difference: CollectionDifference<Key> {
        let found = _changes
        var changes: [CollectionDifference<Key>.Change] = []
        for removal in found.removals { changes.append(.remove(offset: removal.offset, element: removal.key, associatedWith: nil)) }
        for insertion in found.insertions { changes.append(.insert(offset: insertion.offset, element: insertion.key, associatedWith: nil)) }
        for (move, key) in found.moves {
            changes.append(.remove(offset: move.from, element: key, associatedWith: move.to))
            changes.append(.insert(offset: move.to, element: key, associatedWith: move.from))
        }
        guard let difference = CollectionDifference(changes) else {
            preconditionFailure("ListSectionChanges: inconsistent offsets (a bug in the sections' pipeline)")
        }
        return difference
    }

    /// The changes, sorted: removals and insertions by offset, moves by their offset in this
    /// result.
    var _changes: (removals: [(offset: Int, key: Key)], insertions: [(offset: Int, key: Key)], moves: [(move: Move, key: Key)]) {
        switch _storage {
        case .followed(let removals, let insertions):
            return (removals.sorted { $0.offset < $1.offset }, insertions.sorted { $0.offset < $1.offset }, [])
        case .compared(let old, let new):
            return Self._compare(old?.keys ?? [], new.keys)
        }
    }

    /// The sections removed, inserted and moved from `old` to `new`: the sections in both that
    /// stay are a longest run whose offsets in `old` increase along `new`; the others move.
    static func _compare(_ old: [Key], _ new: [Key]) -> (removals: [(offset: Int, key: Key)], insertions: [(offset: Int, key: Key)],
                                                        moves: [(move: Move, key: Key)]) {
        var oldOffsets: [Key: Int] = Dictionary(minimumCapacity: old.count)
        for (offset, key) in old.enumerated() { oldOffsets[key] = offset }
        var newKeys = Set<Key>(minimumCapacity: new.count)
        var insertions: [(offset: Int, key: Key)] = []
        var common: [(from: Int, to: Int)] = []
        for (offset, key) in new.enumerated() {
            newKeys.insert(key)
            if let from = oldOffsets[key] { common.append((from, offset)) } else { insertions.append((offset, key)) }
        }
        let removals = old.enumerated().filter { !newKeys.contains($0.element) }.map { (offset: $0.offset, key: $0.element) }
        let stays = _longestIncreasingRun(common.map(\.from))
        var moves: [(move: Move, key: Key)] = []
        for (index, pair) in common.enumerated() where !stays.contains(index) {
            moves.append((Move(from: pair.from, to: pair.to), new[pair.to]))
        }
        return (removals, insertions, moves)
    }

    /// The positions in `values` of a longest strictly increasing subsequence. O(n log n).
    static func _longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []          // positions in `values` of the smallest tail of each length
        var parents = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { parents[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run = Set<Int>(minimumCapacity: tails.count)
        var position = tails.last ?? -1
        while position >= 0 {
            run.insert(position)
            position = parents[position]
        }
        return run
    }
}
