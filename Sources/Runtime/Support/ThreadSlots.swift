import CComputedAtomics

/// A cache entry per thread: the keys a value was computed for, and the value. What makes the
/// hits of caches of any value type lock-free.
///
/// A cache whose value holds references (a `String`, an array) cannot hand out its shared value
/// without a lock: a reader copying it out retains its storage, which a recomputation on another
/// thread may be releasing at that moment, and nothing tells a lock-free reader that the storage
/// is still alive. So each thread keeps its own entry instead, written and read by that thread
/// only (see `cg_thread_slot`): a hit compares the keys and copies the value out of the calling
/// thread's entry, with no lock, no atomic operation and no allocation; the only cost is the
/// retain of the value handed out. A miss, or a thread whose entry holds other keys, takes the
/// cache's locked path and then stores what it got in its own entry.
///
/// Each entry keeps its value alive until its thread stores another one or the cache goes away:
/// at most one extra reference per thread (up to `CG_THREAD_SLOTS` threads; others always take
/// the locked path). Keys are 64-bit words (version stamps, a generation); an entry whose first
/// key is 0 holds nothing. Owned by one cache object, which calls ``deallocate()`` in its `deinit`.
@usableFromInline
struct _ThreadSlots<Value> {
    /// `CG_THREAD_SLOTS` entries, each `nil` until its thread stores into it.
    @usableFromInline let entries: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    @usableFromInline let keyCount: Int

    @inlinable
    init(keyCount: Int) {
        self.keyCount = keyCount
        entries = .allocate(capacity: Int(CG_THREAD_SLOTS))
        entries.initialize(repeating: nil, count: Int(CG_THREAD_SLOTS))
    }

    /// The byte offset of the value in an entry, after its keys.
    @inlinable
    var valueOffset: Int {
        let keysEnd = keyCount * 8
        let alignment = MemoryLayout<Value>.alignment
        return (keysEnd + alignment - 1) / alignment * alignment
    }

    /// The calling thread's entry, when it has one that holds a value.
    @inlinable
    @inline(__always)
    func entry() -> UnsafeMutableRawPointer? {
        let slot = Int(cg_thread_slot())
        guard slot < Int(CG_THREAD_SLOTS), let entry = entries[slot] else { return nil }
        return entry.load(as: UInt64.self) == 0 ? nil : entry
    }

    /// The keys of an entry.
    @inlinable
    @inline(__always)
    func keys(of entry: UnsafeMutableRawPointer) -> UnsafeMutablePointer<UInt64> {
        entry.assumingMemoryBound(to: UInt64.self)
    }

    /// The value of an entry, copied out (the retain of the value handed out).
    @inlinable
    @inline(__always)
    func value(of entry: UnsafeMutableRawPointer) -> Value {
        valuePointer(of: entry).pointee
    }

    /// The value of an entry, in place (for a value the thread updates in its entry).
    @inlinable
    @inline(__always)
    func valuePointer(of entry: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Value> {
        (entry + valueOffset).assumingMemoryBound(to: Value.self)
    }

    /// Stores `value` for `keys` (`keyCount` words, the first one not 0) in the calling thread's
    /// entry; does nothing for a thread without a slot.
    @usableFromInline
    func store(keys: UnsafePointer<UInt64>, value: Value) {
        let slot = Int(cg_thread_slot())
        guard slot < Int(CG_THREAD_SLOTS) else { return }
        let entry: UnsafeMutableRawPointer
        if let existing = entries[slot] {
            entry = existing
            if entry.load(as: UInt64.self) != 0 {
                valuePointer(of: entry).pointee = value
            } else {
                valuePointer(of: entry).initialize(to: value)
            }
        } else {
            entry = .allocate(byteCount: valueOffset + MemoryLayout<Value>.stride, alignment: Swift.max(8, MemoryLayout<Value>.alignment))
            (entry + valueOffset).initializeMemory(as: Value.self, to: value)
            entries[slot] = entry
        }
        self.keys(of: entry).update(from: keys, count: keyCount)
    }

    /// Frees every entry; only when no thread can use the cache any more.
    @usableFromInline
    func deallocate() {
        for slot in 0..<Int(CG_THREAD_SLOTS) {
            guard let entry = entries[slot] else { continue }
            if entry.load(as: UInt64.self) != 0 {
                valuePointer(of: entry).deinitialize(count: 1)
            }
            entry.deallocate()
        }
        entries.deallocate()
    }
}
