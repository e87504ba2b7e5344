/// A persistent B+tree of entries kept in the order of a caller-supplied strict total order,
/// with subtree counts: insert, remove, rank and access by offset in O(log n).
///
/// Leaves hold up to ``leafCapacity`` entries in sorted arrays; branches hold up to
/// ``branchCapacity`` children with each child's count and last entry (the separator a search
/// compares with). Nodes are shared between copies of the tree: an edit copies the nodes on its
/// path that another copy holds (O(capacity · log n)) and edits in place those only this tree
/// holds, so keeping the previous ``ListView`` costs O(changes · log n) memory, not a copy.
///
/// The order (an ``_EntryOrder``) is passed to each call and must be the same for every call on
/// one tree (and strict: no two entries of a tree are equivalent).
@usableFromInline
struct _OrderedTree<Entry> {
    @usableFromInline
    final class Node {
        // Unchecked exclusivity: these fields are read on every access by offset or key and edited
        // only through a uniquely held reference, in non-overlapping accesses; the dynamic checks
        // (inlined into the user's module) cost more than the read itself.
        /// Leaf: the entries. Branch: the last entry of each child.
        @usableFromInline @exclusivity(unchecked) var entries: ContiguousArray<Entry>
        /// Branch: the children (empty in a leaf).
        @usableFromInline @exclusivity(unchecked) var children: ContiguousArray<Node>
        /// Branch: the number of entries under each child.
        @usableFromInline @exclusivity(unchecked) var counts: ContiguousArray<Int>
        /// The number of entries under this node.
        @usableFromInline @exclusivity(unchecked) var count: Int
        @usableFromInline let isLeaf: Bool

        @inlinable
        init(leaf entries: ContiguousArray<Entry>) {
            self.entries = entries
            self.children = []
            self.counts = []
            self.count = entries.count
            self.isLeaf = true
        }

        // Inlinable, so that building a tree is specialized for the entry type where it is built
        // (generic copies of the children's last entries cost thousands of instructions each).
        @inlinable
        init(branch children: ContiguousArray<Node>) {
            var entries = ContiguousArray<Entry>()
            var counts = ContiguousArray<Int>()
            entries.reserveCapacity(children.count)
            counts.reserveCapacity(children.count)
            var count = 0
            for child in children {
                entries.append(child.lastEntry)
                counts.append(child.count)
                count += child.count
            }
            self.entries = entries
            self.children = children
            self.counts = counts
            self.count = count
            self.isLeaf = false
        }

        @inlinable
        init(copying node: Node) {
            entries = node.entries
            children = node.children
            counts = node.counts
            count = node.count
            isLeaf = node.isLeaf
        }

        @inlinable var lastEntry: Entry { entries[entries.count - 1] }
        /// Entries (leaf) or children (branch).
        @inlinable var width: Int { isLeaf ? entries.count : children.count }
    }

    @inlinable static var leafCapacity: Int { 32 }
    @inlinable static var branchCapacity: Int { 32 }

    @usableFromInline var root: Node?

    /// An empty tree.
    @inlinable init() { root = nil }

