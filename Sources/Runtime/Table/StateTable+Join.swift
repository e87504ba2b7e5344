/// Joins maintained incrementally: a spec's `computed rows: IdentifiedList<TimelineRow> {
/// articles.join(feeds, on: \.feedID) { article, feed in TimelineRow(article, feed) } }`.
///
/// The generated body returns the join (`some IncrementalListQuery<IdentifiedList<TimelineRow>>`),
/// and the entry is the one of every incremental value (`StateTable+Incremental.swift`): when only
/// the joined list and the other side moved, the pipeline gives the query the list's changes and
/// the query asks the other side for its own; `sourceInputs` names the other side (and the list
/// the join starts from, when that is another join value), so that its moves are followed rather
/// than evaluated in full.
///
/// The rows share their storage with the pipeline's state, so the cell lets go of the cached rows
/// before the pipeline edits them (in place), keeping only their version; and the cutoff is that
/// version: rows the update did not edit (every row made again was `==` to the one it replaced,
/// or nothing referred to what changed) keep the cached value's version, so nothing that reads the
/// rows is recomputed or notified.
extension StateTable.Builder {
    /// A join maintained incrementally: its name, its storage, the key path user code reads it by
    /// on `state.computed`, its inputs, those whose moves the join follows besides the list it
    /// starts from (`sourceInputs`), the list fields its closures read too (`unfollowedLists`,
    /// evaluated in full when they move), and its body, which builds the join from the inputs
    /// read from the storage.
    @inlinable
    public mutating func joined<Row, Query: IncrementalListQuery>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<IdentifiedList<Row>>>,
        _ extended: KeyPath<Extended, IdentifiedList<Row>>,
        inputs: StaticString,
        sourceInputs: StaticString = "",
        unfollowedLists: StaticString = "",
        cutoff: Bool = true,
        source: PartialKeyPath<Extended>? = nil,
        _ body: @escaping (UnsafePointer<Extended>) -> Query
    ) where Query.Output == IdentifiedList<Row> {
        _appendIncremental(name, storage, extended, inputs: inputs, unfollowedLists: unfollowedLists, sourceInputs: sourceInputs,
                           unchanged: cutoff ? { cached, new in cached.version == new.version } : nil,
                           release: .rows(cutoff: cutoff), Self._evaluator(body, source: source))
    }
}

extension _CachedValueRelease {
    /// Lets go of cached rows but for their version: puts back the new rows when they have that
    /// version (nothing was edited: the cutoff keeps them), and otherwise rows of a history of
    /// their own, which the cutoff finds changed and the new rows replace.
    @inlinable
    static func rows<Row>(cutoff: Bool) -> Self where Value == IdentifiedList<Row> {
        Self { slot in
            let version = slot.move().version
            return { new in cutoff && new.version == version ? new : IdentifiedList() }
        }
    }
}
