import Foundation

/// An incremental query whose source is another query's result, a ``ListView``: a view of a
/// view (`unread.prefix(20)`, `timeline.filter { !$0.isRead }.sorted(by: \.title)`).
///
/// The operators are ``ListQuery``'s, and the query gives exactly what the same expression gives
/// on the view's elements as an `Array`. An ``IncrementalPipeline`` evaluates it by following the
/// view's changes since the view it last read, in O(changes · log n), as a query over an
/// ``IdentifiedList`` follows the list's: the pipeline that made the view keeps a record of its
/// results' changes. It evaluates in full, counted in
/// ``IncrementalListCounters/fullRecomputations``, when those changes are not known: the view
/// was evaluated in full since (its first result, another input of its query moved), it was made
/// by a query with a `map` or a `prefix` (or by ``ListView/init(_:)``), or more changes were
/// made than the record keeps.
///
/// ```swift
/// var timelinePipeline = IncrementalPipeline<ListQuery<Message, Message>>()
/// var unreadPipeline = IncrementalPipeline<ListViewQuery<Message, Message>>()
/// let timeline = timelinePipeline.update(with: messages.sorted(by: \.date))
/// let unread = unreadPipeline.update(with: timeline.filter { !$0.isRead })
/// ```
public struct ListViewQuery<Source: Identifiable & Sendable, Element>: Sendable where Source.ID: Sendable {
    /// The view the query reads.
    public let view: ListView<Source>
    /// The operators, as a query over an empty list holds them.
    @usableFromInline let _base: ListQuery<Source, Element>
    /// The view's lineage, sequence and entries, when its pipeline keeps a lineage.
    @usableFromInline let _source: _ListViewSource<Source>?

    @usableFromInline
    init(view: ListView<Source>, base: ListQuery<Source, Element>, source: _ListViewSource<Source>?) {
        self.view = view
        self._base = base
        self._source = source
    }

    /// Keeps the elements that satisfy `isIncluded`, in order.
    @inlinable @inline(__always)
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListViewQuery {
        ListViewQuery(view: view, base: _base.filter(isIncluded, fileID: fileID, line: line, column: column), source: _source)
    }

