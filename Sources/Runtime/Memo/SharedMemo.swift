import CComputedAtomics

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
/// The hit path takes no lock: the cached value can be replaced while copies share the cell, so
/// each thread reads its own entry (the value, the cell's generation and the shared stamps it was
/// computed for; see `_ThreadSlots`), compares it with the cell's generation and the shared
/// inputs' current stamps, and copies the value out. A thread whose entry is out of date takes
/// the cell's lock, as a miss does, and then refreshes its entry. The hit is inlined into the
/// state's module, specialized for the value's type. Concurrent misses may compute more than
/// once; the last one to finish is kept, with the stamps it read before computing, so a value is
/// never kept for stamps newer than the inputs it was computed from (at worst a later read
/// recomputes).
public struct SharedMemo<Value> {
    @usableFromInline
    var _cell: SharedMemoCell<Value>

    /// Creates an empty cell for inputs at `version`. `traceName` is what a ``ChangeTrace``
    /// reports the value by: the state's type name, the value's name and its `@Shared` inputs in
    /// the order they are recorded, `"AppState.greeting(session, settings)"`.
    public init(version: VersionStamp, traceName: StaticString = "") {
        _cell = SharedMemoCell(version: version, traceName: traceName)
    }

    /// The version of the state's own inputs this cell caches for.
    public var version: VersionStamp {
        _cell.version
    }

    /// The cached value when it was computed for the shared inputs' current stamps (recorded by
    /// `sharedInputs`, in the same order on every call); otherwise computes, caches and returns a
    /// new one.
    @inlinable
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
            _cell = SharedMemoCell(version: version, traceName: _cell.traceName)
        }
    }
}

extension SharedMemo: @unchecked Sendable where Value: Sendable {}
// Safety: the cell's mutable state is reached only under its lock, or by a unique owner.

/// Storage of a ``SharedMemo``.
///
/// Its mutable properties are reached only under `lock` (or by a unique owner), so they are not
/// checked for exclusive access at run time (a check per access cost more than the hit itself).
/// `generation` is written under the lock and read without it; each thread's entry in
/// `threadSlots` only by that thread.
@usableFromInline
final class SharedMemoCell<Value>: @unchecked Sendable {
    @usableFromInline let lock = Lock.make()
    @usableFromInline @exclusivity(unchecked) private(set) var version: VersionStamp
    /// The shared inputs' stamps `cached` was computed from.
    @usableFromInline @exclusivity(unchecked) var keys: [VersionStamp] = []
    /// The value last computed; kept while stale, to compare the next one with.
    @usableFromInline @exclusivity(unchecked) var cached: Value?
    /// Whether the state's own inputs changed since `cached` was computed.
    @usableFromInline @exclusivity(unchecked) var isStale = false
    /// The stamp taken when the value last changed (after cutoff: recomputed to a value `==` to
    /// the previous one, it keeps its stamp): the version a store's observers compare.
    @exclusivity(unchecked) private var changedAtStamp: VersionStamp
    /// Moves (under the lock) whenever `cached` or `keys` change or the cell goes stale, so that a
    /// thread's entry made at the same generation holds the cell's value; never 0.
    @usableFromInline let generation: UnsafeMutablePointer<UInt64>
    /// Each thread's last value, with the shared stamps it was computed for; keyed by the
    /// generation it was copied at.
    @usableFromInline let threadSlots = _ThreadSlots<_SharedMemoEntry<Value>>(keyCount: 1)
    /// What a change trace reports the value by (see ``SharedMemo/init(version:traceName:)``).
    let traceName: StaticString

    init(version: VersionStamp, traceName: StaticString = "") {
        self.traceName = traceName
        self.version = version
        changedAtStamp = version
        generation = .allocate(capacity: 1)
        generation.initialize(to: 1)
    }

    deinit {
        threadSlots.deallocate()
        generation.deallocate()
    }

    /// The stamp taken when the value last changed. Read after bringing the value up to date.
    var changedAt: VersionStamp {
        lock.withLock { changedAtStamp }
    }

