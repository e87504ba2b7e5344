import Foundation

/// A description of an incremental query over an ``IdentifiedList``: filters, maps and sort
/// orders applied to its `source`, not yet evaluated.
///
/// Building a query costs nothing (it only composes closures); an ``IncrementalPipeline``
/// evaluates it, following the source's changes since the previous evaluation in
/// O(changes · log n) when it can. The operators mirror `Array`'s, and a query gives exactly
/// what the same expression gives on the source's elements as an `Array` (sorts are stable):
///
/// ```swift
/// let query = messages.filter { !$0.isRead }.sorted(by: \.date)   // a ListQuery
/// var pipeline = IncrementalPipeline<ListQuery<Message, Message>>()
/// let unread = pipeline.update(with: query)       // a ListView<Message>, built in full
/// ```
///
/// The operators take their closures as `@Sendable`; they may read other values (a search
/// string), but a pipeline only reuses its state when told the query is the same as last time
/// (see ``IncrementalPipeline/update(with:reuse:)``). Each operator also records where it was
/// called (file, line, column): a query built by other operators, or by the same operators at
/// other places (another branch of an `if`), is always evaluated in full.
///
/// Filters and sorts given after a ``map(_:fileID:line:column:)`` run the map inside them;
/// for speed, map last. ``prefix(_:fileID:line:column:)`` ends the chain (only `map` and
/// `prefix` may follow it).
public struct ListQuery<Source: Identifiable & Sendable, Element>: Sendable where Source.ID: Sendable {
    /// The list the query reads.
    public let source: IdentifiedList<Source>
    @usableFromInline let _include: (@Sendable (Source) -> Bool)?
    @usableFromInline let _order: (@Sendable (Source, Source) -> Bool)?
    @usableFromInline let _project: @Sendable (Source) -> Element
    @usableFromInline let _steps: [_QueryStep]
    /// Whether no `map` was applied (`Element` is `Source`, `_project` the identity): filters and
    /// sorts then call the caller's closures directly.
    @usableFromInline let _isIdentity: Bool
    /// How a full evaluation sorts the included entries, when the order is one key path's: by
    /// the keys read once per entry (see `_keyedSort`), rather than by `_order`, which reads two
    /// keys per comparison. Nil for other orders.
    @usableFromInline var _fullSort: (@Sendable (UnsafeMutableBufferPointer<_ListEntry<Source>>) -> Void)? = nil
    /// How an update compares the tree's entries, when the order is one key path's: the keys
    /// read once each and compared (in place, for a stored property of the list's elements),
    /// then the labels (``_entryOrder`` otherwise calls `_order` twice per comparison, through
    /// three closures). Nil for other orders.
    @usableFromInline var _entryLess: _EntryOrder<_ListEntry<Source>>? = nil

    @usableFromInline
    init(source: IdentifiedList<Source>, include: (@Sendable (Source) -> Bool)?, order: (@Sendable (Source, Source) -> Bool)?,
         project: @escaping @Sendable (Source) -> Element, steps: [_QueryStep], isIdentity: Bool,
         fullSort: (@Sendable (UnsafeMutableBufferPointer<_ListEntry<Source>>) -> Void)? = nil,
         entryLess: _EntryOrder<_ListEntry<Source>>? = nil) {
        self.source = source
        self._include = include
        self._order = order
        self._project = project
        self._steps = steps
        self._isIdentity = isIdentity
        self._fullSort = fullSort
        self._entryLess = entryLess
    }

    /// Keeps the elements that satisfy `isIncluded`, in order.
    @inlinable @inline(__always)
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery {
        let project = _project
        let test: @Sendable (Source) -> Bool
        if _isIdentity, let direct = isIncluded as? @Sendable (Source) -> Bool {
            test = direct
        } else {
            test = { isIncluded(project($0)) }
        }
        let include: @Sendable (Source) -> Bool
        if let previous = _include {
            include = { previous($0) && test($0) }
        } else {
            include = test
        }
        return ListQuery(source: source, include: include, order: _order, project: _project,
                         steps: _steps._appending(_QueryStep(.filter, fileID, line, column)), isIdentity: _isIdentity, fullSort: _fullSort,
                         entryLess: _entryLess)
    }

