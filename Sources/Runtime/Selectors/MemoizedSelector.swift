// The memoized selector behind createSelector: the stamped value, its lock-free hit paths (a
// sequence counter for trivial values, each thread's own entry for the others) and its miss
// path. Its inputs' slots are in SelectorInputSlots.swift.

import CComputedAtomics

/// A value and its version stamp.
@usableFromInline
struct _Stamped<Value> {
    @usableFromInline var version: VersionStamp
    @usableFromInline var value: Value

    @inlinable
    init(version: VersionStamp, value: Value) {
        self.version = version
        self.value = value
    }
}

/// A memoized selector (or one per-argument entry of a parameterized selector): a cache of size
/// 1 keyed by the inputs' keys, a versioned output, computed under the lock.
///
/// ## The hit path
/// When every input is versioned (generated selectors and memoized selectors always are), a hit
/// reads the inputs' current stamps and compares them with the stamps the cached value was
/// computed from, which the box keeps in `words` beside the output's stamp:
///
/// - **Trivial (`_isPOD`) outputs** (`Int`, `Bool`, `Double`, enums without payloads, structs of
///   those): the value's bytes are kept in `words` too, and a hit takes no lock at all. `words` is
///   guarded by a sequence counter (`cg_seq_*`): a recomputation (under the lock) makes it odd,
///   rewrites the keys, the stamp and the value, and makes it even again; a hit reads the counter,
///   the keys and the value, and trusts them only when the counter was even and did not move. A
///   hit racing with a recomputation reads an inconsistent snapshot and discards it (then takes
///   the locked path): every word is read and written with relaxed atomics, so no read is torn,
///   and the bytes become an `Output` only after validation. Nothing is retained or released.
/// - **Other outputs** (arrays, strings, classes, anything holding a reference): copying the value
///   out retains its references, and a recomputation on another thread may release the very
///   storage being retained; without a reclamation scheme a reader of the shared value cannot
///   know that storage is still alive. So each thread keeps its own copy (`_ThreadSlots`): the
///   value and the keys it was computed for, written and read by that thread only. A hit compares
///   the inputs' stamps with the thread's keys and copies its value out: no lock, no atomic, no
///   allocation, only the retain of the value handed out. A thread whose entry is out of date
///   takes the lock for the comparison with the shared keys (the inputs' stamps read before
///   locking) and the copy, or recomputes, then refreshes its entry. An entry keeps its value
///   alive until its thread stores another one or the selector goes away.
///
/// Inputs that are not versioned (compared by `==`, or not at all) go through the slots, under
/// the lock, as a miss does. An input that is itself a memoized selector is asked for its
/// version by a closure made where its type is known, which calls its box's specialized code.
@usableFromInline
final class _MemoizedSelectorBox<Root, Output>: _SelectorStorage<Root, Output>, @unchecked Sendable {
    // Safety: `cached`, `cachedVersion`, the slots' mutable state and what `recompute` captures
    // are only accessed while `lock` is held. `words` is written only while `lock` is held, and
    // every word is accessed with atomics (the sequence counter protocol above). `versioned` is
    // immutable.
    @usableFromInline let lock: Lock
    @usableFromInline let slots: [_SlotBase<Root>]
    @usableFromInline let recompute: (Root) -> Output
    @usableFromInline let counter: RecomputationCounter
    @usableFromInline let total: RecomputationCounter?
    /// What a ``ChangeTrace`` calls the selector (`createSelector(…, name:)`, a spec's selector
    /// name), and the argument of a parameterized selector's entry.
    @usableFromInline let name: String?
    @usableFromInline let argument: (any Sendable)?
    @usableFromInline @exclusivity(unchecked) var cached: Output?
    @usableFromInline @exclusivity(unchecked) var cachedVersion: VersionStamp
    /// The slots, unretained (`slots` keeps them), when every input is versioned; `nil` otherwise.
    /// A hit reads each input's version through them without retaining anything.
    @usableFromInline let versioned: UnsafeMutablePointer<Unmanaged<_SlotBase<Root>>>?
    /// The number of inputs.
    @usableFromInline let inputCount: Int
    /// `[0]` the sequence counter (0 until the first publication, odd while publishing), `[1]` the
    /// cached value's stamp, `[2 ..< 2 + inputCount]` the inputs' stamps it was computed from,
    /// then, for a trivial `Output`, the value's bytes.
    @usableFromInline let words: UnsafeMutablePointer<UInt64>
    /// For an `Output` that is not trivial, with every input versioned: each thread's last value
    /// and the keys it was computed for (`words[1 ..< 2 + inputCount]`: the value's stamp, then
    /// the inputs' stamps), for lock-free hits.
    @usableFromInline let threadSlots: _ThreadSlots<Output>?