    /// A tree of `sorted` (already in the tree's order), built in O(n).
    @inlinable
    init<C: Collection>(sorted: C) where C.Element == Entry {
        guard !sorted.isEmpty else { self.init(); return }
        let width = Self.leafCapacity * 3 / 4
        var level = ContiguousArray<Node>()
        var chunk = ContiguousArray<Entry>()
        chunk.reserveCapacity(width)
        for entry in sorted {
            chunk.append(entry)
            if chunk.count == width {
                level.append(Node(leaf: chunk))
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { level.append(Node(leaf: chunk)) }
        self.init(leaves: level)
    }

    /// A tree of the entries in `buffer` (already in the tree's order), built in O(n), moving
    /// them out of it: `buffer` is left uninitialized (no entry is copied, nothing retained or
    /// released, where `init(sorted:)` copies each entry and its caller then destroys its own).
    @inlinable
    init(moving buffer: UnsafeMutableBufferPointer<Entry>) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { self.init(); return }
        let width = Self.leafCapacity * 3 / 4
        var level = ContiguousArray<Node>()
        level.reserveCapacity((buffer.count + width - 1) / width)
        var start = 0
        while start < buffer.count {
            let length = Swift.min(width, buffer.count - start)
            let chunk = ContiguousArray<Entry>(unsafeUninitializedCapacity: length) { target, initialized in
                target.baseAddress!.moveInitialize(from: base + start, count: length)
                initialized = length
            }
            level.append(Node(leaf: chunk))
            start += length
        }
        self.init(leaves: level)
    }

    /// A tree of `leaves` (in order, none empty): the branches above them, built in O(leaves).
    @inlinable
    init(leaves: ContiguousArray<Node>) {
        guard !leaves.isEmpty else { root = nil; return }
        var level = leaves
        let fan = Self.branchCapacity * 3 / 4
        while level.count > 1 {
            var next = ContiguousArray<Node>()
            var start = 0
            while start < level.count {
                let end = Swift.min(start + fan, level.count)
                next.append(Node(branch: ContiguousArray(level[start..<end])))
                start = end
            }
            level = next
        }
        root = level[0]
    }

    @inlinable var count: Int { root?.count ?? 0 }

    /// The entry at `offset` (0..<count). O(log n).
    @inlinable
    subscript(offset: Int) -> Entry {
        let found = leaf(containing: offset)
        return found.node.entries[found.start]
    }

    /// The leaf that holds the entry at `offset` (0..<count), and that entry's position in it.
    /// O(log n).
    @inlinable
    func leaf(containing offset: Int) -> (node: Node, start: Int) {
        // Unretained on the way down: the root, held by `self`, holds the path (a retain and a
        // release per level are atomic operations, most of a warm read).
        var node = Unmanaged.passUnretained(root!)
        var rest = offset
        while !node._withUnsafeGuaranteedRef({ $0.isLeaf }) {
            node = node._withUnsafeGuaranteedRef { node in
                var child = 0
                while rest >= node.counts[child] {
                    rest -= node.counts[child]
                    child += 1
                }
                return Unmanaged.passUnretained(node.children[child])
            }
        }
        return (node.takeUnretainedValue(), rest)
    }

    /// The first position in `entries` whose entry is not less than `entry`.
    @inlinable
    static func lowerBound(_ entries: ContiguousArray<Entry>, _ entry: Entry, _ less: _EntryOrder<Entry>) -> Int {
        less.lowerBound(entries, entry)
    }

    /// The offset `entry` has (or would have, if it is not in the tree). O(log n).
    @inlinable
    func rank(of entry: Entry, _ less: _EntryOrder<Entry>) -> Int {
        guard var node = root else { return 0 }
        var offset = 0
        while !node.isLeaf {
            let child = Swift.min(Self.lowerBound(node.entries, entry, less), node.children.count - 1)
            for index in 0..<child { offset += node.counts[index] }
            node = node.children[child]
        }
        return offset + Self.lowerBound(node.entries, entry, less)
    }

    /// Inserts `entry`, which must not be in the tree. O(log n).
    @inlinable
    mutating func insert(_ entry: Entry, _ less: _EntryOrder<Entry>) {
        guard root != nil else {
            root = Node(leaf: [entry])
            return
        }
        if !isKnownUniquelyReferenced(&root!) { root = Node(copying: root!) }
        if let sibling = Self.insert(entry, into: root!, less) {
            root = Node(branch: [root!, sibling])
        }
    }

    /// Inserts into `node` (uniquely held); returns the new right sibling if it split.
    @inlinable
    static func insert(_ entry: Entry, into node: Node, _ less: _EntryOrder<Entry>) -> Node? {
        node.count += 1
        if node.isLeaf {
            node.entries.insert(entry, at: lowerBound(node.entries, entry, less))
            guard node.entries.count > leafCapacity else { return nil }
            let half = node.entries.count / 2
            let right = Node(leaf: ContiguousArray(node.entries[half...]))
            node.entries.removeSubrange(half...)
            node.count = node.entries.count
            return right
        }
        let index = Swift.min(lowerBound(node.entries, entry, less), node.children.count - 1)
        if !isKnownUniquelyReferenced(&node.children[index]) {
            node.children[index] = Node(copying: node.children[index])
        }
        let child = node.children[index]
        let split = insert(entry, into: child, less)
        node.entries[index] = child.lastEntry
        node.counts[index] = child.count
        if let split {
            node.children.insert(split, at: index + 1)
            node.entries.insert(split.lastEntry, at: index + 1)
            node.counts.insert(split.count, at: index + 1)
        }
        guard node.children.count > branchCapacity else { return nil }
        let half = node.children.count / 2
        let right = Node(branch: ContiguousArray(node.children[half...]))
        node.children.removeSubrange(half...)
        node.entries.removeSubrange(half...)
        node.counts.removeSubrange(half...)
        node.count -= right.count
        return right
    }

    /// Replaces `old`, which must be in the tree, with `new`, which must hold the same place in
    /// the order (neither is less than the other): O(log n), and no node is split or merged (an
    /// edited element whose sort key did not change, as a rename that keeps the order).
    /// Returns the entry's offset.
    @inlinable @discardableResult
    mutating func replace(_ old: Entry, with new: Entry, _ less: _EntryOrder<Entry>) -> Int {
        guard root != nil else { preconditionFailure("_OrderedTree: replacing in an empty tree") }
        if !isKnownUniquelyReferenced(&root!) { root = Node(copying: root!) }
        return Self.replace(old, with: new, in: root!, less).offset
    }

    /// Replaces in `node` (uniquely held); returns the entry's offset in `node`, and whether it
    /// was the node's last entry (then it is the separator the parent keeps for the node).
    @inlinable
    static func replace(_ old: Entry, with new: Entry, in node: Node, _ less: _EntryOrder<Entry>) -> (offset: Int, isLast: Bool) {
        if node.isLeaf {
            let position = lowerBound(node.entries, old, less)
            precondition(position < node.entries.count && !less.isLess(old, than: node.entries, at: position),
                         "_OrderedTree: replacing an entry that is not in the tree")
            node.entries[position] = new
            return (position, position == node.entries.count - 1)
        }
        let index = Swift.min(lowerBound(node.entries, old, less), node.children.count - 1)
        var offset = 0
        for child in 0..<index { offset += node.counts[child] }
        if !isKnownUniquelyReferenced(&node.children[index]) {
            node.children[index] = Node(copying: node.children[index])
        }
        let child = node.children[index]
        let found = replace(old, with: new, in: child, less)
        // The separator is the child's last entry: the new one, if the old one was it.
        if found.isLast { node.entries[index] = new }
        return (offset + found.offset, found.isLast && index == node.children.count - 1)
    }

    /// Removes `entry`, which must be in the tree. O(log n).
    @inlinable
    mutating func remove(_ entry: Entry, _ less: _EntryOrder<Entry>) {
        guard root != nil else { preconditionFailure("_OrderedTree: removing from an empty tree") }
        if !isKnownUniquelyReferenced(&root!) { root = Node(copying: root!) }
        Self.remove(entry, from: root!, less)
        if root!.count == 0 {
            root = nil
        } else if !root!.isLeaf, root!.children.count == 1 {
            root = root!.children[0]
        }
    }

    /// Removes from `node` (uniquely held), merging an underfull child with a neighbour.
    @inlinable
    static func remove(_ entry: Entry, from node: Node, _ less: _EntryOrder<Entry>) {
        node.count -= 1
        if node.isLeaf {
            let position = lowerBound(node.entries, entry, less)
            precondition(position < node.entries.count && !less.isLess(entry, than: node.entries, at: position),
                         "_OrderedTree: removing an entry that is not in the tree")
            node.entries.remove(at: position)
            return
        }
        let index = Swift.min(lowerBound(node.entries, entry, less), node.children.count - 1)
        if !isKnownUniquelyReferenced(&node.children[index]) {
            node.children[index] = Node(copying: node.children[index])
        }
        let child = node.children[index]
        remove(entry, from: child, less)
        if child.count == 0 {
            node.children.remove(at: index)
            node.entries.remove(at: index)
            node.counts.remove(at: index)
            return
        }
        node.entries[index] = child.lastEntry
        node.counts[index] = child.count
        let minimum = (child.isLeaf ? leafCapacity : branchCapacity) / 4
        if child.width < minimum, node.children.count > 1 {
            rebalance(node, at: index == node.children.count - 1 ? index - 1 : index)
        }
    }

    /// Merges children `left` and `left + 1` of `node` (uniquely held), splitting the result
    /// evenly again if it is too wide.
    @inlinable
    static func rebalance(_ node: Node, at left: Int) {
        for index in [left, left + 1] {
            if !isKnownUniquelyReferenced(&node.children[index]) {
                node.children[index] = Node(copying: node.children[index])
            }
        }
        let first = node.children[left]
        let second = node.children[left + 1]
        if first.isLeaf {
            first.entries.append(contentsOf: second.entries)
        } else {
            first.entries.append(contentsOf: second.entries)
            first.children.append(contentsOf: second.children)
            first.counts.append(contentsOf: second.counts)
        }
        first.count += second.count
        node.children.remove(at: left + 1)
        node.entries.remove(at: left + 1)
        node.counts.remove(at: left + 1)
        let capacity = first.isLeaf ? leafCapacity : branchCapacity
        if first.width > capacity * 3 / 4 {
            let half = first.width / 2
            let right: Node
            if first.isLeaf {
                right = Node(leaf: ContiguousArray(first.entries[half...]))
                first.entries.removeSubrange(half...)
            } else {
                right = Node(branch: ContiguousArray(first.children[half...]))
                first.children.removeSubrange(half...)
                first.entries.removeSubrange(half...)
                first.counts.removeSubrange(half...)
            }
            first.count -= right.count
            node.children.insert(right, at: left + 1)
            node.entries.insert(right.lastEntry, at: left + 1)
            node.counts.insert(right.count, at: left + 1)
        }
        node.entries[left] = first.lastEntry
        node.counts[left] = first.count
    }

    /// Calls `body` on the entries in order until it returns false. O(entries visited + log n).
    @inlinable
    func forEach(_ body: (Entry) throws -> Bool) rethrows {
        guard let root else { return }
        _ = try Self.forEach(in: root, body)
    }

    @inlinable
    static func forEach(in node: Node, _ body: (Entry) throws -> Bool) rethrows -> Bool {
        if node.isLeaf {
            for entry in node.entries where !(try body(entry)) { return false }
        } else {
            for child in node.children where !(try forEach(in: child, body)) { return false }
        }
        return true
    }
}

extension _OrderedTree: @unchecked Sendable where Entry: Sendable {}
// Safety: nodes are mutated only when uniquely referenced (isKnownUniquelyReferenced), so a node
// reachable from two trees, possibly on two threads, is never mutated; otherwise they are values.
