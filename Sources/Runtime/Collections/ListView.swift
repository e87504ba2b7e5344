/// The result of an incremental list query (``ListQuery``): a read-only, random-access
/// collection of the output elements, with the ``changes`` since the previous result of the same
/// pipeline.
///
/// Reading an element by offset costs O(log n) (the elements live in a balanced tree ordered by
/// the query's sort order); ``count`` is O(1); iterating walks the tree leaf by leaf, O(1)
/// amortized per element with nothing copied up front, so a loop that stops early or
/// `first(where:)` costs only the elements it visits. A view is a value: it stays
/// valid, and unchanged, while the pipeline that produced it goes on to later results (they
/// share the tree's unchanged nodes).
///
/// Elements that are `Identifiable` make the view usable directly in SwiftUI's `ForEach` and
/// `List`; ``changes`` feeds UIKit's batch updates or ``ListViewChanges/difference``.
public struct ListView<Element>: RandomAccessCollection {
    /// Positions are offsets, from 0.
    public typealias Index = Int
    /// The offsets of the elements.
    public typealias Indices = Range<Int>

    @usableFromInline let _storage: _ListViewStorage<Element>
    /// What changed since the previous result of the pipeline that produced this view.
    public let changes: ListViewChanges<Element>

    @usableFromInline
    init(_storage: _ListViewStorage<Element>, changes: ListViewChanges<Element>) {
        self._storage = _storage
        self.changes = changes
    }

    /// An empty view.
    public init() {
        self.init(_storage: _ListViewStorage(), changes: ListViewChanges())
    }

    /// A view of `elements`, in order (for previews and tests; not maintained incrementally).
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        let storage = _ArrayListViewStorage(ContiguousArray(elements))
        self.init(_storage: storage, changes: ListViewChanges(_storage: .reload(old: nil, new: storage)))
    }

    /// 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of elements.
    @inlinable public var endIndex: Int { _storage.count }
    /// The number of elements. O(1).
    @inlinable public var count: Int { _storage.count }

    /// The element at `position`. O(log n).
    @inlinable
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < _storage.count, "ListView: index \(position) out of range")
        return _storage.element(at: position)
    }

    /// An iterator over the view's elements, in order.
    ///
    /// - Complexity: O(1); each call to `next()` is O(1) amortized (the iterator reads one leaf
    ///   of the view's tree at a time, O(log n) per leaf of up to 32 elements).
    public func makeIterator() -> Iterator {
        Iterator(_storage: _storage)
    }

    /// The number of elements. O(1).
    @inlinable public var underestimatedCount: Int { _storage.count }

    /// The elements as an array. O(n).
    public var elements: [Element] { _storage.elements() }
}

extension ListView {
    /// Walks a view's elements in order, one leaf of its tree at a time: nothing is copied up
    /// front, so stopping after the first elements costs only those elements.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let _storage: _ListViewStorage<Element>
        /// The elements of the current leaf, from `_nextOffset - _buffer.count` on.
        @usableFromInline var _buffer: ContiguousArray<Element> = []
        /// The position in `_buffer` of the element `next()` returns.
        @usableFromInline var _bufferIndex = 0
        /// The offset in the view of the first element not yet in `_buffer`.
        @usableFromInline var _nextOffset = 0

        @inlinable
        init(_storage: _ListViewStorage<Element>) {
            self._storage = _storage
        }

        /// The next element, or nil after the last one.
        ///
        /// - Complexity: O(1) amortized.
        @inlinable
        public mutating func next() -> Element? {
            if _bufferIndex == _buffer.count {
                guard _nextOffset < _storage.count else { return nil }
                _buffer.removeAll(keepingCapacity: true)
                _storage.appendRun(from: _nextOffset, to: &_buffer)
                _nextOffset += _buffer.count
                _bufferIndex = 0
            }
            defer { _bufferIndex += 1 }
            return _buffer[_bufferIndex]
        }
    }
}

extension ListView: @unchecked Sendable where Element: Sendable {}
// Safety: the storage is immutable once made, and holds only Sendable values (the queries that
// make views require Sendable sources and @Sendable closures).

extension ListView: Equatable where Element: Equatable {
    /// Same elements in the same order (the changes are not compared, so a recomputed view equal
    /// to the cached one lets the memo cell cut off).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs._storage === rhs._storage || lhs.elementsEqual(rhs)
    }
}

extension ListView: CustomStringConvertible {
    /// The elements, as an array prints them.
    public var description: String { elements.description }
}

