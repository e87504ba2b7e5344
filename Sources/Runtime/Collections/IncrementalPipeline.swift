/// A query that can be evaluated incrementally, following its source's changes: over an
/// ``IdentifiedList`` (``ListQuery``, ``PrefixListQuery``, ``GroupedListQuery``,
/// ``ListFoldQuery``, …: the ``IdentifiedListQuery``s) or over another query's ``ListView``
/// (``ListViewQuery``, ``PrefixListViewQuery``).
///
/// Evaluate one through an ``IncrementalPipeline`` (or an ``IncrementalListCache``), which keeps
/// its maintained ``State`` between evaluations.
public protocol IncrementalListQuery<Output>: Sendable {
    /// The elements of the list (or view) the query reads.
    associatedtype Source: Identifiable & Sendable where Source.ID: Sendable
    /// What an evaluation gives (a ``ListView``, ``ListGroups``, a number).
    associatedtype Output
    /// What a pipeline keeps between evaluations to follow the source's changes.
    associatedtype State: Sendable

    /// Where the source stands in the history of its changes: a pipeline keeps it, to ask
    /// ``sourceChanges(since:)`` at the next evaluation.
    var sourceVersion: ListVersion { get }

    /// The ids of the source's elements that changed since `version`, oldest first, or nil when
    /// they are not known (the pipeline then evaluates in full). O(changes).
    func sourceChanges(since version: ListVersion) -> ListChanges<Source.ID>?

    /// Evaluates the query. With `changes` (the source's edits since `previous` was made, from
    /// the same operators), updates `previous` in place in O(changes · log n) and returns true;
    /// otherwise (no `changes`, or a `previous` made by other operators) replaces it with a full
    /// evaluation (O(n log n)) and returns false. `previous` is nil on the first evaluation.
    func evaluate(updating previous: inout State?, changes: ListChanges<Source.ID>?) -> (output: Output, isIncremental: Bool)

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` once it has decided to follow
    /// `changes` and before it edits `previous`: where a memo cell lets go of the result it
    /// caches (the one this evaluation replaces), so that the parts of `previous` only that result
    /// shared are edited in place rather than copied. The default never calls it. Not meant to
    /// be called by hand.
    func _evaluate(updating previous: inout State?, changes: ListChanges<Source.ID>?,
                   beforeEditing: () -> Void) -> (output: Output, isIncremental: Bool)

    /// This query, for an evaluation after which inputs that only its key order reads moved (see
    /// ``SectionedListQuery/keyOrderChanged()``); any other query is itself (the default). Not
    /// meant to be called by hand.
    func _keyOrderChanged() -> Self

    /// Points this query at `list`, a later value of the list it reads, keeping its operators and
    /// their closures: what a generated value does instead of building its query again after an
    /// edit, when its closures read nothing that can change (see `StateTable.Builder`'s
    /// `source:`). Returns false, leaving the query as it was, when its source is not an
    /// ``IdentifiedList`` (the default). Not meant to be called by hand.
    mutating func _replaceSource(with list: IdentifiedList<Source>) -> Bool

    /// Why the evaluation that made `state` was made in full although the source's changes were
    /// known, when the query itself decided it (a ``JoinQuery`` whose other side's changes are
    /// not known); nil for the pipeline's own reasons (the default). Not meant to be called by
    /// hand.
    static func _fullEvaluationReason(_ state: State?) -> ListEvaluation.Reason?
}

extension IncrementalListQuery {
    /// ``evaluate(updating:changes:)``: queries whose results share nothing with their state
    /// have nothing to let go of before an edit. Not meant to be called by hand.
    @inlinable
    public func _evaluate(updating previous: inout State?, changes: ListChanges<Source.ID>?,
                          beforeEditing: () -> Void) -> (output: Output, isIncremental: Bool) {
        evaluate(updating: &previous, changes: changes)
    }

    /// Nil: the pipeline says why it evaluated in full. Not meant to be called by hand.
    @inlinable
    public static func _fullEvaluationReason(_ state: State?) -> ListEvaluation.Reason? { nil }
}

/// An incremental query whose source is an ``IdentifiedList``: it follows the list's change
/// record (``IdentifiedList/changes(since:)``).
public protocol IdentifiedListQuery<Output>: IncrementalListQuery {
    /// The list the query reads.
    var source: IdentifiedList<Source> { get }
}

extension IncrementalListQuery where Self: IdentifiedListQuery {
    /// The list's version.
    @inlinable
    public var sourceVersion: ListVersion { source.version }

    /// The list's changes since `version` (``IdentifiedList/changes(since:)``).
    @inlinable
    public func sourceChanges(since version: ListVersion) -> ListChanges<Source.ID>? {
        source.changes(since: version)
    }
}

/// How many times incremental queries were evaluated in full or followed their source's
/// changes, in this process (see ``RecomputationCounter/counting(_:)`` to count per test).
public enum IncrementalListCounters {
    /// Full evaluations: first evaluations, replaced or diverged lists, trimmed change records,
    /// `reuse: false`, and changes too many to be worth following.
    public static let fullRecomputations = RecomputationCounter()
    /// Evaluations that followed the source's changes.
    public static let incrementalUpdates = RecomputationCounter()
}

/// The maintained state of an incremental query: feed it each new value of the query and it
/// returns the new result, following the source list's changes since the previous one.
///
/// ```swift
/// var pipeline = IncrementalPipeline<ListQuery<Message, Message>>()
/// var unread = pipeline.update(with: messages.filter { !$0.isRead }.sorted(by: \.date))
/// messages[id: 7]?.isRead = true
/// unread = pipeline.update(with: messages.filter { !$0.isRead }.sorted(by: \.date))
/// pipeline.lastUpdateWasIncremental   // true: one change followed, O(log n)
/// unread.changes.removals            // the offset message 7 had
/// ```
///
/// The pipeline falls back to a full evaluation, counted in ``fullRecomputations`` and
/// ``IncrementalListCounters/fullRecomputations``, and never to a wrong result, when it cannot
/// get the source's changes since the version it last saw (``IdentifiedList/changes(since:)``
/// returns nil: the list was replaced or diverged, or its record was trimmed), when the query's
/// operators are not those of last time, or when the caller passes `reuse: false`.
public struct IncrementalPipeline<Query: IncrementalListQuery>: Sendable {
    @usableFromInline var _state: Query.State?
    @usableFromInline var _version: ListVersion?
    @usableFromInline var _fullRecomputations = 0
    @usableFromInline var _incrementalUpdates = 0
    @usableFromInline var _lastUpdateWasIncremental = false
    @usableFromInline var _lastEvaluation = ListEvaluation.full(.first)

