/// What changed between two results of one incremental list pipeline: the previous ``ListView``
/// and this one, by offset.
///
/// Each element is in exactly one of these groups, or in none when it stayed as it was
/// (neither it nor its source element was edited; it may sit at another offset only because
/// others left or arrived before it):
/// - ``removals``: it was in the previous view and is not in this one (offset in the previous);
/// - ``insertions``: it is in this view and was not in the previous (offset in this one);
/// - ``moves``: it is in both, and its source element was edited in a way that changed its sort
///   key (or its place in the source list): `from` in the previous view, `to` in this one;
/// - ``updates``: it is in both, edited without changing its sort key.
///
/// ``difference`` holds all of them as a `CollectionDifference`: a move or an update is a removal
/// at `from` associated with an insertion at `to`, so `previous.applying(difference)` gives this
/// view, and UIKit or an animation can replay it.
public struct ListViewChanges<Element> {
    /// An element's offset in the previous view and in this one.
    public struct Move: Hashable, Sendable {
        /// The offset in the previous view.
        public var from: Int
        /// The offset in this view.
        public var to: Int

        /// The element moves from `from` to `to`.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Offsets in the previous view of the elements that left, ascending.
    public let removals: [Int]
    /// Offsets in this view of the elements that arrived, ascending.
    public let insertions: [Int]
    /// Elements that stayed and whose sort key (or source position) changed.
    public let moves: [Move]
    /// Elements that stayed, edited with the same sort key.
    public let updates: [Move]
    /// All of the above as a `CollectionDifference` from the previous view to this one.
    public let difference: CollectionDifference<Element>
    /// Whether the pipeline followed the source's changes (true) or recomputed the whole view
    /// (false; the changes were then found by comparing ids, in O(n)).
    public let isIncremental: Bool

    /// No changes.
    public init() {
        self.init(removals: [], insertions: [], moves: [], updates: [], difference: CollectionDifference([])!, isIncremental: true)
    }

    /// Every element of `elements` inserted (a first result).
    init<C: Collection>(inserting elements: C) where C.Element == Element {
        let changes = elements.enumerated().map { CollectionDifference<Element>.Change.insert(offset: $0.offset, element: $0.element, associatedWith: nil) }
        self.init(removals: [], insertions: Array(0..<elements.count),
                  moves: [], updates: [], difference: CollectionDifference(changes)!, isIncremental: false)
    }

    init(removals: [Int], insertions: [Int], moves: [Move], updates: [Move],
         difference: CollectionDifference<Element>, isIncremental: Bool) {
        self.removals = removals
        self.insertions = insertions
        self.moves = moves
        self.updates = updates
        self.difference = difference
        self.isIncremental = isIncremental
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { difference.isEmpty }
}

extension ListViewChanges: @unchecked Sendable where Element: Sendable {}
// Safety: immutable arrays of Sendable values (CollectionDifference is Sendable when its
// elements are; declared unchecked only because older toolchains lack that conformance).

/// Builds a ``ListViewChanges`` from what happened to each touched element of a pipeline's
/// output: its offset and element before (if it was in the previous view) and after (if it is in
/// this one), and whether its sort key changed.
struct _ListViewChangesBuilder<Element> {
    struct Touch {
        var old: (offset: Int, element: Element)?
        var new: (offset: Int, element: Element)?
        var keyChanged: Bool
    }

    var touches: [Touch] = []

    mutating func add(old: (offset: Int, element: Element)?, new: (offset: Int, element: Element)?, keyChanged: Bool) {
        guard old != nil || new != nil else { return }
        touches.append(Touch(old: old, new: new, keyChanged: keyChanged))
    }

    func build(isIncremental: Bool) -> ListViewChanges<Element> {
        var removals: [Int] = []
        var insertions: [Int] = []
        var moves: [ListViewChanges<Element>.Move] = []
        var updates: [ListViewChanges<Element>.Move] = []
        var changes: [CollectionDifference<Element>.Change] = []
        changes.reserveCapacity(touches.count * 2)
        for touch in touches {
            switch (touch.old, touch.new) {
            case let (old?, new?):
                let move = ListViewChanges<Element>.Move(from: old.offset, to: new.offset)
                if touch.keyChanged { moves.append(move) } else { updates.append(move) }
                changes.append(.remove(offset: old.offset, element: old.element, associatedWith: new.offset))
                changes.append(.insert(offset: new.offset, element: new.element, associatedWith: old.offset))
            case let (old?, nil):
                removals.append(old.offset)
                changes.append(.remove(offset: old.offset, element: old.element, associatedWith: nil))
            case let (nil, new?):
                insertions.append(new.offset)
                changes.append(.insert(offset: new.offset, element: new.element, associatedWith: nil))
            case (nil, nil):
                break
            }
        }
        guard let difference = CollectionDifference(changes) else {
            preconditionFailure("ListViewChanges: inconsistent offsets (a bug in the incremental pipeline)")
        }
        return ListViewChanges(
            removals: removals.sorted(), insertions: insertions.sorted(),
            moves: moves.sorted { $0.to < $1.to }, updates: updates.sorted { $0.to < $1.to },
            difference: difference, isIncremental: isIncremental
        )
    }
}
