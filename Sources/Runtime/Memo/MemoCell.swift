import CComputedAtomics

// MARK: - Cell

/// The part of a memo cell that does not depend on the value's type: the once-protocol word,
/// whether a value is stored, the value's version and the input versions it was computed from. Being the same type in every
/// cell, it lets the runtime's table-driven code (``StateTable``) verify, version and invalidate
/// a cell whatever its value type, without code specialized per computed value.
@usableFromInline
struct _MemoCellHeader {
    /// The `cg_once` state word: EMPTY means "not up to date" (the cell may still hold the
    /// previous value, which the next refresh verifies or compares against).
    @usableFromInline var once: cg_once
    /// Whether the value that follows the header is initialized (it is from the first computation
    /// on). The value is stored as a `Value`, not a `Value?`: a borrowed read of an optional's
    /// payload copies a multi-field struct (one retain per reference in it), a `Value` is read in
    /// place.
    @usableFromInline var hasValue: Bool
    @usableFromInline var changedAt: VersionStamp
    @usableFromInline var inputs: [VersionStamp]

    @inlinable
    init(changedAt: VersionStamp, inputs: [VersionStamp], hasValue: Bool = false) {
        self.once = cg_once(state: CG_ONCE_EMPTY)
        self.hasValue = hasValue
        self.changedAt = changedAt
        self.inputs = inputs
    }
}

/// The shared storage of a ``Memo``: the type-independent header (whose address is stable, as
/// the C once-protocol requires) and one tail-allocated `Value`, the cached value, initialized
/// while the header's `hasValue` is true.
@usableFromInline
final class MemoCell<Value>: ManagedBuffer<_MemoCellHeader, Value> {
    /// Allocates a cell holding `value` at `changedAt`, not up to date.
    @inlinable
    static func make(
        _ value: Value? = nil,
        changedAt: VersionStamp = VersionStamp(rawValue: 0),
        inputs: [VersionStamp] = []
    ) -> MemoCell<Value> {
        let buffer = MemoCell<Value>.create(minimumCapacity: 1) { _ in
            _MemoCellHeader(changedAt: changedAt, inputs: inputs, hasValue: value != nil)
        }
        let cell = unsafeDowncast(buffer, to: MemoCell<Value>.self)
        if let value {
            cell.withUnsafeMutablePointerToElements { $0.initialize(to: value) }
        }
        return cell
    }

    deinit {
        withUnsafeMutablePointers { header, value in
            if header._hasValue.pointee {
                value.deinitialize(count: 1)
            }
        }
    }

    @inlinable
    var _isReady: Bool {
        withUnsafeMutablePointerToHeader { cg_once_is_ready($0._once) }
    }

    /// Where the cached value is (a tail element: its address is stable while the cell lives;
    /// initialized once the cell has been computed).
    @inlinable
    var _valuePointer: UnsafeMutablePointer<Value> {
        withUnsafeMutablePointerToElements { $0 }
    }

    /// The published value. Only valid after `_isReady` returned true (acquire).
    @inlinable
    var _readyValue: Value {
        _valuePointer.pointee
    }

    /// Whether the cell holds a value (computed at least once). Only for the refreshing thread.
    @inlinable
    var _hasValue: Bool {
        withUnsafeMutablePointerToHeader { $0._hasValue.pointee }
    }

    @inlinable
    var _changedAt: VersionStamp {
        withUnsafeMutablePointerToHeader { $0._changedAt.pointee }
    }

    /// Miss path: become the refreshing thread (verify, maybe compute, publish), or wait for the
    /// one that is. Without `verifies`, a stale value is always recomputed.
    @inlinable
    @inline(never)
    func _refresh(
        verifies: Bool,
        _ verify: (inout MemoInputs) -> Void,
        _ compute: () -> Value,
        _ isEqual: ((Value, Value) -> Bool)?
    ) -> Value {
        let slot = _valuePointer
        return withUnsafeMutablePointerToHeader { header in
            _MemoCellHeader._refresh(header, slot, verifies: verifies, verify, compute, isEqual)
        }
    }

    /// Marks the cell stale in place, keeping its value. Only for the unique owner.
    @inlinable
    func _markStale() {
        withUnsafeMutablePointerToHeader { cg_once_reset($0._once) }
    }

    /// A new stale cell with this one's value, version and recorded inputs. They are read only
    /// when this cell is up to date: a cell being refreshed by another thread (possible only
    /// through a copy sharing it) gives an empty cell instead, which simply recomputes.
    @inlinable
    @inline(never)
    func _staleCopy() -> MemoCell<Value> {
        guard _isReady else { return MemoCell.make() }
        return withUnsafeMutablePointerToHeader { header in
            MemoCell.make(_readyValue, changedAt: header._changedAt.pointee, inputs: header._inputs.pointee)
        }
    }
}

