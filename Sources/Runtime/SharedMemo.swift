/// The memo cell of a computed value that reads `@Shared` fields (directly or through other
/// computed values).
///
/// A `@Shared` value can change through any of its holders, without the state that caches a
/// value derived from it knowing. So besides ``invalidate(version:)`` (for the state's own
/// inputs), every read passes a *shared key*: the wrapping sum of the shared inputs' version
/// stamps. Each stamp only grows, so the sum changes whenever any of them does, and the cell
/// recomputes.
///
/// Unlike ``Memo``, the hit path takes a lock (the cached value can be replaced while copies
/// share the cell), and concurrent misses may compute more than once; each stores a value at
/// least as new as the key it read.
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

    /// The cached value when it was computed for `sharedKey`; otherwise computes, caches and
    /// returns a new one.
    public func value(sharedKey: UInt64, _ compute: () -> Value) -> Value {
        _cell.value(sharedKey: sharedKey, compute)
    }

    /// Marks the cached value stale because the state's own inputs changed to `version`: resets
    /// the cell in place when no copy shares it, otherwise gives this copy a new cell.
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
    private struct Cached {
        var key: UInt64
        var value: Value
    }

    private let lock = Lock.make()
    private(set) var version: VersionStamp
    private var cached: Cached?

    init(version: VersionStamp) {
        self.version = version
    }

    func value(sharedKey: UInt64, _ compute: () -> Value) -> Value {
        if let hit = lock.withLock({ cached?.key == sharedKey ? cached?.value : nil }) {
            return hit
        }
        let value = compute()
        lock.withLock {
            // Keys only grow; keep the newest if another thread stored one meanwhile.
            if cached == nil || cached!.key <= sharedKey {
                cached = Cached(key: sharedKey, value: value)
            }
        }
        return value
    }

    /// Resets the cell; only for the unique owner.
    func reset(version: VersionStamp) {
        lock.withLock {
            self.version = version
            cached = nil
        }
    }
}