    /// How many updates of this pipeline evaluated the query in full.
    public var fullRecomputations: Int { _fullRecomputations }
    /// How many updates followed the source's changes.
    public var incrementalUpdates: Int { _incrementalUpdates }
    /// Whether the last ``update(with:reuse:)`` followed the source's changes.
    public var lastUpdateWasIncremental: Bool { _lastUpdateWasIncremental }
    /// How the last ``update(with:reuse:)`` evaluated the query, and why it evaluated it in full.
    public var lastEvaluation: ListEvaluation { _lastEvaluation }

    /// A pipeline that has evaluated nothing yet.
    public init() {}

    /// Evaluates `query`, following its source's changes since the previous update.
    ///
    /// - Parameters:
    ///   - query: the query, built by the same code as last time (see ``ListQuery``).
    ///   - reuse: pass false when something the query's closures read, other than the
    ///     source list, changed since the previous update (a search string, a sort order): the
    ///     maintained state was built by different closures, so the query is evaluated in full.
    ///     The result's changes are then found by comparing ids with the previous result.
    /// - Returns: the query's result.
    @inlinable
    public mutating func update(with query: Query, reuse: Bool = true) -> Query.Output {
        _update(with: query, reuse: reuse, beforeEditing: {})
    }

    /// ``update(with:reuse:)``, calling `beforeEditing` when the query follows the source's
    /// changes, before it edits the maintained state (see
    /// `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    mutating func _update(with query: Query, reuse: Bool, beforeEditing: () -> Void) -> Query.Output {
        let changes = reuse ? _version.flatMap { query.sourceChanges(since: $0) } : nil
        let isFirst = _version == nil || _state == nil
        let (output, isIncremental) = query._evaluate(updating: &_state, changes: changes, beforeEditing: beforeEditing)
        _lastEvaluation = isIncremental ? .followed
            : isFirst ? .full(.first)
            : !reuse ? .full(.otherInputsMoved)
            : changes == nil ? .full(.changesUnavailable)
            : .full(Query._fullEvaluationReason(_state) ?? .changesNotFollowed)
        _version = query.sourceVersion
        _lastUpdateWasIncremental = isIncremental
        if isIncremental {
            _incrementalUpdates += 1
            IncrementalListCounters.incrementalUpdates.increment()
        } else {
            _fullRecomputations += 1
            IncrementalListCounters.fullRecomputations.increment()
        }
        return output
    }