extension UnsafeMutablePointer where Pointee == _MemoCellHeader {
    // Each field by its own address. Swift code never accesses the header as a whole: other
    // threads read and write `once` atomically while the refreshing thread writes `changedAt` and
    // `inputs`, and an access to the whole struct would overlap those atomics (ThreadSanitizer
    // reports it as an access race).

    /// The `cg_once` state word.
    @inlinable
    var _once: UnsafeMutablePointer<cg_once> {
        (UnsafeMutableRawPointer(self) + MemoryLayout<_MemoCellHeader>.offset(of: \_MemoCellHeader.once)!)
            .assumingMemoryBound(to: cg_once.self)
    }

    /// Whether the value after the header is initialized.
    @inlinable
    var _hasValue: UnsafeMutablePointer<Bool> {
        (UnsafeMutableRawPointer(self) + MemoryLayout<_MemoCellHeader>.offset(of: \_MemoCellHeader.hasValue)!)
            .assumingMemoryBound(to: Bool.self)
    }

    /// The cached value's version.
    @inlinable
    var _changedAt: UnsafeMutablePointer<VersionStamp> {
        (UnsafeMutableRawPointer(self) + MemoryLayout<_MemoCellHeader>.offset(of: \_MemoCellHeader.changedAt)!)
            .assumingMemoryBound(to: VersionStamp.self)
    }

    /// The input versions the value was computed from.
    @inlinable
    var _inputs: UnsafeMutablePointer<[VersionStamp]> {
        (UnsafeMutableRawPointer(self) + MemoryLayout<_MemoCellHeader>.offset(of: \_MemoCellHeader.inputs)!)
            .assumingMemoryBound(to: [VersionStamp].self)
    }
}

extension _MemoCellHeader {
    /// The miss path of a memo cell, wherever it is (its own `MemoCell` object, or a slot of a
    /// state's ``MemoTable``): become the refreshing thread (verify, maybe compute, publish), or
    /// wait for the one that is. Without `verifies`, a stale value is always recomputed.
    @inlinable
    static func _refresh<Value>(
        _ header: UnsafeMutablePointer<_MemoCellHeader>,
        _ slot: UnsafeMutablePointer<Value>,
        verifies: Bool,
        _ verify: (inout MemoInputs) -> Void,
        _ compute: () -> Value,
        _ isEqual: ((Value, Value) -> Bool)?
    ) -> Value {
        while true {
            if cg_once_try_begin(header._once) {
                // We own the cell until we publish: nobody else reads or writes it.
                let hasValue = header._hasValue.pointee
                // A change trace reads what the verification found while the cell is ours.
                let traced = _slowPath(cg_change_trace_active()) ? _ChangeTraceFrame.current(for: header) : nil
                let previousInputs = traced != nil ? header._inputs.pointee : []
                var recomputed = false
                var cutOff = false
                if !verifies || _recompute(header, verify) || !hasValue {
                    recomputed = true
                    let value = compute()
                    if let isEqual, hasValue, isEqual(slot.pointee, value) {
                        // Early cutoff: keep the cached instance and its version.
                        cutOff = true
                    } else {
                        if hasValue {
                            slot.pointee = value
                        } else {
                            slot.initialize(to: value)
                            header._hasValue.pointee = true
                        }
                        header._changedAt.pointee = .next()
                    }
                }
                if let traced {
                    traced.found(hadValue: hasValue, inputs: previousInputs, header._inputs.pointee,
                                 recomputed: recomputed, cutOff: cutOff, version: header._changedAt.pointee)
                }
                cg_once_finish(header._once)
                return slot.pointee
            }
            // Someone else refreshes (or just published): block until READY (or EMPTY, which
            // only a unique owner or a table copy releasing its claim can cause: then retry).
            if cg_once_wait(header._once) == CG_ONCE_READY {
                return slot.pointee
            }
        }
    }
}

extension _MemoCellHeader {
    /// Records the inputs' versions; whether one of them changed. Only for the refreshing thread.
    @inlinable
    static func _recompute(_ header: UnsafeMutablePointer<_MemoCellHeader>, _ verify: (inout MemoInputs) -> Void) -> Bool {
        // Move the recorded versions out, so that recording mutates them in place (no copy).
        var inputs = MemoInputs([])
        swap(&inputs._versions, &header._inputs.pointee)
        verify(&inputs)
        let changed = inputs.changed
        inputs._dropUnrecorded()
        swap(&inputs._versions, &header._inputs.pointee)
        return changed
    }
}
