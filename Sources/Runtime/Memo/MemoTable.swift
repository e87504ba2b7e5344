import CComputedAtomics

/// The memo cells of one generated state, in one allocation: one slot per memoized computed
/// value, each a cell's header (once word, version, recorded inputs) followed by its cached value.
///
/// A state with a table holds one reference for all its computed values, where separate ``Memo``
/// cells held one each: copying the state retains once, creating it allocates once, and a write
/// checks one reference for uniqueness however many values it invalidates. The slots follow the
/// memo once-protocol one by one, exactly as separate cells do (see ``Memo``): a hit is an
/// acquire load of the slot's once word, then the value borrowed in place.
///
/// Copies of a state share the table until one of them writes a field that a computed value reads:
/// that copy then takes a copy of the table (every slot's value, version and recorded inputs), so
/// that the other copies keep theirs, and marks its own dependents stale. A slot that another
/// thread is bringing up to date in the shared table at that moment is waited for first, so no
/// copy loses a value it could have kept.
///
/// Generated code reads a slot through `_isCached(_:)` and `subscript(_borrowed:as:)`, and
/// the state's ``StateTable`` does everything else. Not meant to be used by hand.
@frozen
public struct MemoTable: @unchecked Sendable {
    // Safety: as `Memo`'s: a slot is written only by the thread that won its once-protocol, or by
    // a `mutating` path that holds the only reference to the table.

    @usableFromInline
    var _slots: _MemoSlots

    init(_slots slots: _MemoSlots) {
        _slots = slots
    }

    /// The header of the slot at `slot`: its offset is the table's word at that index.
    @inlinable
    @inline(__always)
    func _header(_ slot: Int) -> UnsafeMutablePointer<_MemoCellHeader> {
        _slots.withUnsafeMutablePointerToElements { elements in
            (UnsafeMutableRawPointer(elements) + elements[slot]).assumingMemoryBound(to: _MemoCellHeader.self)
        }
    }

    /// Whether the value in the slot at `slot` is up to date (an acquire load; a snapshot).
    @inlinable
    public func _isCached(_ slot: Int) -> Bool {
        cg_once_is_ready(_header(slot)._once)
    }

    /// The value in the slot at `slot`, borrowed in place: no copy, no retain, no lock.
    ///
    /// - Precondition: `_isCached(_:)` returned true for the slot on this copy since its last
    ///   mutation, or the state's table brought it up to date; `Value` is the slot's type.
    @inlinable
    public subscript<Value>(_borrowed slot: Int, as _: Value.Type) -> Value {
        _read {
            yield _MemoCellHeader._valuePointer(_header(slot), as: Value.self).pointee
        }
    }
}

extension _MemoCellHeader {
    /// Where a cell's value follows its header (initialized while the header's `hasValue` is
    /// true): the same in a ``MemoCell`` object and in a ``MemoTable`` slot, whose headers are
    /// both aligned for the value.
    @inlinable
    @inline(__always)
    static func _valuePointer<Value>(_ header: UnsafeMutablePointer<_MemoCellHeader>, as _: Value.Type) -> UnsafeMutablePointer<Value> {
        (UnsafeMutableRawPointer(header) + _valueOffset(Value.self)).assumingMemoryBound(to: Value.self)
    }

    /// The byte offset of a `Value` after a header aligned for it.
    @inlinable
    @inline(__always)
    static func _valueOffset<Value>(_: Value.Type) -> Int {
        let alignment = MemoryLayout<Value>.alignment
        return (MemoryLayout<_MemoCellHeader>.size + alignment - 1) & ~(alignment - 1)
    }
}

/// The allocation behind a ``MemoTable``: its layout as the header, then one word per slot (the
/// slot's offset from the first word), then the slots.
@usableFromInline
final class _MemoSlots: ManagedBuffer<_MemoLayout, Int> {
    deinit {
        withUnsafeMutablePointers { layout, words in
            layout.pointee.destroySlots(UnsafeMutableRawPointer(words))
        }
    }
}

/// Where each slot of a state's ``MemoTable`` is and how to make, copy and destroy it: built once
/// per state type by its ``StateTable``, from the computed values' types.
@usableFromInline
final class _MemoLayout: @unchecked Sendable {
    // Safety: immutable after `init`.

    /// Each slot's offset from the first word of the allocation's elements.
    let offsets: [Int]
    let kinds: [_MemoSlotKind]
    /// The size of the elements, in words: the offsets, then the slots.
    let words: Int

    /// Lays out one slot per type, in order, each aligned for its header and value.
    init(_ kinds: [_MemoSlotKind]) {
        self.kinds = kinds
        let start = Self.elementsOffset
        var position = start + kinds.count * MemoryLayout<Int>.stride
        var offsets: [Int] = []
        for kind in kinds {
            let alignment = max(MemoryLayout<_MemoCellHeader>.alignment, kind.alignment)
            precondition(alignment <= 16, "a computed value's type may be aligned to at most 16 bytes")
            position = (position + alignment - 1) & ~(alignment - 1)
            offsets.append(position - start)
            position += kind.size
        }
        self.offsets = offsets
        words = (position - start + MemoryLayout<Int>.stride - 1) / MemoryLayout<Int>.stride
    }

    /// A table whose slots are all empty: each value is computed on its first read.
    func make() -> MemoTable {
        let slots = allocate()
        slots.withUnsafeMutablePointerToElements { words in
            let base = UnsafeMutableRawPointer(words)
            for (kind, offset) in zip(kinds, offsets) {
                kind.initializeEmpty(base + offset)
            }
        }
        return MemoTable(_slots: slots)
    }