    /// The hit path, without a lock: the calling thread's entry, when it was made at the cell's
    /// current generation and the shared inputs' stamps (recorded over the entry's, in place: no
    /// copy, no allocation) are the ones it was computed for. Otherwise the locked path.
    @inlinable
    func value(sharedInputs record: (inout MemoInputs) -> Void, compute: () -> Value) -> Value {
        if let entry = threadSlots.entry(),
            threadSlots.keys(of: entry).pointee == cg_atomic_u64_load(generation)
        {
            let stored = threadSlots.valuePointer(of: entry)
            var inputs = MemoInputs([])
            swap(&inputs._versions, &stored.pointee.keys)
            record(&inputs)
            let changed = inputs.changed
            swap(&inputs._versions, &stored.pointee.keys)
            if !changed {
                return stored.pointee.value
            }
        }
        return _lockedValue(sharedInputs: record, compute: compute)
    }

    /// Under the lock, the shared inputs' stamps are recorded over the ones the cached value was
    /// computed from; a hit refreshes the thread's entry, a miss computes.
    @inlinable
    @inline(never)
    func _lockedValue(sharedInputs record: (inout MemoInputs) -> Void, compute: () -> Value) -> Value {
        var inputs = MemoInputs([])
        lock.lock()
        // A change trace compares the stamps the value was computed for with the new ones.
        let previousKeys: [VersionStamp]? = _slowPath(cg_change_trace_active()) ? keys : nil
        swap(&inputs._versions, &keys)
        record(&inputs)
        if !isStale, !inputs.changed, let cached {
            swap(&inputs._versions, &keys)
            _storeInThreadSlot(cached)
            lock.unlock()
            return cached
        }
        // Miss: the keys now hold the current stamps, which go with the value computed next;
        // the cell's keys stay empty meanwhile, so a concurrent read misses too.
        inputs._dropUnrecorded()
        cg_atomic_u64_store(generation, generation.pointee &+ 1)
        lock.unlock()
        return _computeAndStore(inputs._versions, previousKeys: previousKeys, compute)
    }

    /// The miss path: computes, then keeps the value with the stamps read before computing,
    /// and a new stamp unless the value is equal to the previous one.
    @usableFromInline
    func _computeAndStore(_ keys: [VersionStamp], previousKeys: [VersionStamp]? = nil, _ compute: () -> Value) -> Value {
        let traced = _slowPath(cg_change_trace_active()) ? _SharedMemoTrace(traceName, previousKeys: previousKeys ?? []) : nil
        let value = compute()
        lock.withLock {
            traced?.found(isStale: isStale, version: version, hadValue: cached != nil)
            self.keys = keys
            if let cached, _DynamicEquality<Value>().isEqual(cached, value) == true {
                // Early cutoff: the same value keeps its stamp.
                traced?.cutOff = true
            } else {
                changedAtStamp = VersionStamp.next()
            }
            cached = value
            isStale = false
            cg_atomic_u64_store(generation, generation.pointee &+ 1)
            _storeInThreadSlot(value)
            traced?.deliver(keys: keys, version: changedAtStamp)
        }
        return value
    }

    /// Under the lock: the calling thread's entry takes `value`, the cell's keys and generation.
    @usableFromInline
    func _storeInThreadSlot(_ value: Value) {
        var generationKey = generation.pointee
        threadSlots.store(keys: &generationKey, value: _SharedMemoEntry(keys: keys, value: value))
    }

    /// Marks the cell stale; only for the unique owner.
    func reset(version: VersionStamp) {
        lock.withLock {
            self.version = version
            keys.removeAll(keepingCapacity: true)
            isStale = true
            cg_atomic_u64_store(generation, generation.pointee &+ 1)
        }
    }
}

/// A thread's entry in a ``SharedMemoCell``: the value it last handed out and the shared inputs'
/// stamps that value was computed for.
@usableFromInline
struct _SharedMemoEntry<Value> {
    @usableFromInline var keys: [VersionStamp]
    @usableFromInline var value: Value

    @usableFromInline
    init(keys: [VersionStamp], value: Value) {
        self.keys = keys
        self.value = value
    }
}
