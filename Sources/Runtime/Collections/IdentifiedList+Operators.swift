import Foundation

/// The incremental operators, as a list offers them: each starts a ``ListQuery`` whose source
/// is this list.
///
/// They are disfavoured overloads of `Sequence`'s: where the context asks for an `Array`, or for
/// nothing in particular, `list.filter { … }` is `Sequence.filter` and returns an `Array`, as
/// for any collection; where it asks for a query (a computed value declared as a ``ListView``,
/// an ``IncrementalPipeline`` update), the same expression builds the query. Write
/// ``query`` to ask for a query explicitly.
extension IdentifiedList where Element: Sendable, ID: Sendable {
    /// A query of every element, in order: the start of an explicit chain
    /// (`messages.query.filter { … }`).
    @inlinable @inline(__always)
    public var query: ListQuery<Element, Element> {
        ListQuery(source: self, include: nil, order: nil, project: { $0 }, steps: [], isIdentity: true)
    }

    /// Starts a query that keeps the elements satisfying `isIncluded`.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery<Element, Element> {
        query.filter(isIncluded, fileID: fileID, line: line, column: column)
    }

    /// Starts a query that sorts by `areInIncreasingOrder`, stably.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func sorted(by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery<Element, Element> {
        query.sorted(by: areInIncreasingOrder, fileID: fileID, line: line, column: column)
    }

    /// Starts a query that sorts by the value at `keyPath`, stably.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func sorted<Value: Comparable & Sendable>(by keyPath: KeyPath<Element, Value> & Sendable, descending: Bool = false,
                                          fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListQuery<Element, Element> {
        query.sorted(by: keyPath, descending: descending, fileID: fileID, line: line, column: column)
    }

    /// Starts a query that sorts by `comparators`, stably.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func sorted<Comparator: SortComparator & Sendable>(using comparators: [Comparator],
                                                            fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListQuery<Element, Element> where Comparator.Compared == Element {
        query.sorted(using: comparators, fileID: fileID, line: line, column: column)
    }

    /// Starts a query that transforms each element.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func map<T>(_ transform: @escaping @Sendable (Element) -> T,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery<Element, T> {
        query.map(transform, fileID: fileID, line: line, column: column)
    }

    /// Starts a query of the first `maxLength` elements.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func prefix(_ maxLength: Int,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> PrefixListQuery<Element, Element> {
        query.prefix(maxLength, fileID: fileID, line: line, column: column)
    }

    /// Starts a count of the elements satisfying `predicate`, maintained per change.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func count(where predicate: @escaping @Sendable (Element) -> Bool,
                      fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListFoldQuery<Element, Int> {
        // The fold `query.filter(predicate).count` builds, made at once: a refresh after an edit
        // builds it again, and one array of steps instead of two is a tenth of its cost.
        ListFoldQuery(source: self, include: predicate, contribution: { _ in 1 }, initial: 0, add: { $0 + $1 }, remove: { $0 - $1 },
                      steps: [_QueryStep(.filter, fileID, line, column), _QueryStep(.fold, fileID, line, column)])
    }

    /// Starts a sum of `value` over the elements, maintained per change.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func sum<Value: AdditiveArithmetic & Sendable>(of value: @escaping @Sendable (Element) -> Value,
                                                          fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListFoldQuery<Element, Value> {
        reduce(.zero, adding: { $0 + $1 }, removing: { $0 - $1 }, value, fileID: fileID, line: line, column: column)
    }

    /// Starts a fold of the elements' `contribution`s that undoes a changed element's old
    /// contribution with `removing` (see ``ListQuery/reduce(_:adding:removing:_:fileID:line:column:)``).
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func reduce<Value: Sendable>(_ initial: Value,
                                        adding: @escaping @Sendable (Value, Value) -> Value,
                                        removing: @escaping @Sendable (Value, Value) -> Value,
                                        _ contribution: @escaping @Sendable (Element) -> Value,
                                        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListFoldQuery<Element, Value> {
        ListFoldQuery(source: self, include: nil, contribution: contribution, initial: initial, add: adding, remove: removing,
                      steps: [_QueryStep(.fold, fileID, line, column)])
    }

    /// Starts a grouping of the elements by `key`, in list order within each group.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func grouped<Key: Hashable & Sendable>(by key: @escaping @Sendable (Element) -> Key,
                                                  fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> GroupedListQuery<Element, Key, Element> {
        query.grouped(by: key, fileID: fileID, line: line, column: column)
    }

    /// Starts a grouping of the `Equatable` elements by `key`, in list order within each group.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func grouped<Key: Hashable & Sendable>(by key: @escaping @Sendable (Element) -> Key,
                                                  fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> GroupedListQuery<Element, Key, Element> where Element: Equatable {
        query.grouped(by: key, fileID: fileID, line: line, column: column)
    }
}
