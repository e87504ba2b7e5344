/// Sections in order: a ``SectionedListQuery``'s result, each non-empty group of a list with its
/// key, its elements (a ``ListView``) and its count, in the order of the keys. Ready for SwiftUI
/// (`ForEach(sections) { section in Section(…) { ForEach(section.elements) { … } } }`) and for a
/// diffable data source's sections, with ``changes`` since the previous result of the same
/// pipeline: the sections inserted, removed and moved, and the keys whose elements changed.
///
/// A value: it keeps its sections while the pipeline that made it goes on.
///
/// ## Complexity
/// - ``subscript(_:)``: O(log k) for k sections, and the section's view is made without
///   copying its elements; ``count``: O(1).
/// - ``subscript(key:)``, ``count(of:)``: O(1) (see ``ListGroups``).
/// - ``keys``: O(k).
public struct ListSections<Key: Hashable & Sendable, Element>: RandomAccessCollection, @unchecked Sendable {
    // Safety: immutable; holds Sendable keys and the immutable storage of its groups.
    /// Positions are offsets, from 0.
    public typealias Index = Int
    /// The offsets of the sections.
    public typealias Indices = Range<Int>

    /// The sections' groups, by key.
    public let groups: ListGroups<Key, Element>
    /// The non-empty groups' slots, in the key order.
    @usableFromInline let _order: _OrderedTree<Int>
    /// What changed since the previous result of the same pipeline.
    public let changes: ListSectionChanges<Key>
    /// The previous result's groups, from which each changed section's elements changed.
    @usableFromInline let _previous: _ListGroupsStorage<Key, Element>?
    /// The changed sections' element changes by slot, when the pipeline followed the list's
    /// changes (nil otherwise: a changed section is then a reload from its previous elements).
    @usableFromInline let _touches: [Int: [ListViewChanges<Element>._Touch]]?

    @usableFromInline
    init(groups: ListGroups<Key, Element>, _order: _OrderedTree<Int>, changes: ListSectionChanges<Key>,
         _previous: _ListGroupsStorage<Key, Element>?, _touches: [Int: [ListViewChanges<Element>._Touch]]?) {
        self.groups = groups
        self._order = _order
        self.changes = changes
        self._previous = _previous
        self._touches = _touches
    }

    /// No section.
    ///
    /// - Complexity: O(1).
    public init() {
        self.init(groups: ListGroups(), _order: _OrderedTree(),
                  changes: ListSectionChanges(_storage: .followed(removals: [], insertions: []), changedKeys: []), _previous: nil,
                  _touches: nil)
    }

    /// 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of sections.
    @inlinable public var endIndex: Int { _order.count }
    /// The number of sections.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { _order.count }

    /// The section at `position`: its key, its elements and their count. The elements' changes
    /// are those since the previous result: none when the key is not in
    /// ``ListSectionChanges/changedKeys``; after following the list's edits, the elements that
    /// left, arrived, moved or were updated, as a view's (``ListViewChanges``); after a full
    /// evaluation, a reload from the previous elements.
    ///
    /// - Complexity: O(log k).
    @inlinable
    public subscript(position: Int) -> ListSection<Key, Element> {
        precondition(position >= 0 && position < _order.count, "ListSections: index \(position) out of range")
        let storage = groups._storage
        let slot = _order[position]
        let key = storage.slots.key(at: slot)
        let view = storage.view(at: slot)
        return ListSection(key: key, elements: ListView(_storage: view, changes: _elementChanges(of: key, slot: slot, view)))
    }

    /// The changes of the elements of `key`'s section (in `slot`), now `view`.
    @usableFromInline
    func _elementChanges(of key: Key, slot: Int, _ view: _ListViewStorage<Element>) -> ListViewChanges<Element> {
        guard changes.changedKeys.contains(key) else { return ListViewChanges() }
        if let touches = _touches { return ListViewChanges(_storage: .incremental(touches[slot] ?? [])) }
        let old = _previous.flatMap { previous in previous.slots.slot(of: key).map { previous.view(at: $0) } }
        return ListViewChanges(_storage: .reload(old: old, new: view))
    }

    /// The elements of `key`'s section (empty if there is none), in the query's order.
    ///
    /// - Complexity: O(1) (see ``ListGroups/subscript(_:)``).
    @inlinable
    public subscript(key key: Key) -> ListView<Element> {
        groups[key]
    }

    /// The number of elements in `key`'s section (0 if there is none).
    ///
    /// - Complexity: O(1).
    @inlinable
    public func count(of key: Key) -> Int {
        groups.count(of: key)
    }

    /// The sections' keys, in order.
    ///
    /// - Complexity: O(k).
    public var keys: [Key] {
        _KeyOrder(tree: _order, slots: groups._storage.slots).keys
    }
}

/// One section of a ``ListSections``: a key, and its group's elements in the query's order.
/// `Identifiable` by its key, for SwiftUI's `ForEach`.
public struct ListSection<Key: Hashable & Sendable, Element>: Identifiable, @unchecked Sendable {
    // Safety: immutable; holds a Sendable key and a view (see ListView).
    /// The section's key.
    public let key: Key
    /// The section's elements, in the query's order, with their changes since the previous
    /// result (see ``ListSections/subscript(_:)``).
    public let elements: ListView<Element>

    @inlinable
    init(key: Key, elements: ListView<Element>) {
        self.key = key
        self.elements = elements
    }

    /// The key.
    @inlinable public var id: Key { key }
    /// The number of elements.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { elements.count }
}

extension ListSections: Equatable where Element: Equatable {
    /// The same keys in the same order, each with the same elements (``changes`` are not
    /// compared, so that a result equal to the cached one lets a memo cell cut off).
    ///
    /// - Complexity: O(k), and what comparing the ``groups`` costs (see ``ListGroups/==(_:_:)``).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count, lhs.groups == rhs.groups else { return false }
        if lhs._order.root === rhs._order.root, lhs.groups._storage.slots.storage === rhs.groups._storage.slots.storage { return true }
        return lhs.keys == rhs.keys
    }
}

extension ListSection: Equatable where Element: Equatable {
    /// The same key and the same elements (their changes are not compared).
    ///
    /// - Complexity: O(elements).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.key == rhs.key && lhs.elements.count == rhs.elements.count && lhs.elements.elementsEqual(rhs.elements)
    }
}

extension ListSections: CustomStringConvertible {
    /// The sections' keys and elements, in order, as an array of pairs prints them.
    ///
    /// - Complexity: O(k + elements).
    public var description: String {
        map { ($0.key, $0.elements.elements) }.description
    }
}

/// The non-empty groups' slots in a key order, and the slot table that names their keys.
@usableFromInline
struct _KeyOrder<Key: Hashable>: @unchecked Sendable {
    // Safety: immutable once made (see _OrderedTree and _KeySlots).
    @usableFromInline let tree: _OrderedTree<Int>
    @usableFromInline let slots: _KeySlots<Key>

    @inlinable
    init(tree: _OrderedTree<Int>, slots: _KeySlots<Key>) {
        self.tree = tree
        self.slots = slots
    }

    /// The keys in order. O(k).
    var keys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(tree.count)
        tree.forEach { slot in
            keys.append(slots.key(at: slot))
            return true
        }
        return keys
    }
}