    /// Sorts by `areInIncreasingOrder` (a strict weak order), stably: elements it finds
    /// equivalent keep their order in the view.
    @inlinable @inline(__always)
    public func sorted(by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListViewQuery {
        ListViewQuery(view: view, base: _base.sorted(by: areInIncreasingOrder, fileID: fileID, line: line, column: column), source: _source)
    }

    /// Sorts by the value at `keyPath`, ascending (or descending), stably.
    @inlinable
    public func sorted<Value: Comparable & Sendable>(by keyPath: KeyPath<Element, Value> & Sendable, descending: Bool = false,
                                                     fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListViewQuery {
        ListViewQuery(view: view, base: _base.sorted(by: keyPath, descending: descending, fileID: fileID, line: line, column: column), source: _source)
    }

    /// Sorts by `comparators` in turn, stably: as `Array.sorted(using:)`.
    @inlinable
    public func sorted<Comparator: SortComparator & Sendable>(using comparators: [Comparator],
                                                            fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListViewQuery where Comparator.Compared == Element {
        ListViewQuery(view: view, base: _base.sorted(using: comparators, fileID: fileID, line: line, column: column), source: _source)
    }

    /// Sorts by `comparator`, stably: as `Array.sorted(using:)`.
    @inlinable
    public func sorted<Comparator: SortComparator & Sendable>(using comparator: Comparator,
                                                            fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListViewQuery where Comparator.Compared == Element {
        ListViewQuery(view: view, base: _base.sorted(using: comparator, fileID: fileID, line: line, column: column), source: _source)
    }

    /// Transforms each element (see ``ListQuery/map(_:fileID:line:column:)``).
    @inlinable @inline(__always)
    public func map<T>(_ transform: @escaping @Sendable (Element) -> T,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListViewQuery<Source, T> {
        ListViewQuery<Source, T>(view: view, base: _base.map(transform, fileID: fileID, line: line, column: column), source: _source)
    }

    /// The first `maxLength` elements (all if there are fewer). Only `map` and `prefix` may
    /// follow.
    @inlinable
    public func prefix(_ maxLength: Int,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> PrefixListViewQuery<Source, Element> {
        precondition(maxLength >= 0, "ListViewQuery.prefix: a negative length")
        return PrefixListViewQuery(base: self, limit: maxLength, step: _QueryStep(.prefix, fileID, line, column))
    }
}

/// The first elements of a ``ListViewQuery``'s result (``ListViewQuery/prefix(_:fileID:line:column:)``).
/// Only `map` and `prefix` may follow.
public struct PrefixListViewQuery<Source: Identifiable & Sendable, Element>: Sendable where Source.ID: Sendable {
    /// The query whose first elements this takes.
    public let base: ListViewQuery<Source, Element>
    /// How many elements at most.
    public let limit: Int
    @usableFromInline let _step: _QueryStep

    @usableFromInline
    init(base: ListViewQuery<Source, Element>, limit: Int, step: _QueryStep) {
        self.base = base
        self.limit = limit
        self._step = step
    }

    /// The view the query reads.
    @inlinable
    public var view: ListView<Source> { base.view }

    /// Transforms each of the first elements.
    @inlinable
    public func map<T>(_ transform: @escaping @Sendable (Element) -> T,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> PrefixListViewQuery<Source, T> {
        PrefixListViewQuery<Source, T>(base: base.map(transform, fileID: fileID, line: line, column: column), limit: limit, step: _step)
    }

    /// The first `maxLength` of these elements.
    @inlinable
    public func prefix(_ maxLength: Int,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> PrefixListViewQuery {
        precondition(maxLength >= 0, "ListViewQuery.prefix: a negative length")
        return PrefixListViewQuery(base: base, limit: Swift.min(limit, maxLength), step: _step)
    }
}

/// The incremental operators, as a view offers them: each starts a ``ListViewQuery`` whose
/// source is this view.
///
/// As ``IdentifiedList``'s, they are disfavoured overloads of `Sequence`'s: where the context asks
/// for an `Array`, `view.filter { … }` is `Sequence.filter`; where it asks for a query (a computed
/// value declared as a ``ListView``, an ``IncrementalPipeline`` update), it builds the query.
extension ListView where Element: Identifiable & Sendable, Element.ID: Sendable {
    /// A query of every element, in order: the start of an explicit chain
    /// (`timeline.query.filter { … }`).
    @inlinable @inline(__always)
    public var query: ListViewQuery<Element, Element> {
        let source = _lineageSource
        return ListViewQuery(view: self, base: ListQuery(source: source?.lineage.emptyList ?? IdentifiedList(changeRecordCapacity: 1),
                                                         include: nil, order: nil, project: { $0 }, steps: [], isIdentity: true),
                             source: source)
    }

    /// Starts a query that keeps the elements satisfying `isIncluded`.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListViewQuery<Element, Element> {
        query.filter(isIncluded, fileID: fileID, line: line, column: column)
    }

    /// Starts a query that sorts by `areInIncreasingOrder`, stably.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func sorted(by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListViewQuery<Element, Element> {
        query.sorted(by: areInIncreasingOrder, fileID: fileID, line: line, column: column)
    }

    /// Starts a query that sorts by the value at `keyPath`, stably.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func sorted<Value: Comparable & Sendable>(by keyPath: KeyPath<Element, Value> & Sendable, descending: Bool = false,
                                                     fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListViewQuery<Element, Element> {
        query.sorted(by: keyPath, descending: descending, fileID: fileID, line: line, column: column)
    }

    /// Starts a query that sorts by `comparators`, stably.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func sorted<Comparator: SortComparator & Sendable>(using comparators: [Comparator],
                                                            fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListViewQuery<Element, Element> where Comparator.Compared == Element {
        query.sorted(using: comparators, fileID: fileID, line: line, column: column)
    }

    /// Starts a query that transforms each element.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func map<T>(_ transform: @escaping @Sendable (Element) -> T,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListViewQuery<Element, T> {
        query.map(transform, fileID: fileID, line: line, column: column)
    }

    /// Starts a query of the first `maxLength` elements.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func prefix(_ maxLength: Int,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> PrefixListViewQuery<Element, Element> {
        query.prefix(maxLength, fileID: fileID, line: line, column: column)
    }
}