    @inlinable
    init(
        counter: RecomputationCounter,
        total: RecomputationCounter?,
        slots: [_SlotBase<Root>],
        name: String? = nil,
        argument: (any Sendable)? = nil,
        recompute: @escaping (Root) -> Output
    ) {
        lock = Lock()
        self.counter = counter
        self.total = total
        self.name = name
        self.argument = argument
        self.slots = slots
        self.recompute = recompute
        cached = nil
        cachedVersion = VersionStamp(rawValue: 0)
        inputCount = slots.count
        if slots.allSatisfy({ $0.versionOf != nil }) {
            let versioned = UnsafeMutablePointer<Unmanaged<_SlotBase<Root>>>.allocate(capacity: Swift.max(1, slots.count))
            for (index, slot) in slots.enumerated() {
                (versioned + index).initialize(to: .passUnretained(slot))
            }
            self.versioned = versioned
        } else {
            versioned = nil
        }
        let wordCount = 2 + slots.count + (_isPOD(Output.self) ? Self._valueWordCount : 0)
        words = .allocate(capacity: wordCount)
        words.initialize(repeating: 0, count: wordCount)
        threadSlots = versioned != nil && !_isPOD(Output.self) ? _ThreadSlots(keyCount: 1 + slots.count) : nil
        super.init(select: nil, version: nil, counter: counter, isMemo: true)
    }

    deinit {
        versioned?.deallocate()
        words.deallocate()
        threadSlots?.deallocate()
    }

    /// The number of words a trivial `Output`'s bytes take.
    @inlinable
    static var _valueWordCount: Int {
        (MemoryLayout<Output>.size + 7) / 8
    }

    /// The value and its stamp for the root at `root`: cached when every input's key is
    /// unchanged.
    ///
    /// Out of line (but specialized in the caller's module): the box is passed borrowed, and the
    /// caller's code stays small. The root is passed by address, so that a hit copies no part of
    /// it but the input stamps it reads.
    @inlinable
    @inline(never)
    func evaluate(at root: UnsafePointer<Root>) -> _Stamped<Output> {
        if let versioned {
            // `_isPOD` is a constant once specialized: one branch of the two is compiled.
            if _isPOD(Output.self) {
                if let hit = _lockFreeHit(root, versioned) { return hit }
            } else {
                if let hit = _threadHit(root, versioned, copiesValue: true) {
                    return _Stamped(version: hit.version, value: hit.value.unsafelyUnwrapped)
                }
                if let hit = _lockedHit(root, versioned, copiesValue: true) {
                    return _Stamped(version: hit.version, value: hit.value.unsafelyUnwrapped)
                }
            }
        }
        return _evaluateSlowly(at: root)
    }

    /// The stamp of the value for `root` (a hit copies no value).
    @inlinable
    @inline(__always)
    func version(_ root: Root) -> VersionStamp {
        withUnsafePointer(to: root) { version(at: $0) }
    }