    /// A copy of `source`, for a state copy about to write: each slot's value, version and
    /// recorded inputs, up to date where the source's is.
    func copy(_ source: _MemoSlots) -> _MemoSlots {
        let slots = allocate()
        source.withUnsafeMutablePointerToElements { from in
            slots.withUnsafeMutablePointerToElements { to in
                for (kind, offset) in zip(kinds, offsets) {
                    kind.initializeCopy(UnsafeMutableRawPointer(to) + offset, of: UnsafeMutableRawPointer(from) + offset)
                }
            }
        }
        return slots
    }

    /// Destroys every slot of a table being freed.
    func destroySlots(_ base: UnsafeMutableRawPointer) {
        for (kind, offset) in zip(kinds, offsets) {
            kind.destroy(base + offset)
        }
    }

    /// An allocation with the offsets written and the slots uninitialized.
    private func allocate() -> _MemoSlots {
        let buffer = _MemoSlots.create(minimumCapacity: words) { _ in self }
        let slots = unsafeDowncast(buffer, to: _MemoSlots.self)
        slots.withUnsafeMutablePointerToElements { words in
            for (index, offset) in offsets.enumerated() {
                (words + index).initialize(to: offset)
            }
        }
        return slots
    }

    /// Where a `_MemoSlots` object's elements start (the same for every table). Objects are
    /// allocated 16-byte aligned, so offsets from the object's start can be aligned up to 16.
    static let elementsOffset: Int = {
        let buffer = _MemoSlots.create(minimumCapacity: 1) { _ in _MemoLayout.empty }
        let slots = unsafeDowncast(buffer, to: _MemoSlots.self)
        return slots.withUnsafeMutablePointerToElements { words in
            UnsafeRawPointer(words) - UnsafeRawPointer(Unmanaged.passUnretained(slots).toOpaque())
        }
    }()

    /// A layout of no slots (the header of the allocation that measures `elementsOffset`).
    private static let empty = _MemoLayout(offsetsOnly: ())

    private init(offsetsOnly _: Void) {
        offsets = []
        kinds = []
        words = 0
    }
}

/// How to make, copy and destroy the slot of a value type (a `_TypedMemoSlotKind`), so that the
/// layout runs the same loop for every type.
class _MemoSlotKind: @unchecked Sendable {
    /// The slot's size and alignment: a header, then a `Value` at `_valueOffset`.
    let size: Int
    let alignment: Int

    init(size: Int, alignment: Int) {
        self.size = size
        self.alignment = alignment
    }

    func initializeEmpty(_ slot: UnsafeMutableRawPointer) { fatalError("abstract") }
    func initializeCopy(_ slot: UnsafeMutableRawPointer, of source: UnsafeMutableRawPointer) { fatalError("abstract") }
    func destroy(_ slot: UnsafeMutableRawPointer) { fatalError("abstract") }
}

/// The slot of a `Value`.
final class _TypedMemoSlotKind<Value>: _MemoSlotKind, @unchecked Sendable {
    init() {
        super.init(
            size: _MemoCellHeader._valueOffset(Value.self) + MemoryLayout<Value>.size,
            alignment: MemoryLayout<Value>.alignment
        )
    }

    override func initializeEmpty(_ slot: UnsafeMutableRawPointer) {
        let header = slot.bindMemory(to: _MemoCellHeader.self, capacity: 1)
        header.initialize(to: _MemoCellHeader(changedAt: VersionStamp(rawValue: 0), inputs: []))
    }

    override func initializeCopy(_ slot: UnsafeMutableRawPointer, of source: UnsafeMutableRawPointer) {
        let from = source.assumingMemoryBound(to: _MemoCellHeader.self)
        let to = slot.bindMemory(to: _MemoCellHeader.self, capacity: 1)
        while true {
            // Up to date: nobody writes it while this copy of the state shares the table.
            if cg_once_is_ready(from._once) {
                initialize(to, from: from, ready: true)
                return
            }
            // Stale: claim it so that nobody starts refreshing it while it is read, then give it
            // back untouched (a thread that began waiting meanwhile is woken and tries again).
            if cg_once_try_begin(from._once) {
                initialize(to, from: from, ready: false)
                cg_once_abandon(from._once)
                return
            }
            // Being refreshed by another thread: its result is worth keeping.
            _ = cg_once_wait(from._once)
        }
    }

    private func initialize(_ to: UnsafeMutablePointer<_MemoCellHeader>, from: UnsafeMutablePointer<_MemoCellHeader>, ready: Bool) {
        let hasValue = from._hasValue.pointee
        to.initialize(to: _MemoCellHeader(changedAt: from._changedAt.pointee, inputs: from._inputs.pointee, hasValue: hasValue))
        if hasValue {
            _MemoCellHeader._valuePointer(to, as: Value.self).initialize(to: _MemoCellHeader._valuePointer(from, as: Value.self).pointee)
        }
        if ready {
            cg_once_finish(to._once)
        }
    }

    override func destroy(_ slot: UnsafeMutableRawPointer) {
        let header = slot.assumingMemoryBound(to: _MemoCellHeader.self)
        if header._hasValue.pointee {
            _MemoCellHeader._valuePointer(header, as: Value.self).deinitialize(count: 1)
        }
        header.deinitialize(count: 1)
    }
}
