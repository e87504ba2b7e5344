/// What changed between two results of one incremental list pipeline: the previous ``ListView``
/// and this one, by offset.
///
/// When the pipeline followed its source's changes (``isIncremental``), each element is in
/// exactly one of these groups, or in none when it stayed as it was (neither it nor its source
/// element was edited; it may sit at another offset only because others left or arrived before
/// it):
/// - ``removals``: it was in the previous view and is not in this one (offset in the previous);
/// - ``insertions``: it is in this view and was not in the previous (offset in this one);
/// - ``moves``: it is in both, and its source element was edited in a way that changed its sort
///   key (or its place in the source list): `from` in the previous view, `to` in this one;
/// - ``updates``: it is in both, edited without changing its sort key.
///
/// When the pipeline evaluated the query in full (not ``isIncremental``: a first result, a
/// replaced list, `reuse: false`, …), the changes are a reload: every previous element removed,
/// every element inserted, no moves or updates. (SwiftUI and diffable data sources diff by id
/// themselves; a reload only costs an animation.)
///
/// ``difference`` holds all of them as a `CollectionDifference`: a move or an update is a removal
/// at `from` associated with an insertion at `to`, so `previous.applying(difference)` gives this
/// view. Every property is computed when read, in O(changes log changes); making the changes
/// costs the pipeline nothing beyond the touched elements' offsets.
public struct ListViewChanges<Element> {
    /// An element's offset in the previous view and in this one.
    public struct Move: Hashable, Sendable {
        /// The offset in the previous view.
        public var from: Int
        /// The offset in this view.
        public var to: Int

        /// The element moves from `from` to `to`.
        @inlinable
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// One touched element: where it was and where it is (nil: not in that view).
    @usableFromInline
    struct _Touch {
        @usableFromInline var old: (offset: Int, element: Element)?
        @usableFromInline var new: (offset: Int, element: Element)?
        @usableFromInline var keyChanged: Bool

        @inlinable
        init(old: (offset: Int, element: Element)?, new: (offset: Int, element: Element)?, keyChanged: Bool) {
            self.old = old
            self.new = new
            self.keyChanged = keyChanged
        }
    }

    @usableFromInline
    enum _Storage {
        case incremental([_Touch])
        case reload(old: _ListViewStorage<Element>?, new: _ListViewStorage<Element>)
    }

    @usableFromInline let _storage: _Storage

    @inlinable
    init(_storage: _Storage) {
        self._storage = _storage
    }

    /// No changes.
    public init() {
        self.init(_storage: .incremental([]))
    }

    /// Whether the pipeline followed its source's changes (true) or recomputed the whole view
    /// (false: the changes are a reload).
    public var isIncremental: Bool {
        if case .incremental = _storage { return true }
        return false
    }

    /// Whether nothing changed. O(1).
    public var isEmpty: Bool {
        switch _storage {
        case .incremental(let touches): return touches.isEmpty
        case .reload(let old, let new): return (old?.count ?? 0) == 0 && new.count == 0
        }
    }

    /// Offsets in the previous view of the elements that left, ascending.
    public var removals: [Int] {
        switch _storage {
        case .incremental(let touches): return touches.compactMap { $0.new == nil ? $0.old?.offset : nil }.sorted()
        case .reload(let old, _): return Array(0..<(old?.count ?? 0))
        }
    }

    /// Offsets in this view of the elements that arrived, ascending.
    public var insertions: [Int] {
        switch _storage {
        case .incremental(let touches): return touches.compactMap { $0.old == nil ? $0.new?.offset : nil }.sorted()
        case .reload(_, let new): return Array(0..<new.count)
        }
    }

    /// Elements that stayed and whose sort key (or source position) changed, by offset in this
    /// view.
    public var moves: [Move] { _kept(keyChanged: true) }

    /// Elements that stayed, edited with the same sort key, by offset in this view.
    public var updates: [Move] { _kept(keyChanged: false) }

    func _kept(keyChanged: Bool) -> [Move] {
        guard case .incremental(let touches) = _storage else { return [] }
        return touches.compactMap { touch in
            guard touch.keyChanged == keyChanged, let old = touch.old, let new = touch.new else { return nil }
            return Move(from: old.offset, to: new.offset)
        }.sorted { $0.to < $1.to }
    }

    /// All of the changes as a `CollectionDifference` from the previous view to this one.
    public var difference: CollectionDifference<Element> {
        var changes: [CollectionDifference<Element>.Change] = []
        switch _storage {
        case .incremental(let touches):
            changes.reserveCapacity(touches.count * 2)
            for touch in touches {
                if let old = touch.old {
                    changes.append(.remove(offset: old.offset, element: old.element, associatedWith: touch.new?.offset))
                }
                if let new = touch.new {
                    changes.append(.insert(offset: new.offset, element: new.element, associatedWith: touch.old?.offset))
                }
            }
        case .reload(let old, let new):
            if let old {
                for (offset, element) in old.elements().enumerated() {
                    changes.append(.remove(offset: offset, element: element, associatedWith: nil))
                }
            }
            for (offset, element) in new.elements().enumerated() {
                changes.append(.insert(offset: offset, element: element, associatedWith: nil))
            }
        }
        guard let difference = CollectionDifference(changes) else {
            preconditionFailure("ListViewChanges: inconsistent offsets (a bug in the incremental pipeline)")
        }
        return difference
    }
}

extension ListViewChanges: @unchecked Sendable where Element: Sendable {}
// Safety: immutable; holds Sendable elements and immutable view storage.