/// The elements behind a ``ListView``: immutable once made.
@usableFromInline
class _ListViewStorage<Element>: @unchecked Sendable {
    // Safety: immutable; subclasses hold Sendable values when Element is (see ListView).
    @usableFromInline let count: Int

    @usableFromInline
    init(count: Int = 0) {
        self.count = count
    }

    @usableFromInline
    func element(at offset: Int) -> Element {
        preconditionFailure("_ListViewStorage: empty")
    }

    @usableFromInline
    func elements() -> [Element] {
        []
    }

    /// Appends the elements from `offset` (< `count`) to the end of the run that holds it
    /// (a leaf of the tree; a chunk of an array), at least one element. O(log n + run).
    @usableFromInline
    func appendRun(from offset: Int, to buffer: inout ContiguousArray<Element>) {
        preconditionFailure("_ListViewStorage: empty")
    }
}

/// Storage over a plain array.
final class _ArrayListViewStorage<Element>: _ListViewStorage<Element>, @unchecked Sendable {
    let array: ContiguousArray<Element>

    init(_ array: ContiguousArray<Element>) {
        self.array = array
        super.init(count: array.count)
    }

    override func element(at offset: Int) -> Element { array[offset] }
    override func elements() -> [Element] { Array(array) }

    override func appendRun(from offset: Int, to buffer: inout ContiguousArray<Element>) {
        buffer.append(contentsOf: array[offset..<Swift.min(offset + 32, count)])
    }
}

/// Storage over a tree of source entries, projected to the output elements on read, and cut to
/// the first `count` entries (a `prefix`).
@usableFromInline
final class _TreeListViewStorage<Source: Identifiable, Element>: _ListViewStorage<Element>, @unchecked Sendable {
    @usableFromInline let tree: _OrderedTree<_ListEntry<Source>>
    @usableFromInline let project: @Sendable (Source) -> Element
    /// The `_ListViewLineage` of the pipeline that made the view, when a query may chain from
    /// it (set once, before the view is published), and the sequence of the update that made it.
    @usableFromInline var _lineage: AnyObject?
    @usableFromInline var _sequence: UInt64 = 0
    /// The reads behind `element(at:)` and `appendRun(from:to:)`, made by the initializer where
    /// it is inlined, so specialized for the view's types. The overrides run unspecialized
    /// (a view's reads are virtual), where each tree level would look up its node type's
    /// metadata, a hashed search that is most of a read after the caches were disturbed.
    @usableFromInline let _element: (_TreeListViewStorage, Int) -> Element
    @usableFromInline let _appendRun: (_TreeListViewStorage, Int, inout ContiguousArray<Element>) -> Void

    @inlinable
    init(tree: _OrderedTree<_ListEntry<Source>>, limit: Int?, project: @escaping @Sendable (Source) -> Element) {
        self.tree = tree
        self.project = project
        _element = { storage, offset in storage.project(storage.tree[offset].element) }
        _appendRun = { storage, offset, buffer in storage._specializedAppendRun(from: offset, to: &buffer) }
        super.init(count: Swift.min(tree.count, limit ?? .max))
    }

    @inlinable
    override func element(at offset: Int) -> Element {
        _element(self, offset)
    }

    /// Leaf by leaf, through the specialized run reader the iterator uses.
    @usableFromInline
    override func elements() -> [Element] {
        var result = ContiguousArray<Element>()
        result.reserveCapacity(count)
        while result.count < count { _appendRun(self, result.count, &result) }
        return Array(result)
    }

    @inlinable
    override func appendRun(from offset: Int, to buffer: inout ContiguousArray<Element>) {
        _appendRun(self, offset, &buffer)
    }

    @inlinable
    func _specializedAppendRun(from offset: Int, to buffer: inout ContiguousArray<Element>) {
        let run = tree.leaf(containing: offset)
        let entries = run.node.entries   // read the node's array once, not once per element
        let end = Swift.min(entries.count, run.start + count - offset)
        buffer.reserveCapacity(end - run.start)
        for position in run.start..<end {
            buffer.append(project(entries[position].element))
        }
    }
}

/// A source element with its place in the source list's order, as a view's tree holds it.
@usableFromInline
struct _ListEntry<Source> {
    @usableFromInline var element: Source
    @usableFromInline var label: UInt64

    @inlinable
    init(element: Source, label: UInt64) {
        self.element = element
        self.label = label
    }
}

extension _ListEntry: Sendable where Source: Sendable {}
