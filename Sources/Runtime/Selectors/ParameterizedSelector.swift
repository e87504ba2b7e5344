import CComputedAtomics

/// A family of memoized selectors, one per argument, kept in a bounded LRU cache.
///
/// Made by ``createParameterizedSelector(_:capacity:name:transform:)``. `selector(argument)` returns
/// the memoized ``StateSelector`` for that argument (creating it on first use), so
/// `todos(ownedBy: 3)(state)` recomputes only when the inputs changed since the last call *for
/// owner 3*.
///
/// - The cache holds at most ``capacity`` arguments (``defaultCapacity``, 256, unless given). Using
///   an argument makes it the most recently used; adding one beyond capacity evicts the least
///   recently used, whose memo is dropped (a later use recomputes). Selectors already returned
///   for an evicted argument keep working with their own memo.
/// - Lookup, hit and eviction are O(1): a dictionary from argument to slot index plus an intrusive
///   doubly linked list over array indices. A hit allocates nothing.
/// - Thread-safe: one lock guards the LRU; each argument's memo has its own lock, as in
///   ``createSelector(_:memoized:name:transform:)`` (transform runs under it). A thread that asks
///   for the same argument again finds it without the lock, in its own last-argument slot (see
///   `_ThreadSlots`), and its hit is lock-free as a memoized selector's.
public struct ParameterizedSelector<Root, Argument: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    let _cache: _ParameterCache<Root, Argument, Value>

    @inlinable
    init(_cache: _ParameterCache<Root, Argument, Value>) {
        self._cache = _cache
    }

    /// The capacity used when none is given: 256 arguments.
    public static var defaultCapacity: Int {
        256
    }

    /// The maximum number of arguments whose memo is kept.
    public var capacity: Int {
        _cache.capacity
    }

    /// The number of arguments currently cached (at most ``capacity``).
    public var count: Int {
        _cache.count
    }

    /// The memoized selector for `argument`; marks `argument` as most recently used.
    ///
    /// The calling thread's last argument again: no lock, one `==`. Another cached argument:
    /// the LRU lock, one dictionary lookup and an O(1) relink. Neither allocates.
    @inlinable
    public func callAsFunction(_ argument: Argument) -> StateSelector<Root, Value> {
        StateSelector(_memo: _cache.entry(for: argument))
    }

    /// Recomputations over all arguments (including evicted ones) since creation or the last
    /// ``resetRecomputations()``. Each per-argument selector also reports its own count.
    public var recomputations: Int {
        _cache.total.count
    }

    /// Resets ``recomputations`` to zero (per-argument counts are left alone).
    public func resetRecomputations() {
        _cache.total.reset()
    }

    /// Drops every cached argument and its memo.
    public func removeAll() {
        _cache.removeAll()
    }
}

/// Creates a family of memoized selectors parameterized by an argument, cached per argument in a
/// bounded LRU (see ``ParameterizedSelector``).
///
/// ```swift
/// let ownedBy = createParameterizedSelector(todos) { (owner: Int, todos: [Todo]) in
///     todos.filter { $0.owner == owner }
/// }
/// ownedBy(3)(state)   // memoized for owner 3
/// ```
///
/// Each argument's selector memoizes on its inputs' keys exactly as
/// ``createSelector(_:memoized:name:transform:)`` does, and its result is versioned.
///
/// - Parameters:
///   - input: The selectors whose values the transform reads, after the argument.
///   - capacity: The maximum number of arguments kept; must be at least 1.
///   - name: What a ``ChangeTrace`` calls the selector (`"todos(ownedBy:)"`); each argument's
///     recomputations are reported as `todos(ownedBy:) for 3`.
///   - transform: Computes the value from the argument and the inputs' values.
@inlinable
public func createParameterizedSelector<Root, Argument: Hashable & Sendable, each Input: Sendable, Output: Sendable>(
    _ input: repeat StateSelector<Root, each Input>,
    capacity: Int = ParameterizedSelector<Root, Argument, Output>.defaultCapacity,
    name: String? = nil,
    transform: @escaping @Sendable (Argument, repeat each Input) -> Output
) -> ParameterizedSelector<Root, Argument, Output> {
    precondition(capacity >= 1, "ParameterizedSelector capacity must be at least 1, got \(capacity)")
    let inputs = (repeat each input)
    let total = RecomputationCounter()
    let cache = _ParameterCache<Root, Argument, Output>(capacity: capacity, total: total, name: name) { argument in
        let slots = (repeat _InputSlot(each inputs))
        var erased: [_SlotBase<Root>] = []
        for slot in repeat each slots {
            erased.append(slot)
        }
        return _MemoizedSelectorBox<Root, Output>(
            counter: RecomputationCounter(),
            total: total,
            slots: erased,
            name: name,
            argument: argument,
            recompute: { root in transform(argument, repeat (each slots).take(root)) }
        )
    }
    return ParameterizedSelector(_cache: cache)
}