    /// The stamp of the value for the root at `root` (a hit copies no value).
    @inlinable
    @inline(never)
    func version(at root: UnsafePointer<Root>) -> VersionStamp {
        if let versioned {
            if _isPOD(Output.self) {
                if let hit = _lockFreeHit(root, versioned) { return hit.version }
            } else if let hit = _threadHit(root, versioned, copiesValue: false) ?? _lockedHit(root, versioned, copiesValue: false) {
                return hit.version
            }
        }
        return _evaluateSlowly(at: root).version
    }

    /// The version of input `index` for `root`, without retaining its slot or what it holds.
    @inlinable
    @inline(__always)
    func _inputVersion(
        _ index: Int,
        _ root: UnsafePointer<Root>,
        _ versioned: UnsafeMutablePointer<Unmanaged<_SlotBase<Root>>>
    ) -> UInt64 {
        versioned[index]._withUnsafeGuaranteedRef { slot in
            // A stored stamp is read in place; calling `versionOf` copies the whole root into
            // the closure's argument, out of line so that the hit path's frame stays small.
            slot.versionOffset >= 0
                ? _stamp(in: UnsafeRawPointer(root), at: slot.versionOffset)
                : Self._currentVersion(of: slot, root)
        }.rawValue
    }

    /// The version of an input whose stamp is not stored in the root: its closure's.
    @inlinable
    @inline(never)
    static func _currentVersion(of slot: _SlotBase<Root>, _ root: UnsafePointer<Root>) -> VersionStamp {
        slot.currentVersion(root.pointee)
    }

    /// The lock-free hit of a trivial `Output` (see the type's documentation); `nil` when an input
    /// changed, nothing was published yet, or a recomputation raced with this read.
    @inlinable
    @inline(__always)
    func _lockFreeHit(_ root: UnsafePointer<Root>, _ versioned: UnsafeMutablePointer<Unmanaged<_SlotBase<Root>>>) -> _Stamped<Output>? {
        let begin = cg_seq_read_begin(words)
        if begin == 0 || begin & 1 != 0 { return nil }
        for index in 0..<inputCount where _inputVersion(index, root, versioned) != cg_atomic_u64_load(words + 2 + index) {
            return nil
        }
        let version = VersionStamp(rawValue: cg_atomic_u64_load(words + 1))
        let source = words + 2 + inputCount
        let valueWords = Self._valueWordCount
        // Unprotected: the buffer is written only within its bounds, and a stack protector would
        // give every hit its own check (the stack canary's load, store and compare).
        return _withUnprotectedUnsafeTemporaryAllocation(of: UInt64.self, capacity: Swift.max(1, valueWords)) { buffer in
            let copy = buffer.baseAddress.unsafelyUnwrapped
            for index in 0..<valueWords {
                copy[index] = cg_atomic_u64_load(source + index)
            }
            // Only a validated snapshot becomes an `Output`: torn bytes are never a value.
            guard cg_seq_read_validate(words, begin) else { return nil }
            return _Stamped(version: version, value: UnsafeRawPointer(copy).loadUnaligned(as: Output.self))
        }
    }

    /// The lock-free hit of any other `Output`, from the calling thread's own entry (see
    /// `_ThreadSlots`): its keys compared with the inputs' stamps, then its value copied out
    /// (`nil` unless `copiesValue`). `nil` when the thread has no entry or an input moved.
    @inlinable
    @inline(__always)
    func _threadHit(
        _ root: UnsafePointer<Root>,
        _ versioned: UnsafeMutablePointer<Unmanaged<_SlotBase<Root>>>,
        copiesValue: Bool
    ) -> (version: VersionStamp, value: Output?)? {
        guard let threadSlots, let entry = threadSlots.entry() else { return nil }
        let keys = threadSlots.keys(of: entry)
        for index in 0..<inputCount where _inputVersion(index, root, versioned) != keys[1 + index] {
            return nil
        }
        return (VersionStamp(rawValue: keys[0]), copiesValue ? threadSlots.value(of: entry) : nil)
    }

    /// Under the lock, with the value published: stores it in the calling thread's entry, with
    /// its stamp and its inputs' (for its next hit without the lock).
    @inlinable
    func _storeInThreadSlot(_ value: Output) {
        threadSlots?.store(keys: words + 1, value: value)
    }

