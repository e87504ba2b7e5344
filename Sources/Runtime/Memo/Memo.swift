import CComputedAtomics

/// A memo cell: the cached result of one derived value, computed lazily, checked against its
/// inputs after they change, and recomputed only when one of them really did.
///
/// Generated state structs store one `Memo` per computed value. Copying the state copies only a
/// reference to the cell, so copies that did not change the value's inputs share the cached
/// result. Writing an input marks every value that depends on it, directly or not, stale
/// (``invalidate()``; generated states do it through their `StateTable`, which resets the cells
/// the same way): the cell keeps its value but is no longer trusted.
///
/// ## Change propagation
/// The first read after ``invalidate()`` brings the cell up to date with
/// `value(inputs:compute:)` (one overload for `Equatable` values, with the cutoff, one without):
/// 1. **Verify.** `inputs` records the current version of each input (a field's stamp, or the
///    ``version`` of another memo after bringing that one up to date). When every version is the
///    one the cached value was computed from, the cached value is kept: `compute` does not run.
/// 2. **Recompute** otherwise, then **cut off**: when `Value` is `Equatable` and the new value
///    `==` the cached one, the cell keeps the cached instance (an array keeps its buffer) and its
///    ``version``, so values that read only this one are not recomputed either.
///
/// ``version`` is therefore the version of the *value*: it moves only when a computation gave a
/// different value.
///
/// ## Guarantees
/// - **Hit path:** on a cell that is up to date, reading is one acquire load of a ready flag
///   followed by a read of the stored value. No lock, no allocation.
/// - **At most one computation per cell:** when several threads bring the same cell up to date at
///   the same time, exactly one verifies (and, if needed, computes); the others block (on a
///   condition variable, no busy spinning) until the value is published, then return it.
///   `inputs` and `compute` run without any lock held, so they may read other memos.
/// - **Invalidation:** ``invalidate()`` marks the cell stale in place when no copy shares it (no
///   allocation); otherwise it gives this copy a stale copy of the cell and leaves the shared one
///   (up to date for the other copies) to them.
///
/// ## Requirements
/// - `inputs` and `compute` must not read the same cell again (directly or through other memos):
///   that would wait for itself forever.
/// - `inputs` must record the same inputs, in the same order, on every call.
/// - `compute` must not throw or trap halfway; a trap ends the process anyway.
/// - As for any value type, a single `Memo` variable must not be mutated while another thread
///   reads it; concurrent reads of a shared cell through different copies are fine.
@frozen
public struct Memo<Value> {
    @usableFromInline
    var _cell: MemoCell<Value>

    /// Creates an empty cell: the first read computes.
    ///
    /// Not inlinable: a state's initializer creates one cell per computed value, and inlined
    /// allocations made that one function grow with the number of values (the optimizer's ARC
    /// passes then take time that grows faster than the code).
    public init() {
        _cell = MemoCell<Value>.make()
    }

    /// The version of the cached value: a new stamp when a computation gave a new value, kept when
    /// it gave an equal one (early cutoff) or when the inputs turned out unchanged.
    ///
    /// Meaningful once the cell is up to date (after a read); `VersionStamp(rawValue: 0)` before
    /// the first computation.
    @inlinable
    public var version: VersionStamp {
        _cell._changedAt
    }

    /// Whether the cached value is up to date (a snapshot: another thread may be computing).
    @inlinable
    public var isCached: Bool {
        _cell._isReady
    }

    /// The cached value when it is up to date, `nil` otherwise. Never computes, never blocks.
    @inlinable
    public var cachedValue: Value? {
        _cell._isReady ? _cell._readyValue : nil
    }

    /// Returns the cached value, computing it with `compute` on the first read after creation or
    /// invalidation (without recorded inputs, a stale cell always recomputes, and its
    /// ``version`` always moves).
    ///
    /// Hit: one acquire load then the value (no lock, no allocation). Miss: `compute` runs at most
    /// once per cell even under concurrent first reads; the other readers wait for its result.
    @inlinable
    public func value(_ compute: () -> Value) -> Value {
        let cell = _cell
        if _fastPath(cell._isReady) {
            return cell._readyValue
        }
        return cell._refresh(verifies: false, { _ in }, compute, nil)
    }

    /// Returns the cached value, bringing it up to date first when it was invalidated: unchanged
    /// input versions keep it without running `compute`; otherwise `compute` runs, and a result
    /// `isEqual` to the cached value keeps the cached instance and its ``version``.
    ///
    /// Generated code calls this (or the overloads that choose `isEqual` by type); pass `nil` to
    /// turn the cutoff off for a value whose comparison costs more than it saves.
    @inlinable
    public func value(
        inputs: (inout MemoInputs) -> Void,
        compute: () -> Value,
        isEqual: ((Value, Value) -> Bool)?
    ) -> Value {
        let cell = _cell
        if _fastPath(cell._isReady) {
            return cell._readyValue
        }
        return cell._refresh(verifies: true, inputs, compute, isEqual)
    }

