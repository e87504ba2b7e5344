import CComputedAtomics

/// A memo cell: the cached result of one derived value, computed lazily and kept until its
/// inputs change.
///
/// Generated state structs store one `Memo` per computed value. Copying the state copies only a
/// reference to the cell, so copies that did not change the value's inputs share the cached
/// result. Writing an input calls ``invalidate(version:)``.
///
/// ## Guarantees
/// - **Hit path:** ``value(_:)`` on a cached cell is one acquire load of a ready flag followed by
///   a read of the stored value. No lock, no allocation.
/// - **At most one computation per cell:** when several threads read an empty cell at the same
///   time, exactly one runs `compute`; the others block (on a condition variable, no busy
///   spinning) until the value is published, then return it. `compute` runs without any lock
///   held, so computing one memo may read other memos.
/// - **Invalidation:** ``invalidate(version:)`` resets the cell in place when no copy shares it
///   (no allocation), otherwise it gives this copy a fresh empty cell and leaves the shared one
///   (and its cached value) to the other copies.
///
/// ## Requirements
/// - `compute` must not read the same cell again (directly or through other memos): that
///   would wait for itself forever.
/// - `compute` must not throw or trap halfway; a trap ends the process anyway.
/// - As for any value type, a single `Memo` variable must not be mutated while another thread
///   reads it; concurrent reads of a shared cell through different copies are fine.
@frozen
public struct Memo<Value> {
    @usableFromInline
    var _cell: MemoCell<Value>

    /// Creates an empty cell caching for inputs at `version`.
    @inlinable
    public init(version: VersionStamp) {
        _cell = MemoCell<Value>.make(version: version)
    }

    /// Creates an empty cell caching for inputs at a new version (``VersionStamp/next()``).
    @inlinable
    public init() {
        self.init(version: .next())
    }

    /// The version of the inputs this cell caches for, as passed to ``init(version:)`` or the
    /// last ``invalidate(version:)``.
    @inlinable
    public var version: VersionStamp {
        _cell._version
    }

    /// Whether the value is computed and cached (a snapshot: another thread may be computing).
    @inlinable
    public var isCached: Bool {
        _cell._isReady
    }

    /// The cached value, or `nil` when none is cached yet. Never computes, never blocks.
    @inlinable
    public var cachedValue: Value? {
        _cell._isReady ? _cell._readyValue : nil
    }

    /// Returns the cached value, computing it with `compute` on the first read after creation or
    /// invalidation.
    ///
    /// Hit: one acquire load then the value (no lock, no allocation). Miss: `compute` runs at most
    /// once per cell even under concurrent first reads; the other readers wait for its result.
    @inlinable
    public func value(_ compute: () -> Value) -> Value {
        let cell = _cell
        if _fastPath(cell._isReady) {
            return cell._readyValue
        }
        return cell._computeOrWait(compute)
    }

    /// The cached value, borrowed in place from the shared cell: no copy, no retain, no lock.
    ///
    /// For generated `_read` accessors: they check ``isCached`` first and call ``value(_:)`` only
    /// when it is false (so a hit forms no compute closure, which would copy the state), then
    /// yield this. Not meant to be called by hand.
    ///
    /// - Precondition: a value is cached: ``isCached`` returned true, or ``value(_:)`` returned,
    ///   on this copy since its last mutation (only a mutation can empty the cell again). Traps
    ///   when no value is cached.
    @inlinable
    public var _borrowedValue: Value {
        _read {
            yield _cell.header.value!
        }
    }

    /// Marks the cached value stale because the inputs changed to `version`.
    ///
    /// When this copy holds the only reference to the cell, the cell is reset in place (no
    /// allocation); otherwise this copy gets a new empty cell and the other copies keep the
    /// shared cell with its cached value.
    @inlinable
    public mutating func invalidate(version: VersionStamp) {
        if isKnownUniquelyReferenced(&_cell) {
            _cell._reset(version: version)
        } else {
            _cell = MemoCell<Value>.make(version: version)
        }
    }
}

extension Memo: @unchecked Sendable where Value: Sendable {}
// Safety: the shared cell is only mutated (a) by the one thread that won the once-protocol's
// EMPTY → COMPUTING transition, before it publishes with a release store, or (b) by a `mutating`
// method that holds the only reference to it. Readers only read after an acquire load sees READY.

extension Memo: CustomStringConvertible {
    /// `Memo(v42, cached)` or `Memo(v42, empty)`.
    public var description: String {
        "Memo(\(version), \(isCached ? "cached" : "empty"))"
    }
}

extension Memo {
    /// The identity of the underlying shared cell (for tests: shows whether invalidation reset
    /// the cell in place or replaced it).
    var _cellIdentity: ObjectIdentifier {
        ObjectIdentifier(_cell)
    }
}

// MARK: - Cell

/// Header of a memo cell: the cached value and the version of the inputs it caches for.
@usableFromInline
struct MemoHeader<Value> {
    @usableFromInline var value: Value?
    @usableFromInline var version: VersionStamp

    @inlinable
    init(value: Value?, version: VersionStamp) {
        self.value = value
        self.version = version
    }
}

/// The shared storage of a ``Memo``: header (value + version) and a tail-allocated `cg_once`
/// state word whose address is stable, as the C once-protocol requires.
@usableFromInline
final class MemoCell<Value>: ManagedBuffer<MemoHeader<Value>, cg_once> {
    /// Allocates an empty cell.
    @inlinable
    static func make(version: VersionStamp) -> MemoCell<Value> {
        let buffer = MemoCell<Value>.create(minimumCapacity: 1) { _ in
            MemoHeader(value: nil, version: version)
        }
        let cell = unsafeDowncast(buffer, to: MemoCell<Value>.self)
        cell.withUnsafeMutablePointerToElements { $0.initialize(to: cg_once(state: CG_ONCE_EMPTY)) }
        return cell
    }

    // `cg_once` is a trivial C struct: nothing to deinitialize in the tail.

    @inlinable
    var _isReady: Bool {
        withUnsafeMutablePointerToElements { cg_once_is_ready($0) }
    }

    /// The published value. Only valid after `_isReady` returned true (acquire).
    @inlinable
    var _readyValue: Value {
        withUnsafeMutablePointerToHeader { $0.pointee.value.unsafelyUnwrapped }
    }

    @inlinable
    var _version: VersionStamp {
        withUnsafeMutablePointerToHeader { $0.pointee.version }
    }

    /// Miss path: become the computing thread, or wait for the one that is.
    @inlinable
    @inline(never)
    func _computeOrWait(_ compute: () -> Value) -> Value {
        withUnsafeMutablePointers { header, once in
            while true {
                if cg_once_try_begin(once) {
                    // We own the cell until we publish: nobody else reads or writes the header.
                    let value = compute()
                    header.pointee.value = value
                    cg_once_finish(once)
                    return value
                }
                // Someone else computes (or just published): block until READY (or EMPTY,
                // which only a unique owner can cause, so we then simply retry).
                if cg_once_wait(once) == CG_ONCE_READY {
                    return header.pointee.value.unsafelyUnwrapped
                }
            }
        }
    }

    /// Resets the cell in place. Only for the unique owner.
    @inlinable
    func _reset(version: VersionStamp) {
        withUnsafeMutablePointers { header, once in
            header.pointee.version = version
            header.pointee.value = nil
            cg_once_reset(once)
        }
    }
}
