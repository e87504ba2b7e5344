/// A ``GroupedListQuery``'s groups as sections in an order of their keys
/// (``GroupedListQuery/sortedKeys(by:fileID:line:column:)``): what a sidebar, a mail client's
/// folders or a library's artists show, each section with its elements in the query's order.
///
/// Evaluated through a pipeline, an edit of the list costs what it costs the groups (O(log n) per
/// changed element, in the groups it touches) and O(log k) per section that appears or
/// disappears, whatever the number of sections k. When what the key order reads changes (a name
/// table in another field; see ``keyOrderChanged()``), the pipeline still follows the list's
/// changes in the groups and sorts the keys again, in O(k log k).
public struct SectionedListQuery<Source: Identifiable & Sendable, Key: Hashable & Sendable, Element>: Sendable
where Source.ID: Sendable {
    /// The grouped query whose groups are the sections.
    public let groups: GroupedListQuery<Source, Key, Element>
    @usableFromInline let _less: @Sendable (Key, Key) -> Bool
    @usableFromInline let _steps: [_QueryStep]
    @usableFromInline var _orderMoved: Bool

    @usableFromInline
    init(groups: GroupedListQuery<Source, Key, Element>, less: @escaping @Sendable (Key, Key) -> Bool, steps: [_QueryStep]) {
        self.groups = groups
        self._less = less
        self._steps = steps
        self._orderMoved = false
    }

    /// The list the query reads.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var source: IdentifiedList<Source> { groups.source }

    /// This query, noting that what its key order reads (other than the list) changed since the
    /// previous evaluation of its pipeline: the pipeline follows the list's changes in the groups
    /// and sorts the keys again. What a generated computed value passes when only the inputs
    /// read by its `sortedKeys` order moved; by hand, pass it after such a change (without it the
    /// sections keep the previous order's places; `reuse: false` evaluates everything in full).
    ///
    /// - Complexity: O(1).
    @inlinable
    public func keyOrderChanged() -> Self {
        var query = self
        query._orderMoved = true
        return query
    }

    /// ``keyOrderChanged()``, for a query known by its protocol only.
    @inlinable
    public func _keyOrderChanged() -> Self { keyOrderChanged() }
}

/// What a pipeline keeps for a ``SectionedListQuery``: the groups' state, and the non-empty
/// groups' slots in the key order.
public struct SectionedListState<Source: Identifiable & Sendable, Key: Hashable & Sendable, Element>: Sendable
where Source.ID: Sendable {
    @usableFromInline var groups: GroupedListState<Source, Key, Element>
    @usableFromInline var order: _OrderedTree<Int>
    /// The last result's groups (for each changed section's element changes).
    @usableFromInline var output: _ListGroupsStorage<Key, Element>
    /// The keys' own order, when they are `Comparable`: what orders keys the query's order does
    /// not tell apart.
    @usableFromInline var tieBreak: _Tiebreak<Key>
    @usableFromInline let steps: [_QueryStep]

    @inlinable
    init(groups: GroupedListState<Source, Key, Element>, order: _OrderedTree<Int>, output: _ListGroupsStorage<Key, Element>,
         tieBreak: _Tiebreak<Key>, steps: [_QueryStep]) {
        self.groups = groups
        self.order = order
        self.output = output
        self.tieBreak = tieBreak
        self.steps = steps
    }
}

extension GroupedListQuery {
    /// Orders the groups by their keys: sections in `areInIncreasingOrder`'s order, which may read
    /// other values (a name table: `{ names[$0, default: ""] < names[$1, default: ""] }`).
    /// Keys it does not tell apart come in their own order when `Key` is `Comparable`, and
    /// otherwise in an order that stays the same while the pipeline follows the list.
    ///
    /// - Complexity: O(1) (builds the query; see ``SectionedListQuery`` for its evaluation).
    @inlinable @inline(__always)
    public func sortedKeys(by areInIncreasingOrder: @escaping @Sendable (Key, Key) -> Bool,
                           fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> SectionedListQuery<Source, Key, Element> {
        SectionedListQuery(groups: self, less: areInIncreasingOrder, steps: steps._appending(_QueryStep(.order, fileID, line, column)))
    }

    /// Orders the groups by a property of their keys (`\.name` of a `Feed` key), ascending unless
    /// `descending`.
    ///
    /// - Complexity: O(1) (builds the query).
    @inlinable @inline(__always)
    public func sortedKeys<Value: Comparable & Sendable>(by keyPath: KeyPath<Key, Value> & Sendable, descending: Bool = false,
                                                         fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> SectionedListQuery<Source, Key, Element> {
        descending
            ? sortedKeys(by: { $0[keyPath: keyPath] > $1[keyPath: keyPath] }, fileID: fileID, line: line, column: column)
            : sortedKeys(by: { $0[keyPath: keyPath] < $1[keyPath: keyPath] }, fileID: fileID, line: line, column: column)
    }
}

extension GroupedListQuery where Key: Comparable {
    /// Orders the groups by their keys, ascending unless `descending`.
    ///
    /// - Complexity: O(1) (builds the query).
    @inlinable @inline(__always)
    public func sortedKeys(descending: Bool = false, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> SectionedListQuery<Source, Key, Element> {
        descending
            ? sortedKeys(by: { $0 > $1 }, fileID: fileID, line: line, column: column)
            : sortedKeys(by: { $0 < $1 }, fileID: fileID, line: line, column: column)
    }
}

extension IncrementalListQuery {
    /// Itself: only a ``SectionedListQuery`` has a key order. Not meant to be called by hand.
    @inlinable
    public func _keyOrderChanged() -> Self { self }
}