    /// Forgets the maintained state: the next update evaluates in full.
    public mutating func reset() {
        _state = nil
        _version = nil
    }
}

/// An ``IncrementalPipeline`` behind a lock, named by its output only: what a generated memo
/// cell holds for a computed value whose body is an incremental query. The body can then be
/// declared `-> some IncrementalListQuery<ListView<Message>>`, which makes
/// `messages.filter { … }.sorted(by: \.date)` build a query, without naming the query's type.
///
/// ```swift
/// let cache = IncrementalListCache<ListView<Message>>()
/// let view = cache.update(with: unreadByDate(messages), reuse: true)
/// ```
///
/// The pipeline is kept for the query type of the last update; a query of another type starts a
/// new one (a full evaluation).
///
/// ``update(with:reuse:)`` is inlinable: the evaluation is specialized for the query's type where
/// the query is built (generic code through witness tables costs several times more on a bulk
/// load, and per edit).
public final class IncrementalListCache<Output>: @unchecked Sendable {
    // Safety: `holder` and the pipeline in it are only touched under `lock`.
    @usableFromInline let lock = Lock()
    // Unchecked exclusivity (here and in `Holder`): only touched under `lock`, never in
    // overlapping accesses; the dynamic checks cost a call and a thread-local access set each.
    @usableFromInline @exclusivity(unchecked) var holder: AnyObject?

    /// Holds one pipeline, so that it is edited in place (never copied out of an existential).
    @usableFromInline
    final class Holder<Query: IncrementalListQuery>: _PipelineHolder {
        @usableFromInline @exclusivity(unchecked) var pipeline = IncrementalPipeline<Query>()
        /// The query of the first update that named its source list, pointed at an empty list
        /// (it must not keep the state's list alive: the list's next edit would copy it): the
        /// later updates point it at the list's new value instead of building it again.
        @usableFromInline @exclusivity(unchecked) var template: Query?

        @usableFromInline
        init() {}

        init(pipeline: IncrementalPipeline<Query>, template: Query?) {
            self.pipeline = pipeline
            self.template = template
        }

        @usableFromInline func copy() -> AnyObject { Holder(pipeline: pipeline, template: template) }

        @usableFromInline var lastEvaluation: ListEvaluation { pipeline.lastEvaluation }
    }

    /// An empty cache.
    public init() {}

    /// A new cache holding a copy of this one's pipeline: it goes on from the same previous
    /// result, independently (the pipeline is a value; the copy shares its tree until one of them
    /// edits it). What a copy of a state that diverges from another copy gets.
    public func copy() -> IncrementalListCache {
        let copy = IncrementalListCache()
        copy.holder = lock.withLock { (holder as? _PipelineHolder)?.copy() }
        return copy
    }

    /// ``IncrementalPipeline/update(with:reuse:)`` under the cache's lock.
    ///
    /// - Parameters:
    ///   - query: the query, built by the same code as last time.
    ///   - reuse: false when something the query's closures read besides its source changed.
    /// - Returns: the query's result.
    @inlinable
    public func update<Query: IncrementalListQuery>(with query: Query, reuse: Bool = true) -> Output where Query.Output == Output {
        _update(with: query, reuse: reuse, beforeEditing: {})
    }

    /// ``update(with:reuse:)``, calling `beforeEditing` under the lock when the query follows
    /// its source's changes, before it edits the pipeline's state: what a memo cell passes to
    /// let go of the value it caches, which shares that state (see `StateTable.Builder`'s
    /// `incremental`).
    @inlinable
    func _update<Query: IncrementalListQuery>(with query: Query, reuse: Bool, beforeEditing: () -> Void) -> Output
    where Query.Output == Output {
        lock.withLock {
            _holder(of: Query.self).pipeline._update(with: query, reuse: reuse, beforeEditing: beforeEditing)
        }
    }

