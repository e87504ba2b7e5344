/// A join of an ``IdentifiedList`` with the related values its elements refer to: one row per
/// element, made from the element and the value it refers to (in another ``IdentifiedList``, by
/// id, or in a `Dictionary`, by key), in the list's order. Evaluated into an ``IdentifiedList`` of
/// the rows, which views, groups, sections and folds then read as they read any list:
///
/// ```swift
/// // One row per article that has a feed, with the feed's name.
/// let rows = articles.join(feeds, on: \.feedID) { article, feed in
///     TimelineRow(article: article, feedName: feed.name)
/// }
/// var pipeline = IncrementalPipeline<JoinQuery<Article, IdentifiedList<Feed>, TimelineRow>>()
/// var timeline = pipeline.update(with: rows)      // an IdentifiedList<TimelineRow>
/// feeds[id: 7]?.name = "Swift Blog"
/// timeline = pipeline.update(with: articles.join(feeds, on: \.feedID) { … })
/// // updated the rows of feed 7's articles only
/// ```
///
/// ## Following changes on both sides
/// An ``IncrementalPipeline`` gives the query the list's changes since its last evaluation, as to
/// any query; the query asks the other side for its own (an ``IdentifiedList``'s change record, or
/// a comparison of a dictionary with the one it last saw) and keeps, for each key, the ids of the
/// elements that refer to it, with the offsets where it last found them (read without a lookup in
/// the list's id index while they hold). An update then makes again only the rows of the elements
/// that changed and of those that refer to a changed value: O(changes + k) for k such rows, and an
/// insertion, removal or move of rows costs one pass over the rows after the first one it moves.
/// The rows' list records each edit (an update, an insertion, a removal, a move), so a view of the
/// rows follows them in O(k · log n).
///
/// It evaluates in full (O(n)), a new history of rows, when either side's changes are not known
/// (a replaced list, a diverged copy, a trimmed record: ``ListEvaluation/Reason/joinedChangesUnavailable``
/// for the other side), when they touch more than a quarter of the rows, or when the query was
/// built by other operators than last time.
///
/// A row whose element and related value are unchanged is not made again; a row made again that is
/// `==` to the one it replaces (when rows are `Equatable`) is kept, and is no edit of the rows.
///
/// The row's id must be its element's (`Row.ID == Left.ID`): a row is that element, shown with
/// related data.
public struct JoinQuery<Left: Identifiable & Sendable, Other: JoinedSide, Row: Identifiable & Sendable>: Sendable
where Left.ID: Sendable, Row.ID == Left.ID, Other: Sendable, Other.Key: Sendable, Other._Mark: Sendable {
    /// The list whose elements the rows are made from.
    public let source: IdentifiedList<Left>
    /// What the rows' related values are looked up in.
    public let other: Other
    /// The key an element refers to (nil: none).
    @usableFromInline let _key: @Sendable (Left) -> Other.Key?
    /// An element's row, given the value its key finds (nil: none); nil when the element has no row.
    @usableFromInline let _row: @Sendable (Left, Other.Value?) -> Row?
    @usableFromInline let _step: _QueryStep
    /// `==` of the rows, when the join was written where they are known to be `Equatable`.
    @usableFromInline var _rowEqual: (@Sendable (Row, Row) -> Bool)? = nil

    @inlinable
    init(source: IdentifiedList<Left>, other: Other, key: @escaping @Sendable (Left) -> Other.Key?,
         row: @escaping @Sendable (Left, Other.Value?) -> Row?, step: _QueryStep) {
        self.source = source
        self.other = other
        self._key = key
        self._row = row
        self._step = step
    }
}

/// What a pipeline keeps for a ``JoinQuery``: the rows, the other side's mark, and for each key
/// the ids of the elements that refer to it, each with its offset in the list when last seen
/// (built on the first change of the other side, so that a bulk load does not pay for it).
public struct JoinQueryState<Left: Identifiable & Sendable, Other: JoinedSide, Row: Identifiable & Sendable>: Sendable
where Left.ID: Sendable, Row.ID == Left.ID, Other: Sendable, Other.Key: Sendable, Other._Mark: Sendable {
    @usableFromInline var rows: IdentifiedList<Row>
    /// Nil until the other side first changes. The offsets are hints, checked by id: a row is
    /// remade from its element without a lookup in the list's id index while they hold.
    @usableFromInline var referrers: [Other.Key: [Left.ID: Int]]?
    @usableFromInline var mark: Other._Mark
    @usableFromInline let step: _QueryStep
    /// Why the last evaluation was made in full, when the query itself decided it.
    @usableFromInline var fullReason: ListEvaluation.Reason?

    @inlinable
    init(rows: IdentifiedList<Row>, referrers: [Other.Key: [Left.ID: Int]]?, mark: Other._Mark, step: _QueryStep) {
        self.rows = rows
        self.referrers = referrers
        self.mark = mark
        self.step = step
    }

    /// The number of rows.
    public var rowCount: Int { rows.count }
}

extension IdentifiedList where Element: Sendable, ID: Sendable {
    /// Joins each element with the value of `other` its `key` refers to, into the rows `row`
    /// makes; an element whose key finds no value has no row (an inner join).
    ///
    /// `other` is an ``IdentifiedList`` (looked up by id) or a `Dictionary` (by key); `key` gives
    /// the key an element refers to (`\.feedID`); `row` makes an element's row from the element
    /// and the value it refers to, with the element's id. The join records where it was written
    /// (`fileID`, `line`, `column`): a pipeline reuses its rows only for a join written at the
    /// same place.
    @inlinable
    public func join<Other: JoinedSide, Row: Identifiable & Sendable>(
        _ other: Other, on key: @escaping @Sendable (Element) -> Other.Key,
        _ row: @escaping @Sendable (Element, Other.Value) -> Row,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        _innerJoin(other, key: { key($0) }, row, _QueryStep(.join, fileID, line, column))
    }

