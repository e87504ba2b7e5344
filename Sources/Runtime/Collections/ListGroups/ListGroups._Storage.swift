/// The groups behind a ``ListGroups``: the key slots and, by slot, each group's elements.
/// Immutable once made. This base class holds no group (an empty result); the subclass holds the
/// trees of a ``GroupedListQuery``'s pipeline.
@usableFromInline
class _ListGroupsStorage<Key: Hashable & Sendable, Element>: @unchecked Sendable {
    // Safety: immutable; subclasses hold Sendable values when Element is (see ListView).
    @usableFromInline let slots: _KeySlots<Key>
    /// The number of non-empty groups.
    @usableFromInline let groupCount: Int
    /// This result's identity, shared by the results after it that no edit changed (so equal
    /// results compare in O(1)), and the previous result's of the same pipeline when some group
    /// changed (nil otherwise, and after a full evaluation): a result's
    /// ``ListGroups/changedKeys`` are relative to that one. Tokens, not the results themselves,
    /// so that a result does not keep the previous ones alive.
    @usableFromInline let token: _GroupsToken
    @usableFromInline let previous: _GroupsToken?

    @usableFromInline
    init(slots: _KeySlots<Key> = _KeySlots(), groupCount: Int = 0, token: _GroupsToken = _GroupsToken(), previous: _GroupsToken? = nil) {
        self.slots = slots
        self.groupCount = groupCount
        self.token = token
        self.previous = previous
    }

    /// The view of the group in `slot` (0..<slots.count).
    @usableFromInline
    func view(at slot: Int) -> _ListViewStorage<Element> {
        preconditionFailure("_ListGroupsStorage: no group")
    }

    /// The number of elements in the group in `slot` (0..<slots.count).
    @usableFromInline
    func count(at slot: Int) -> Int {
        preconditionFailure("_ListGroupsStorage: no group")
    }

    /// Calls `body` with the slot and count of each non-empty group, in slot order.
    @usableFromInline
    func forEachGroup(_ body: (Int, Int) -> Void) {}

    /// Whether this result is the next one after `other` in the same pipeline.
    @usableFromInline
    final func follows(_ other: _ListGroupsStorage) -> Bool {
        previous != nil && previous === other.token
    }
}

/// A result's identity (see `_ListGroupsStorage.previous`).
@usableFromInline
final class _GroupsToken: Sendable {
    @usableFromInline init() {}
}

/// Groups held as a ``GroupedListQuery``'s pipeline keeps them: a tree of source entries per
/// slot, projected to the output elements on read.
@usableFromInline
final class _TreeListGroupsStorage<Source: Identifiable, Key: Hashable & Sendable, Element>: _ListGroupsStorage<Key, Element>, @unchecked Sendable {
    @usableFromInline let trees: _SlotVector<_OrderedTree<_ListEntry<Source>>>
    @usableFromInline let project: @Sendable (Source) -> Element
    /// The reads behind `view(at:)` and `count(at:)`, made by the initializer where it is inlined,
    /// so specialized for the groups' types (see `_TreeListViewStorage`: the overrides run
    /// unspecialized, and a view made there would carry unspecialized reads).
    @usableFromInline let _view: (_TreeListGroupsStorage, Int) -> _ListViewStorage<Element>
    @usableFromInline let _count: (_TreeListGroupsStorage, Int) -> Int

    @inlinable
    init(slots: _KeySlots<Key>, trees: _SlotVector<_OrderedTree<_ListEntry<Source>>>, groupCount: Int,
         project: @escaping @Sendable (Source) -> Element, token: _GroupsToken, previous: _GroupsToken?) {
        self.trees = trees
        self.project = project
        _view = { storage, slot in
            let tree = storage.trees[slot]
            return tree.count == 0 ? _ListViewStorage() : _TreeListViewStorage(tree: tree, limit: nil, project: storage.project)
        }
        _count = { storage, slot in storage.trees[slot].count }
        super.init(slots: slots, groupCount: groupCount, token: token, previous: previous)
    }

    @inlinable
    override func view(at slot: Int) -> _ListViewStorage<Element> {
        _view(self, slot)
    }

    @inlinable
    override func count(at slot: Int) -> Int {
        _count(self, slot)
    }

    @usableFromInline
    override func forEachGroup(_ body: (Int, Int) -> Void) {
        trees.forEach { slot, tree in
            if tree.count > 0 { body(slot, tree.count) }
        }
    }
}
