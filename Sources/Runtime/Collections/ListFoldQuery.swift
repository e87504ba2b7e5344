/// A number (or any value) folded over the included elements of a list, maintained in O(1) per
/// changed element: `count(where:)`, `sum(of:)`, or any fold whose steps can be undone
/// (``ListQuery/reduce(_:adding:removing:_:fileID:line:column:)``).
///
/// Floating-point sums maintained this way may differ from a fresh `reduce` in the last bits
/// (additions happen in another order); integer folds are exact.
public struct ListFoldQuery<Source: Identifiable & Sendable, Value: Sendable>: Sendable where Source.ID: Sendable {
    /// The list the query reads.
    public let source: IdentifiedList<Source>
    @usableFromInline let include: (@Sendable (Source) -> Bool)?
    @usableFromInline let contribution: @Sendable (Source) -> Value
    @usableFromInline let initial: Value
    @usableFromInline let add: @Sendable (Value, Value) -> Value
    @usableFromInline let remove: @Sendable (Value, Value) -> Value
    @usableFromInline let steps: [_QueryStep]

    @usableFromInline
    init(source: IdentifiedList<Source>, include: (@Sendable (Source) -> Bool)?, contribution: @escaping @Sendable (Source) -> Value,
         initial: Value, add: @escaping @Sendable (Value, Value) -> Value, remove: @escaping @Sendable (Value, Value) -> Value,
         steps: [_QueryStep]) {
        self.source = source
        self.include = include
        self.contribution = contribution
        self.initial = initial
        self.add = add
        self.remove = remove
        self.steps = steps
    }

    /// The contribution of `element`, if the query includes it.
    @inlinable
    func _contribution(_ element: Source) -> Value? {
        if let include, !include(element) { return nil }
        return contribution(element)
    }
}

/// What a pipeline keeps for a ``ListFoldQuery``: the total. An element's contribution is taken
/// back out when it changes by computing it again from the value the element had before (the
/// list's change record keeps it, see ``ListChanges``): no table by id.
public struct ListFoldState<ID: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline var total: Value
    @usableFromInline let steps: [_QueryStep]

    @inlinable
    init(total: Value, steps: [_QueryStep]) {
        self.total = total
        self.steps = steps
    }
}

extension ListFoldQuery: IncrementalListQuery {
    /// Evaluates the fold (see ``IncrementalListQuery``).
    @inlinable
    public func evaluate(updating previous: inout ListFoldState<Source.ID, Value>?, changes: ListChanges<Source.ID>?)
        -> (output: Value, isIncremental: Bool) {
        if var state = previous, state.steps == steps, let changes, let touched = changes._touched(Source.self) {
            previous = nil
            for element in touched {
                // Its contribution before the edits (from its value then), out; its current one, in.
                if let before = element.old?.element, let old = _contribution(before) {
                    state.total = remove(state.total, old)
                }
                if let now = source._element(id: element.id, hint: element.offset), let new = _contribution(now) {
                    state.total = add(state.total, new)
                }
            }
            previous = state
            return (state.total, true)
        }
        var total = initial
        for element in source {
            if let value = _contribution(element) { total = add(total, value) }
        }
        previous = ListFoldState(total: total, steps: steps)
        return (total, false)
    }

    /// Evaluates the fold once, in full (no state kept).
    public var value: Value {
        var state: ListFoldState<Source.ID, Value>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}

extension ListQuery {
    /// The number of elements of the result that satisfy `predicate`, maintained per change.
    @inlinable @inline(__always)
    public func count(where predicate: @escaping @Sendable (Element) -> Bool,
                      fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListFoldQuery<Source, Int> {
        filter(predicate, fileID: fileID, line: line, column: column)
            .reduce(0, adding: { $0 + $1 }, removing: { $0 - $1 }, { _ in 1 }, fileID: fileID, line: line, column: column)
    }

    /// The number of elements of the result, maintained per change: `messages.filter { … }.count`
    /// where a query is expected (a spec's `computed unreadTotal: Int { … }`, a function declared
    /// `-> some IncrementalListQuery<Int>`); elsewhere `filter` is `Sequence`'s and `.count` an
    /// `Array`'s.
    @inlinable
    public var count: ListFoldQuery<Source, Int> {
        count(fileID: #fileID, line: #line, column: #column)
    }

    /// The number of elements of the result, maintained per change.
    @inlinable
    public func count(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) -> ListFoldQuery<Source, Int> {
        reduce(0, adding: { $0 + $1 }, removing: { $0 - $1 }, { _ in 1 }, fileID: fileID, line: line, column: column)
    }

    /// The sum of `value` over the elements of the result, maintained per change.
    @inlinable @inline(__always)
    public func sum<Value: AdditiveArithmetic & Sendable>(of value: @escaping @Sendable (Element) -> Value,
                                                          fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListFoldQuery<Source, Value> {
        reduce(.zero, adding: { $0 + $1 }, removing: { $0 - $1 }, value, fileID: fileID, line: line, column: column)
    }

    /// A fold of the elements' `contribution`s, from `initial`, with `adding`, maintained per
    /// change by undoing a changed element's old contribution with `removing`.
    /// `removing(adding(total, x), x)` must give `total` back, and the order of additions must
    /// not matter (a commutative group: integer sums, counts, products of non-zero rationals).
    @inlinable @inline(__always)
    public func reduce<Value: Sendable>(_ initial: Value,
                                        adding: @escaping @Sendable (Value, Value) -> Value,
                                        removing: @escaping @Sendable (Value, Value) -> Value,
                                        _ contribution: @escaping @Sendable (Element) -> Value,
                                        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> ListFoldQuery<Source, Value> {
        let project = _project
        let contributionOfSource: @Sendable (Source) -> Value
        if _isIdentity, let direct = contribution as? @Sendable (Source) -> Value {
            contributionOfSource = direct
        } else {
            contributionOfSource = { contribution(project($0)) }
        }
        return ListFoldQuery(source: source, include: _include, contribution: contributionOfSource,
                             initial: initial, add: adding, remove: removing,
                             steps: _steps._appending(_QueryStep(.fold, fileID, line, column)))
    }
}