    /// ``update(with:reuse:)`` for a query that `build` makes, or, when `source` is given (the
    /// current value of the list the query reads, and nothing else its closures read can change),
    /// the query the first such update built, pointed at `source`: built once per cache.
    /// `reuse` is given the query's source version; `keyOrderMoved` marks the query
    /// (``SectionedListQuery/keyOrderChanged()``).
    @inlinable
    func _update<Query: IncrementalListQuery>(
        source: IdentifiedList<Query.Source>?, building build: () -> Query, keyOrderMoved: Bool,
        reuse: (ListVersion) -> Bool, beforeEditing: () -> Void
    ) -> Output where Query.Output == Output {
        lock.withLock {
            let current = _holder(of: Query.self)
            var query: Query
            if let source, var template = current.template, template._replaceSource(with: source) {
                query = template
            } else {
                query = build()
                if source != nil {
                    var detached = query
                    current.template = detached._replaceSource(with: IdentifiedList()) ? detached : nil
                }
            }
            if keyOrderMoved { query = query._keyOrderChanged() }
            return current.pipeline._update(with: query, reuse: reuse(query.sourceVersion), beforeEditing: beforeEditing)
        }
    }

    /// The holder of the pipeline for `Query`, made (replacing another query type's) if there is
    /// none. Under the lock.
    @inlinable
    func _holder<Query: IncrementalListQuery>(of _: Query.Type) -> Holder<Query> {
        if let existing = holder as? Holder<Query> { return existing }
        let current = Holder<Query>()
        holder = current
        return current
    }

    /// How the last update evaluated its query (``ListEvaluation/full(_:)`` with
    /// ``ListEvaluation/Reason/first`` before any).
    public var lastEvaluation: ListEvaluation {
        lock.withLock { (holder as? _PipelineHolder)?.lastEvaluation ?? .full(.first) }
    }

    /// The counters of the pipeline of the last update's query type (zeros before any update).
    public func statistics<Query: IncrementalListQuery>(of query: Query.Type) -> (fullRecomputations: Int, incrementalUpdates: Int)
    where Query.Output == Output {
        lock.withLock {
            guard let existing = holder as? Holder<Query> else { return (0, 0) }
            return (existing.pipeline.fullRecomputations, existing.pipeline.incrementalUpdates)
        }
    }
}

/// A cache's pipeline holder, whatever its query type: copies itself.
@usableFromInline
protocol _PipelineHolder: AnyObject {
    func copy() -> AnyObject
    var lastEvaluation: ListEvaluation { get }
}

/// How an incremental query was evaluated: by following its source list's changes, or in full,
/// and why (what a ``ChangeTrace`` reports for a `ListView`, `ListGroups` or fold value).
public enum ListEvaluation: Hashable, Sendable, CustomStringConvertible {
    /// The source's changes since the last evaluation were followed: O(changes · log n).
    case followed
    /// The query was evaluated in full: O(n log n).
    case full(Reason)

    /// Why a query was evaluated in full.
    public enum Reason: Hashable, Sendable {
        /// Its first evaluation (or the first with these operators).
        case first
        /// An input other than the source list moved (a search string, a sort order, another
        /// value): the query's closures may read it, so the previous result cannot be followed.
        case otherInputsMoved
        /// The source list's changes since the last evaluation are not known: the list was
        /// replaced by another value (`messages = …`), this copy of the state diverged from the
        /// one the result was made from, or more edits were made than the list's change record
        /// keeps.
        case changesUnavailable
        /// The changes were known, but the pipeline chose to evaluate in full: they touched so
        /// much of the list that following them would cost more, or the query's operators were
        /// not those of last time.
        case changesNotFollowed
        /// The list's changes were known, but not those of the other side of a join (a
        /// ``JoinQuery``'s ``JoinQuery/other``): it was replaced, this copy of the state diverged,
        /// or more edits were made than its change record keeps.
        case joinedChangesUnavailable
    }

    /// `followed the list's changes`, `evaluated in full: another input moved`, ….
    public var description: String {
        switch self {
        case .followed: "followed the list's changes"
        case .full(.first): "evaluated in full: first evaluation"
        case .full(.otherInputsMoved): "evaluated in full: an input other than the list moved"
        case .full(.changesUnavailable): "evaluated in full: the list's changes were unknown (it was replaced, diverged, or its change record was trimmed)"
        case .full(.changesNotFollowed): "evaluated in full: too many changes to follow"
        case .full(.joinedChangesUnavailable): "evaluated in full: the joined side's changes were unknown (it was replaced, diverged, or its change record was trimmed)"
        }
    }
}
