/// Keyed values maintained incrementally: totals per key (`count(by:)`, `sum(of:by:)`), groups
/// (`grouped(by:)`) and sections in an order of their keys (`sortedKeys`). Each shares its
/// structure with its pipeline's state, so its cell lets go of the cached value before the
/// pipeline edits (see `_CachedValueRelease`), and each cuts off on its own record of changes
/// (changed keys, section changes) rather than on `==` over every key. The rest of the entry is
/// the one of every incremental value (`StateTable+Incremental.swift`).
extension StateTable.Builder {
    /// A total per key maintained incrementally (a spec's `computed unreadByFeed: KeyedTotals<Int,
    /// Int> { articles.filter { !$0.isRead }.count(by: \.feedID) }`): a fold whose result shares
    /// its totals with the pipeline, so that the cached totals let go of them before the pipeline
    /// edits them. After following the list, a result with no changed key is no change (its
    /// changed keys are exact); after a full evaluation, a result `==` to the cached one (unless
    /// `cutoff` is false).
    @inlinable
    public mutating func fold<Key, Total, Query: IncrementalListQuery>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<KeyedTotals<Key, Total>>>,
        _ extended: KeyPath<Extended, KeyedTotals<Key, Total>>,
        inputs: StaticString,
        sourceInputs: StaticString = "",
        unfollowedLists: StaticString = "",
        cutoff: Bool = true,
        source: PartialKeyPath<Extended>? = nil,
        _ body: @escaping (UnsafePointer<Extended>) -> Query
    ) where Query.Output == KeyedTotals<Key, Total> {
        // A result that follows the list and changed names the previous one (`_previous`): it is
        // a change, whatever the cell holds while the previous one is released.
        // A result of another numbering of the keys is a change too, even with equal totals: the
        // cell must not keep a result whose changes (by slot) a later result could not read.
        let unchanged: (KeyedTotals<Key, Total>, KeyedTotals<Key, Total>) -> Bool = { cached, new in
            new._previous == nil && cached._numbering == new._numbering && cached == new
        }
        _appendIncremental(name, storage, extended, inputs: inputs, unfollowedLists: unfollowedLists, sourceInputs: sourceInputs,
                           unchanged: cutoff ? unchanged : nil,
                           release: _CachedValueRelease(unchanged: cutoff ? { $0._changed.isEmpty } : nil), Self._evaluator(body, source: source))
    }

    /// Groups of a list maintained incrementally (a spec's `computed byFolder: ListGroups<String,
    /// Message> { messages.sorted(by: \.date).grouped(by: \.folder) }`): its name, its storage,
    /// the key path user code reads it by, its inputs, and its body, which builds the grouped
    /// query. The list's changes are followed when only the list moved (O(changes · log n)), the
    /// groups are evaluated in full when another input moved, and a result whose groups did not
    /// change (`changedKeys` empty after following the list) is no change (unless `cutoff` is
    /// false): an edited element that stays in its group counts as a change of that group.
    @inlinable
    public mutating func grouped<Key, Element, Query: IncrementalListQuery>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<ListGroups<Key, Element>>>,
        _ extended: KeyPath<Extended, ListGroups<Key, Element>>,
        inputs: StaticString,
        sourceInputs: StaticString = "",
        unfollowedLists: StaticString = "",
        cutoff: Bool = true,
        source: PartialKeyPath<Extended>? = nil,
        _ body: @escaping (UnsafePointer<Extended>) -> Query
    ) where Query.Output == ListGroups<Key, Element> {
        _appendIncremental(name, storage, extended, inputs: inputs, unfollowedLists: unfollowedLists, sourceInputs: sourceInputs,
                           unchanged: cutoff ? { _, new in new.changedKeys.isEmpty } : nil,
                           release: _CachedValueRelease(unchanged: cutoff ? { $0.changedKeys.isEmpty } : nil), Self._evaluator(body, source: source))
    }

    /// Sections of a list in an order of their keys, maintained incrementally (a spec's
    /// `computed sidebar: ListSections<FeedID, Article> { articles.grouped(by: \.feedID)
    /// .sortedKeys { names[$0, default: ""] < names[$1, default: ""] } }`): as ``grouped(_:_:_:inputs:sourceInputs:unfollowedLists:cutoff:source:_:)``,
    /// and `orderInputs` names the inputs that only the key order reads (`names`): when only
    /// those (and the list) moved, the groups follow the list's changes and only the keys are
    /// sorted again. A result with no section inserted, removed or moved and no section's
    /// elements changed is no change (unless `cutoff` is false).
    @inlinable
    public mutating func sections<Key, Element, Query: IncrementalListQuery>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<ListSections<Key, Element>>>,
        _ extended: KeyPath<Extended, ListSections<Key, Element>>,
        inputs: StaticString,
        orderInputs: StaticString = "",
        sourceInputs: StaticString = "",
        unfollowedLists: StaticString = "",
        cutoff: Bool = true,
        source: PartialKeyPath<Extended>? = nil,
        _ body: @escaping (UnsafePointer<Extended>) -> Query
    ) where Query.Output == ListSections<Key, Element> {
        _appendIncremental(name, storage, extended, inputs: inputs, unfollowedLists: unfollowedLists, orderInputs: orderInputs,
                           sourceInputs: sourceInputs,
                           unchanged: cutoff ? { _, new in new.changes.isEmpty } : nil,
                           release: _CachedValueRelease(unchanged: cutoff ? { $0.changes.isEmpty } : nil), Self._evaluator(body, source: source))
    }
}