    /// ``value(inputs:compute:isEqual:)`` without the cutoff: `Value` is not `Equatable`.
    @inlinable
    public func value(inputs: (inout MemoInputs) -> Void, compute: () -> Value) -> Value {
        value(inputs: inputs, compute: compute, isEqual: nil)
    }

    /// The cached value, borrowed in place from the shared cell: no copy, no retain, no lock.
    ///
    /// For generated `_read` accessors: they check ``isCached`` first and bring the cell up to
    /// date only when it is false (so a hit forms no closure, which would copy the state), then
    /// yield this. Not meant to be called by hand.
    ///
    /// - Precondition: the cell is up to date: ``isCached`` returned true, or a `value` method
    ///   returned, on this copy since its last mutation (only a mutation can invalidate it again).
    ///   Traps when no value is cached.
    @inlinable
    public var _borrowedValue: Value {
        _read {
            yield _cell._valuePointer.pointee
        }
    }

    /// Marks the cached value stale because an input changed: the next read verifies it.
    ///
    /// When this copy holds the only reference to the cell, the cell is marked stale in place (no
    /// allocation); otherwise this copy gets a stale copy of it (value, version and recorded
    /// inputs) and the other copies keep the shared cell.
    @inlinable
    public mutating func invalidate() {
        if isKnownUniquelyReferenced(&_cell) {
            _cell._markStale()
        } else {
            _cell = _cell._staleCopy()
        }
    }
}

extension Memo where Value: Equatable {
    /// ``value(inputs:compute:isEqual:)`` with the cutoff on: a recomputed value `==` the cached
    /// one keeps the cached instance and its ``version``.
    @inlinable
    public func value(inputs: (inout MemoInputs) -> Void, compute: () -> Value) -> Value {
        value(inputs: inputs, compute: compute, isEqual: ==)
    }
}

extension Memo: @unchecked Sendable where Value: Sendable {}
// Safety: the shared cell is only mutated (a) by the one thread that won the once-protocol's
// EMPTY → COMPUTING transition, before it publishes with a release store, or (b) by a `mutating`
// method that holds the only reference to it. Readers only read after an acquire load sees READY.

extension Memo: CustomStringConvertible {
    /// `Memo(v42, cached)` or `Memo(v42, stale)`.
    public var description: String {
        "Memo(\(version), \(isCached ? "cached" : "stale"))"
    }
}

extension Memo {
    /// The identity of the underlying shared cell (for tests: shows whether invalidation marked
    /// the cell stale in place or replaced it).
    var _cellIdentity: ObjectIdentifier {
        ObjectIdentifier(_cell)
    }
}

// MARK: - Inputs

/// The versions of a memo's inputs, recorded while it is brought up to date.
///
/// Generated code records each input in a fixed order: `inputs.record(_todos.version)`. Recording
/// compares with the version recorded by the previous computation, so after the last input
/// ``changed`` tells whether the cached value can be kept. The same record, version by version,
/// keys a ``SharedMemo`` on its `@Shared` inputs and lets a ``Store`` tell whether a commit wrote
/// a field: stamps are unique but not ordered across threads, so they are only ever compared with
/// `==`, one by one.
public struct MemoInputs {
    @usableFromInline
    var _versions: [VersionStamp]

    @usableFromInline
    var _count: Int = 0

    @usableFromInline
    var _changed: Bool = false

    @inlinable
    init(_ versions: [VersionStamp]) {
        _versions = versions
    }

    /// Records the current version of the next input.
    @inlinable
    public mutating func record(_ version: VersionStamp) {
        if _count < _versions.count {
            if _versions[_count] != version {
                _versions[_count] = version
                _changed = true
            }
        } else {
            _versions.append(version)
            _changed = true
        }
        _count += 1
    }

    /// Whether an input's version differs from the previous computation's (or an input was
    /// never recorded before).
    @inlinable
    public var changed: Bool {
        _changed || _count != _versions.count
    }

    /// Starts a new recording over the versions recorded last time.
    @inlinable
    mutating func _restart() {
        _count = 0
        _changed = false
    }

    /// Drops the versions of a previous recording beyond the ones recorded this time.
    @inlinable
    mutating func _dropUnrecorded() {
        if _count < _versions.count {
            _versions.removeLast(_versions.count - _count)
        }
    }
}
