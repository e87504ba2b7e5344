/// A persistent array of values by slot (0..<count), as a 32-way trie: reading a slot walks
/// ⌈log₃₂ count⌉ nodes; an edit copies the nodes on its path that another copy holds (at most 32
/// references each) and edits in place those only this vector holds.
///
/// What keyed results (``ListGroups``) keep one value per key in: a result made after an edit
/// shares every node the edit did not touch with the previous result, so making it costs
/// O(log₃₂ keys), not O(keys), and the previous result keeps its values.
@usableFromInline
struct _SlotVector<Value> {
    @usableFromInline
    final class Node {
        // Unchecked exclusivity: these fields are read on every access by offset or key and edited
        // only through a uniquely held reference, in non-overlapping accesses; the dynamic checks
        // (inlined into the user's module) cost more than the read itself.
        /// Leaf: the values.
        @usableFromInline @exclusivity(unchecked) var values: ContiguousArray<Value>
        /// Branch: the children (empty in a leaf).
        @usableFromInline @exclusivity(unchecked) var children: ContiguousArray<Node>

        @usableFromInline
        init(values: ContiguousArray<Value>) {
            self.values = values
            self.children = []
        }

        @usableFromInline
        init(children: ContiguousArray<Node>) {
            self.values = []
            self.children = children
        }

        @usableFromInline
        init(copying node: Node) {
            values = node.values
            children = node.children
        }
    }

    @inlinable static var bits: Int { 5 }
    @inlinable static var width: Int { 1 << bits }

    @usableFromInline var root: Node
    /// The bits of a slot below the root's level: 0 when the root is a leaf; otherwise the root's
    /// child of `slot` is `(slot >> shift) & (width − 1)`.
    @usableFromInline var shift: Int
    @usableFromInline var count: Int

    /// An empty vector.
    @inlinable
    init() {
        root = Node(values: [])
        shift = 0
        count = 0
    }

    /// A vector of `values`, built in O(n).
    @inlinable
    init(_ values: ContiguousArray<Value>) {
        count = values.count
        shift = 0
        var level = ContiguousArray<Node>()
        var start = 0
        while start < values.count {
            let end = Swift.min(start + Self.width, values.count)
            level.append(Node(values: ContiguousArray(values[start..<end])))
            start = end
        }
        while level.count > 1 {
            var next = ContiguousArray<Node>()
            var start = 0
            while start < level.count {
                let end = Swift.min(start + Self.width, level.count)
                next.append(Node(children: ContiguousArray(level[start..<end])))
                start = end
            }
            level = next
            shift += Self.bits
        }
        root = level.first ?? Node(values: [])
    }

    /// The value of `slot` (0..<count). O(log₃₂ count).
    @inlinable
    subscript(slot: Int) -> Value {
        // Unretained: `root`, held by `self` for the whole read, holds every node on the path;
        // retaining each node and releasing its parent cost two atomic operations per level, most
        // of a read when a sidebar reads hundreds of keys.
        var node = Unmanaged.passUnretained(root)
        var shift = self.shift
        while shift > 0 {
            let index = (slot &>> shift) & (Self.width - 1)
            node = node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[index]) }
            shift -= Self.bits
        }
        return node._withUnsafeGuaranteedRef { $0.values[slot & (Self.width - 1)] }
    }

    /// Calls `body` with the value of `slot` (0..<count) to edit in place, copying first the
    /// nodes on its path that another vector holds. O(log₃₂ count) (and 32 references per copied
    /// node).
    @inlinable
    mutating func update<Result>(_ slot: Int, _ body: (inout Value) -> Result) -> Result {
        if !isKnownUniquelyReferenced(&root) { root = Node(copying: root) }
        var node = root
        var shift = self.shift
        while shift > 0 {
            let index = (slot &>> shift) & (Self.width - 1)
            if !isKnownUniquelyReferenced(&node.children[index]) {
                node.children[index] = Node(copying: node.children[index])
            }
            node = node.children[index]
            shift -= Self.bits
        }
        return body(&node.values[slot & (Self.width - 1)])
    }

    /// Adds `value` in slot `count`. O(log₃₂ count).
    @inlinable
    mutating func append(_ value: Value) {
        if count == 1 &<< (shift + Self.bits) {
            root = Node(children: [root])   // full: one more level
            shift += Self.bits
        }
        if !isKnownUniquelyReferenced(&root) { root = Node(copying: root) }
        var node = root
        var shift = self.shift
        while shift > 0 {
            let index = (count &>> shift) & (Self.width - 1)
            if index == node.children.count {
                node.children.append(shift == Self.bits ? Node(values: []) : Node(children: []))
            } else if !isKnownUniquelyReferenced(&node.children[index]) {
                node.children[index] = Node(copying: node.children[index])
            }
            node = node.children[index]
            shift -= Self.bits
        }
        node.values.append(value)
        count += 1
    }

    /// Calls `body` with each slot and its value, in slot order. O(count).
    @inlinable
    func forEach(_ body: (Int, Value) throws -> Void) rethrows {
        var slot = 0
        try Self.forEach(in: root, &slot, body)
    }

    @inlinable
    static func forEach(in node: Node, _ slot: inout Int, _ body: (Int, Value) throws -> Void) rethrows {
        if node.children.isEmpty {
            for value in node.values {
                try body(slot, value)
                slot += 1
            }
        } else {
            for child in node.children { try forEach(in: child, &slot, body) }
        }
    }
}

extension _SlotVector: @unchecked Sendable where Value: Sendable {}
// Safety: nodes are mutated only when uniquely referenced (isKnownUniquelyReferenced), so a node
// reachable from two vectors, possibly on two threads, is never mutated; otherwise they are values.