    /// Joins each element whose `key` is not nil with the value of `other` it refers to (an inner
    /// join: an element without a key, or whose key finds no value, has no row).
    @inlinable
    public func join<Other: JoinedSide, Row: Identifiable & Sendable>(
        _ other: Other, on key: @escaping @Sendable (Element) -> Other.Key?,
        _ row: @escaping @Sendable (Element, Other.Value) -> Row,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        _innerJoin(other, key: key, row, _QueryStep(.join, fileID, line, column))
    }

    /// Joins each element with the value of `other` its `key` refers to, if there is one: every
    /// element has a row (a left join), made from nil when the key finds no value.
    @inlinable
    public func leftJoin<Other: JoinedSide, Row: Identifiable & Sendable>(
        _ other: Other, on key: @escaping @Sendable (Element) -> Other.Key,
        _ row: @escaping @Sendable (Element, Other.Value?) -> Row,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        _leftJoin(other, key: { key($0) }, row, _QueryStep(.join, fileID, line, column))
    }

    /// Joins each element with the value of `other` its `key` refers to, if it has a key and the
    /// key finds a value: every element has a row (a left join), made from nil otherwise.
    @inlinable
    public func leftJoin<Other: JoinedSide, Row: Identifiable & Sendable>(
        _ other: Other, on key: @escaping @Sendable (Element) -> Other.Key?,
        _ row: @escaping @Sendable (Element, Other.Value?) -> Row,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        _leftJoin(other, key: key, row, _QueryStep(.join, fileID, line, column))
    }

    @inlinable
    func _innerJoin<Other: JoinedSide, Row: Identifiable & Sendable>(
        _ other: Other, key: @escaping @Sendable (Element) -> Other.Key?, _ row: @escaping @Sendable (Element, Other.Value) -> Row,
        _ step: _QueryStep
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        JoinQuery(source: self, other: other, key: key, row: { element, value in value.map { row(element, $0) } }, step: step)
    }

    @inlinable
    func _leftJoin<Other: JoinedSide, Row: Identifiable & Sendable>(
        _ other: Other, key: @escaping @Sendable (Element) -> Other.Key?, _ row: @escaping @Sendable (Element, Other.Value?) -> Row,
        _ step: _QueryStep
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        JoinQuery(source: self, other: other, key: key, row: { row($0, $1) }, step: step)
    }
}

// The same operators for `Equatable` rows: a remade row is compared with the one it replaces by
// its own `==`, specialized where the join is written (the one looked up for rows of any type is
// generic, and copies both rows through their type's value witnesses per comparison).
extension IdentifiedList where Element: Sendable, ID: Sendable {
    /// Joins each element with the value of `other` its `key` refers to (an inner join), for
    /// `Equatable` rows.
    @inlinable
    public func join<Other: JoinedSide, Row: Identifiable & Sendable & Equatable>(
        _ other: Other, on key: @escaping @Sendable (Element) -> Other.Key,
        _ row: @escaping @Sendable (Element, Other.Value) -> Row,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        _innerJoin(other, key: { key($0) }, row, _QueryStep(.join, fileID, line, column))._comparingRows()
    }

    /// Joins each element whose `key` is not nil with the value of `other` it refers to (an inner
    /// join), for `Equatable` rows.
    @inlinable
    public func join<Other: JoinedSide, Row: Identifiable & Sendable & Equatable>(
        _ other: Other, on key: @escaping @Sendable (Element) -> Other.Key?,
        _ row: @escaping @Sendable (Element, Other.Value) -> Row,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        _innerJoin(other, key: key, row, _QueryStep(.join, fileID, line, column))._comparingRows()
    }

    /// Joins each element with the value of `other` its `key` refers to, if there is one (a left
    /// join), for `Equatable` rows.
    @inlinable
    public func leftJoin<Other: JoinedSide, Row: Identifiable & Sendable & Equatable>(
        _ other: Other, on key: @escaping @Sendable (Element) -> Other.Key,
        _ row: @escaping @Sendable (Element, Other.Value?) -> Row,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        _leftJoin(other, key: { key($0) }, row, _QueryStep(.join, fileID, line, column))._comparingRows()
    }

    /// Joins each element with the value of `other` its `key` refers to, if it has a key and the
    /// key finds a value (a left join), for `Equatable` rows.
    @inlinable
    public func leftJoin<Other: JoinedSide, Row: Identifiable & Sendable & Equatable>(
        _ other: Other, on key: @escaping @Sendable (Element) -> Other.Key?,
        _ row: @escaping @Sendable (Element, Other.Value?) -> Row,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> JoinQuery<Element, Other, Row> where Row.ID == ID {
        _leftJoin(other, key: key, row, _QueryStep(.join, fileID, line, column))._comparingRows()
    }
}

extension JoinQuery where Row: Equatable {
    /// This join, comparing a remade row with the one it replaces by `Row`'s `==`.
    @inlinable
    func _comparingRows() -> Self {
        var query = self
        query._rowEqual = { $0 == $1 }
        return query
    }
}
