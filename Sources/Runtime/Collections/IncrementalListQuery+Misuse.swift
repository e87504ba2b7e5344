/// Values that are not incremental queries, named so that the compiler says what to write instead
/// of only that a conformance is missing: where a query is expected (the body of a spec's
/// `computed visible: ListView<Message> { … }`, an ``IncrementalPipeline`` update), an `Array` or a
/// finished ``ListView`` fails with "conformance of 'Array<Message>' to 'IncrementalListQuery' is
/// unavailable: …" and the fix.
///
/// The conformances are unavailable: no code can use them, so they can never be chosen over a
/// real query.
@available(*, unavailable, message: "an Array is recomputed in full: build the query from an IdentifiedList (messages.filter { … }.sorted(by: …)), or declare the value as an Array")
extension Array: IncrementalListQuery {
    public typealias Source = _NoQuerySource
    public typealias State = Never
    public typealias Output = ListView<Element>
}

@available(*, unavailable, message: "a ListView is an evaluated result: start a query from it (timeline.filter { … }, timeline.prefix(20), timeline.query), or build the query it comes from on an IdentifiedList (messages.filter { … }.sorted(by: …))")
extension ListView: IncrementalListQuery {
    public typealias Source = _NoQuerySource
    public typealias State = Never
    public typealias Output = ListView<Element>
}

/// The source of the unavailable conformances above: never made.
public struct _NoQuerySource: Identifiable, Sendable {
    public var id: Int { 0 }
}

/// The requirements of the unavailable conformances above (unreachable: no code can use them).
extension IncrementalListQuery where Source == _NoQuerySource, State == Never {
    /// Unreachable.
    public var sourceVersion: ListVersion { fatalError("not a query") }

    /// Unreachable.
    public func sourceChanges(since version: ListVersion) -> ListChanges<Int>? { fatalError("not a query") }

    /// Unreachable.
    public func evaluate(updating previous: inout Never?, changes: ListChanges<Int>?) -> (output: Output, isIncremental: Bool) {
        fatalError("not a query")
    }
}
