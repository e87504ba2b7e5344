/// The memo cell of a computed value that reads `@Shared` fields (directly or through other
/// computed values).
///
/// A `@Shared` value can change through any of its holders, without the state that caches a
/// value derived from it knowing. So besides ``invalidate(version:)`` (for the state's own
/// inputs), every read records the current version stamp of each shared input, in a fixed order
/// (`$0.record($session.version)`), and the cached value is kept only when every one equals the
/// stamp it was computed from. Stamps are compared one by one, never combined into one number:
/// they are unique but not ordered across threads, so a sum (or the newest) of several stamps
/// can stay the same while the stamps in it change.
///
/// Unlike ``Memo``, the hit path takes a lock (the cached value can be replaced while copies
/// share the cell), and concurrent misses may compute more than once; the last one to finish
/// is kept, with the stamps it read before computing, so a value is never kept for stamps newer
/// than the inputs it was computed from (at worst a later read recomputes).
public struct SharedMemo<Value> {
    @usableFromInline
    var _cell: SharedMemoCell<Value>

    /// Creates an empty cell for inputs at `version`.
    public init(version: VersionStamp) {
        _cell = SharedMemoCell(version: version)
    }

    /// The version of the state's own inputs this cell caches for.
    public var version: VersionStamp {
        _cell.version
    }

    /// The cached value when it was computed for the shared inputs' current stamps (recorded by
    /// `sharedInputs`, in the same order on every call); otherwise computes, caches and returns a
    /// new one.
    public func value(sharedInputs: (inout MemoInputs) -> Void, compute: () -> Value) -> Value {
        _cell.value(sharedInputs: sharedInputs, compute: compute)
    }

    /// Marks the cached value stale because the state's own inputs changed to `version`: in
    /// place when no copy shares the cell (the next value is compared with the stale one, for
    /// early cutoff), otherwise this copy gets a new cell.
    public mutating func invalidate(version: VersionStamp) {
        if isKnownUniquelyReferenced(&_cell) {
            _cell.reset(version: version)
        } else {
            _cell = SharedMemoCell(version: version)
        }
    }
}

extension SharedMemo: @unchecked Sendable where Value: Sendable {}
// Safety: the cell's mutable state is reached only under its lock, or by a unique owner.

/// Storage of a ``SharedMemo``.
@usableFromInline
final class SharedMemoCell<Value>: @unchecked Sendable {
    private let lock = Lock.make()
    private(set) var version: VersionStamp
    /// The shared inputs' stamps `cached` was computed from.
    private var keys: [VersionStamp] = []
    /// The value last computed; kept while stale, to compare the next one with.
    private var cached: Value?
    /// Whether the state's own inputs changed since `cached` was computed.
    private var isStale = false
    /// The stamp taken when the value last changed (after cutoff: recomputed to a value `==` to
    /// the previous one, it keeps its stamp): the version a store's observers compare.
    private var changedAtStamp: VersionStamp

    init(version: VersionStamp) {
        self.version = version
        changedAtStamp = version
    }

    /// The stamp taken when the value last changed. Read after bringing the value up to date.
    var changedAt: VersionStamp {
        lock.withLock { changedAtStamp }
    }

    func value(sharedInputs record: (inout MemoInputs) -> Void, compute: () -> Value) -> Value {
        var inputs = MemoInputs([])
        let hit: Value? = lock.withLock {
            // Record into the cell's own keys, moved out (compared and overwritten in place: no
            // copy, no allocation once they exist).
            swap(&inputs._versions, &keys)
            record(&inputs)
            if !isStale, !inputs.changed, let cached {
                swap(&inputs._versions, &keys)
                return cached
            }
            // Miss: the keys now hold the current stamps, which go with the value computed
            // next; the cell's keys stay empty meanwhile, so a concurrent read misses too.
            inputs._dropUnrecorded()
            return nil
        }
        if let hit {
            return hit
        }
        let value = compute()
        lock.withLock {
            keys = inputs._versions
            if let cached, _DynamicEquality<Value>().isEqual(cached, value) == true {
                // Early cutoff: the same value keeps its stamp.
            } else {
                changedAtStamp = VersionStamp.next()
            }
            cached = value
            isStale = false
        }
        return value
    }

    /// Marks the cell stale; only for the unique owner.
    func reset(version: VersionStamp) {
        lock.withLock {
            self.version = version
            keys.removeAll(keepingCapacity: true)
            isStale = true
        }
    }
}