    /// Sorts by `areInIncreasingOrder` (a strict weak order), stably: elements it finds
    /// equivalent keep their previous order.
    @inlinable @inline(__always)
    public func sorted(by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery {
        let project = _project
        let compare: @Sendable (Source, Source) -> Bool
        if _isIdentity, let direct = areInIncreasingOrder as? @Sendable (Source, Source) -> Bool {
            compare = direct
        } else {
            compare = { areInIncreasingOrder(project($0), project($1)) }
        }
        let order: @Sendable (Source, Source) -> Bool
        if let previous = _order {
            order = { a, b in
                if compare(a, b) { return true }
                if compare(b, a) { return false }
                return previous(a, b)
            }
        } else {
            order = compare
        }
        return ListQuery(source: source, include: _include, order: order, project: _project,
                         steps: _steps._appending(_QueryStep(.sort, fileID, line, column)), isIdentity: _isIdentity)
    }

    /// Sorts by the value at `keyPath`, ascending (or descending), stably.
    ///
    /// A key path to a stored property of a struct is read at its offset (one load), not through
    /// the key path (a call into the runtime per read: comparisons are most of a sort's and of an
    /// edit's cost); other key paths are applied.
    @inlinable
    public func sorted<Value: Comparable & Sendable>(by keyPath: KeyPath<Element, Value> & Sendable, descending: Bool = false,
                                          fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery {
        let offset = MemoryLayout<Element>.offset(of: keyPath)
        let key: @Sendable (Element) -> Value
        if let offset {
            key = { element in withUnsafePointer(to: element) { UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self) } }
        } else {
            key = { $0[keyPath: keyPath] }
        }
        var query = descending
            ? sorted(by: { key($0) > key($1) }, fileID: fileID, line: line, column: column)
            : sorted(by: { key($0) < key($1) }, fileID: fileID, line: line, column: column)
        if _order == nil {
            // The only sort: a full evaluation sorts by keys read once per entry, and an update
            // compares entries by their keys, then their labels.
            let sourceKey: @Sendable (Source) -> Value
            if _isIdentity, let direct = key as? @Sendable (Source) -> Value {
                sourceKey = direct
            } else {
                sourceKey = { [project = _project] in key(project($0)) }
            }
            query._fullSort = Self._keyedSort(descending: descending, sourceOffset: _isIdentity ? offset : nil, sourceKey)
            let newestFirst: @Sendable (_ListEntry<Source>, _ListEntry<Source>) -> Bool = { a, b in
                let (x, y) = (sourceKey(a.element), sourceKey(b.element))
                if y < x { return true }
                if x < y { return false }
                return a.label < b.label
            }
            let oldestFirst: @Sendable (_ListEntry<Source>, _ListEntry<Source>) -> Bool = { a, b in
                let (x, y) = (sourceKey(a.element), sourceKey(b.element))
                if x < y { return true }
                if y < x { return false }
                return a.label < b.label
            }
            query._entryLess = _EntryOrder(descending ? newestFirst : oldestFirst)
            // A stored property of the list's elements: the keys loaded where the entries are,
            // without a copy of either entry or a call through the key closures.
            if _isIdentity, let offset,
               let elementOffset = MemoryLayout<_ListEntry<Source>>.offset(of: \_ListEntry<Source>.element) {
                let at = elementOffset + offset
                query._entryLess = _EntryOrder(byAddress: { a, b in
                    let x = UnsafeRawPointer(a).load(fromByteOffset: at, as: Value.self)
                    let y = UnsafeRawPointer(b).load(fromByteOffset: at, as: Value.self)
                    if descending ? y < x : x < y { return true }
                    if descending ? x < y : y < x { return false }
                    return a.pointee.label < b.pointee.label
                })
            }
        }
        return query
    }

    /// Sorts by `comparators` in turn (the first decides, the next breaks its ties, …), stably:
    /// as `Array.sorted(using:)`.
    @inlinable
    public func sorted<Comparator: SortComparator & Sendable>(using comparators: [Comparator],
                                                            fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery
    where Comparator.Compared == Element {
        sorted(by: { a, b in
            for comparator in comparators {
                switch comparator.compare(a, b) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return false
        }, fileID: fileID, line: line, column: column)
    }

    /// Sorts by `comparator`, stably: as `Array.sorted(using:)`.
    @inlinable
    public func sorted<Comparator: SortComparator & Sendable>(using comparator: Comparator,
                                                            fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery
    where Comparator.Compared == Element {
        sorted(using: [comparator], fileID: fileID, line: line, column: column)
    }

    /// Transforms each element. The transform runs when an element is read from the view (as a
    /// lazy map's), and inside later filters and sorts.
    @inlinable @inline(__always)
    public func map<T>(_ transform: @escaping @Sendable (Element) -> T,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListQuery<Source, T> {
        let project = _project
        return ListQuery<Source, T>(source: source, include: _include, order: _order, project: { transform(project($0)) },
                                    steps: _steps._appending(_QueryStep(.map, fileID, line, column)), isIdentity: false, fullSort: _fullSort,
                                    entryLess: _entryLess)
    }

    /// The first `maxLength` elements (all if there are fewer): a top-k when sorted.
    @inlinable
    public func prefix(_ maxLength: Int,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> PrefixListQuery<Source, Element> {
        precondition(maxLength >= 0, "ListQuery.prefix: a negative length")
        return PrefixListQuery(base: self, limit: maxLength, step: _QueryStep(.prefix, fileID, line, column))
    }
}

/// The first elements of a ``ListQuery``'s result (``ListQuery/prefix(_:fileID:line:column:)``).
/// Only `map` and `prefix` may follow.
public struct PrefixListQuery<Source: Identifiable & Sendable, Element>: Sendable where Source.ID: Sendable {
    /// The query whose first elements this takes.
    public let base: ListQuery<Source, Element>
    /// How many elements at most.
    public let limit: Int
    @usableFromInline let _step: _QueryStep

    @usableFromInline
    init(base: ListQuery<Source, Element>, limit: Int, step: _QueryStep) {
        self.base = base
        self.limit = limit
        self._step = step
    }

    /// The list the query reads.
    @inlinable
    public var source: IdentifiedList<Source> { base.source }

    /// Transforms each of the first elements (see ``ListQuery/map(_:fileID:line:column:)``).
    @inlinable
    public func map<T>(_ transform: @escaping @Sendable (Element) -> T,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> PrefixListQuery<Source, T> {
        PrefixListQuery<Source, T>(base: base.map(transform, fileID: fileID, line: line, column: column), limit: limit, step: _step)
    }

    /// The first `maxLength` of these elements.
    @inlinable
    public func prefix(_ maxLength: Int,
                       fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> PrefixListQuery {
        precondition(maxLength >= 0, "ListQuery.prefix: a negative length")
        return PrefixListQuery(base: base, limit: Swift.min(limit, maxLength), step: _step)
    }
}

/// Where an operator of a query was applied: two evaluations reuse state only if their
/// operators were applied at the same places, in the same order.
@usableFromInline
struct _QueryStep: Hashable, Sendable {
    @usableFromInline enum Kind: UInt8, Sendable { case filter, sort, map, prefix, group, fold, order, join }

    let kind: Kind
    let file: UInt
    let line: UInt
    let column: UInt

    @usableFromInline
    init(_ kind: Kind, _ fileID: StaticString, _ line: UInt, _ column: UInt) {
        self.kind = kind
        self.file = fileID.hasPointerRepresentation ? UInt(bitPattern: fileID.utf8Start) : UInt(fileID.unicodeScalar.value)
        self.line = line
        self.column = column
    }
}

extension Array where Element == _QueryStep {
    /// These steps and then `step`, in one allocation (`steps + [step]` makes two: building a
    /// query is part of every refresh of a value after an edit). Not inlinable: the operators
    /// that call it stay small enough to be inlined, and specialized, where the query is built.
    @usableFromInline
    func _appending(_ step: _QueryStep) -> [_QueryStep] {
        var result: [_QueryStep] = []
        result.reserveCapacity(count + 1)
        result.append(contentsOf: self)
        result.append(step)
        return result
    }
}
