/// The cache of a computed value maintained incrementally (a spec's `computed visible:
/// ListView<Message> { messages.filter { … }.sorted(by: \.date) }`): a ``Memo`` of the value, and
/// the ``IncrementalListCache`` whose pipeline follows the source list's changes between two
/// computations.
///
/// Generated states store one per such computed value, in place of a `Memo`, and read it with the
/// same hit path (``isCached``, then `_borrowedValue`). Everything else runs in the state's
/// ``StateTable`` (see `StateTable.Builder.incremental`): the body builds a query, the table
/// evaluates it through the cache, following the list's changes when only the list moved and in
/// full when another input of the body moved, and cuts off when the view did not change.
///
/// Copies of a state share the cache as they share the memo cell; a copy that invalidates a
/// shared cell also gets a copy of the pipeline (``IncrementalListCache/copy()``), so that copies
/// edited differently each follow their own list. Not meant to be used by hand.
@frozen
public struct IncrementalMemo<Value> {
    /// The memo cell: the first stored property, where the table finds the cell.
    @usableFromInline
    var _memo: Memo<Value>
    /// The pipeline the value was last computed with.
    @usableFromInline
    var _cache: IncrementalListCache<Value>

    /// An empty cache: the first read evaluates the query in full.
    ///
    /// Not inlinable, as ``Memo/init()``.
    public init() {
        _memo = Memo()
        _cache = IncrementalListCache()
    }

    /// The version of the cached value (see ``Memo/version``).
    @inlinable
    public var version: VersionStamp {
        _memo.version
    }

    /// Whether the cached value is up to date (see ``Memo/isCached``).
    @inlinable
    public var isCached: Bool {
        _memo.isCached
    }

    /// The cached value, borrowed in place (see ``Memo/_borrowedValue``). Not meant to be called
    /// by hand.
    @inlinable
    public var _borrowedValue: Value {
        _read {
            yield _memo._borrowedValue
        }
    }
}

extension IncrementalMemo: @unchecked Sendable where Value: Sendable {}
// Safety: as `Memo`'s; the cache is a locked reference, replaced only by a `mutating` path (the
// table's invalidation) that holds the storage exclusively.