/// The LRU cache behind ``ParameterizedSelector``.
@usableFromInline
final class _ParameterCache<Root, Argument: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    // Safety: every mutable property is only accessed while `lock` is held; `makeEntry` only
    // captures `Sendable` values (input selectors, a `@Sendable` transform, a counter).

    @usableFromInline
    struct Node {
        @usableFromInline var argument: Argument
        @usableFromInline var box: _MemoizedSelectorBox<Root, Value>
        /// Index of the more recently used neighbour, or -1.
        @usableFromInline var previous: Int
        /// Index of the less recently used neighbour, or -1.
        @usableFromInline var next: Int

        @inlinable
        init(argument: Argument, box: _MemoizedSelectorBox<Root, Value>, previous: Int, next: Int) {
            self.argument = argument
            self.box = box
            self.previous = previous
            self.next = next
        }
    }

    @usableFromInline let lock: Lock
    @usableFromInline let capacity: Int
    @usableFromInline let total: RecomputationCounter
    @usableFromInline let makeEntry: (Argument) -> _MemoizedSelectorBox<Root, Value>
    /// What a change trace calls the selector.
    @usableFromInline let name: String?
    @usableFromInline @exclusivity(unchecked) var indices: [Argument: Int]
    @usableFromInline @exclusivity(unchecked) var nodes: [Node]
    /// Most recently used node, or -1.
    @usableFromInline @exclusivity(unchecked) var head: Int
    /// Least recently used node, or -1.
    @usableFromInline @exclusivity(unchecked) var tail: Int
    /// Each thread's last argument and its entry, valid while their generation (the entry's one
    /// key) is `generation`: a repeated argument is found without the lock.
    @usableFromInline let threadSlots: _ThreadSlots<(argument: Argument, box: _MemoizedSelectorBox<Root, Value>)>
    /// Moves (under the lock) whenever an entry is dropped, so that no thread's slot hands it out
    /// afterwards. Never 0; read with a relaxed atomic load.
    @usableFromInline let generation: UnsafeMutablePointer<UInt64>

    @inlinable
    init(
        capacity: Int,
        total: RecomputationCounter,
        name: String? = nil,
        makeEntry: @escaping (Argument) -> _MemoizedSelectorBox<Root, Value>
    ) {
        lock = Lock()
        self.name = name
        head = -1
        tail = -1
        self.capacity = capacity
        self.total = total
        self.makeEntry = makeEntry
        let reserved = min(capacity, 1024)
        indices = Dictionary(minimumCapacity: reserved)
        nodes = []
        nodes.reserveCapacity(reserved)
        threadSlots = _ThreadSlots(keyCount: 1)
        generation = .allocate(capacity: 1)
        generation.initialize(to: 1)
    }

    deinit {
        threadSlots.deallocate()
        generation.deallocate()
    }

    var count: Int {
        lock.withLock { nodes.count }
    }

    /// The entry for `argument`, made most recently used; created (evicting the least recently
    /// used entry when full) on a miss.
    ///
    /// The calling thread's last argument is found without the lock (and is not made most
    /// recently used again: it was when the thread last took the lock for it).
    @inlinable
    func entry(for argument: Argument) -> _MemoizedSelectorBox<Root, Value> {
        if let entry = threadSlots.entry(), threadSlots.keys(of: entry)[0] == cg_atomic_u64_load(generation) {
            let last = (entry + threadSlots.valueOffset).assumingMemoryBound(to: (argument: Argument, box: _MemoizedSelectorBox<Root, Value>).self)
            if last.pointee.argument == argument { return last.pointee.box }
        }
        lock.lock()
        defer { lock.unlock() }
        let box = lockedEntry(for: argument)
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 1) { keys in
            keys[0] = generation.pointee
            threadSlots.store(keys: UnsafePointer(keys.baseAddress!), value: (argument, box))
        }
        return box
    }

    /// ``entry(for:)`` under the lock.
    @inlinable
    func lockedEntry(for argument: Argument) -> _MemoizedSelectorBox<Root, Value> {
        if let index = indices[argument] {
            if index != head {
                unlink(index)
                linkAtHead(index)
            }
            return nodes[index].box
        }
        let box = makeEntry(argument)
        let index: Int
        if nodes.count < capacity {
            index = nodes.count
            nodes.append(Node(argument: argument, box: box, previous: -1, next: -1))
            if _slowPath(cg_change_trace_active()) { _traceMiss(argument, evicted: nil) }
        } else {
            index = tail
            unlink(index)
            if _slowPath(cg_change_trace_active()) { _traceMiss(argument, evicted: nodes[index].argument) }
            indices.removeValue(forKey: nodes[index].argument)
            cg_atomic_u64_store(generation, generation.pointee + 1)
            nodes[index] = Node(argument: argument, box: box, previous: -1, next: -1)
        }
        linkAtHead(index)
        indices[argument] = index
        return box
    }

    func removeAll() {
        lock.withLock {
            cg_atomic_u64_store(generation, generation.pointee + 1)
            indices.removeAll(keepingCapacity: true)
            nodes.removeAll(keepingCapacity: true)
            head = -1
            tail = -1
        }
    }

    /// The cached arguments, most recently used first (for tests).
    var argumentsByRecency: [Argument] {
        lock.withLock {
            var result: [Argument] = []
            var index = head
            while index != -1 {
                result.append(nodes[index].argument)
                index = nodes[index].next
            }
            return result
        }
    }

    @inlinable
    func unlink(_ index: Int) {
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous != -1 {
            nodes[previous].next = next
        } else {
            head = next
        }
        if next != -1 {
            nodes[next].previous = previous
        } else {
            tail = previous
        }
        nodes[index].previous = -1
        nodes[index].next = -1
    }

    @inlinable
    func linkAtHead(_ index: Int) {
        nodes[index].previous = -1
        nodes[index].next = head
        if head != -1 {
            nodes[head].previous = index
        } else {
            tail = index
        }
        head = index
    }
}

extension ParameterizedSelector {
    /// The cached arguments, most recently used first (for tests).
    var _argumentsByRecency: [Argument] {
        _cache.argumentsByRecency
    }
}