    /// The hit of any other `Output`: the inputs' stamps read first, then the lock held for the
    /// comparison and the copy of the value (`nil` unless `copiesValue`).
    @inlinable
    @inline(never)
    func _lockedHit(
        _ root: UnsafePointer<Root>,
        _ versioned: UnsafeMutablePointer<Unmanaged<_SlotBase<Root>>>,
        copiesValue: Bool
    ) -> (version: VersionStamp, value: Output?)? {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Swift.max(1, inputCount)) { buffer in
            let current = buffer.baseAddress.unsafelyUnwrapped
            for index in 0..<inputCount {
                current[index] = _inputVersion(index, root, versioned)
            }
            lock.lock()
            defer { lock.unlock() }
            guard let cached else { return nil }
            for index in 0..<inputCount where current[index] != cg_atomic_u64_load(words + 2 + index) {
                return nil
            }
            _storeInThreadSlot(cached)
            return (cachedVersion, copiesValue ? cached : nil)
        }
    }

    /// The miss path, given the root's address: the root is copied here, so that the hit paths
    /// keep no stack frame for it (nor the stack protector a frame of that size brings).
    @inlinable
    @inline(never)
    func _evaluateSlowly(at root: UnsafePointer<Root>) -> _Stamped<Output> {
        _evaluateSlowly(root.pointee)
    }

    /// Miss path (and the path of unversioned inputs): stages every input's key under the lock,
    /// returns the cached value when none changed, otherwise recomputes and publishes.
    @inlinable
    @inline(never)
    func _evaluateSlowly(_ root: Root) -> _Stamped<Output> {
        lock.lock()
        defer { lock.unlock() }
        // While a change trace records: when the refresh started, and the inputs that moved.
        let traced = _slowPath(cg_change_trace_active()) ? _SelectorTraceFrame(self) : nil
        var unchanged = true
        var position = 0
        for slot in slots {
            // Stage every slot (no early exit): a miss needs all keys to commit them.
            if !slot.stage(root) {
                unchanged = false
                traced?.moved(position, slot)
            }
            position += 1
        }
        if unchanged, let cached {
            for slot in slots {
                slot.discard()
            }
            if versioned != nil { _storeInThreadSlot(cached) }
            traced?.deliver(self, recomputed: false, version: cachedVersion)
            return _Stamped(version: cachedVersion, value: cached)
        }
        counter.increment()
        total?.increment()
        traced?.isFirst = cached == nil
        let output = recompute(root)
        defer { traced?.deliver(self, recomputed: true, version: cachedVersion) }
        for slot in slots {
            slot.commit()
        }
        cached = output
        cachedVersion = .next()
        if versioned != nil {
            _publish(output)
            _storeInThreadSlot(output)
        }
        return _Stamped(version: cachedVersion, value: output)
    }

    /// Publishes the keys, the stamp and (for a trivial `Output`) the value of the last
    /// recomputation in `words`, for the hit paths. Under the lock.
    @inlinable
    func _publish(_ output: Output) {
        cg_seq_write_begin(words)
        cg_atomic_u64_store(words + 1, cachedVersion.rawValue)
        for (index, slot) in slots.enumerated() {
            cg_atomic_u64_store(words + 2 + index, slot.lastVersion.rawValue)
        }
        if _isPOD(Output.self) {
            let valueWords = Self._valueWordCount
            let destination = words + 2 + inputCount
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Swift.max(1, valueWords)) { buffer in
                let copy = buffer.baseAddress.unsafelyUnwrapped
                copy.initialize(repeating: 0, count: valueWords)
                withUnsafeBytes(of: output) { bytes in
                    if let base = bytes.baseAddress {
                        UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count)
                    }
                }
                for index in 0..<valueWords {
                    cg_atomic_u64_store(destination + index, copy[index])
                }
            }
        }
        cg_seq_write_end(words)
    }
}
