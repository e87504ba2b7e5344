import CComputedAtomics

/// The recomputations one task made inside a ``RecomputationCounter/counting(_:)`` scope, per
/// counter: what tests running in parallel can assert on without seeing each other's work.
///
/// Read it by selector (`counts[TodoState.Selectors.visibleTodos]`, `counts[byOwner]` for all
/// arguments of a parameterized selector, `counts[byOwner(3)]` for one) or by counter. It counts
/// the recomputations run by the task that opened the scope and by the tasks that inherit its
/// task-local values (`async let`, task groups, `Task { }`) until the scope returns; not those of
/// `Task.detached`, other threads (`DispatchQueue`, `Thread`) or other tests. A value that several
/// tasks ask for at once is computed once, by one of them, and counted there. Scopes nest: a
/// recomputation counts in every open scope of the task.
public final class RecomputationCounts: @unchecked Sendable {
    // Safety: `counts` and `isOpen` are only accessed while `lock` is held; `parent` is immutable.
    private let lock = Lock.make()
    private var counts: [ObjectIdentifier: (counter: RecomputationCounter, count: Int)] = [:]
    private var isOpen = true
    let parent: RecomputationCounts?

    init(parent: RecomputationCounts?) {
        self.parent = parent
    }

    /// The recomputations counted by `counter` in this scope.
    public subscript(counter: RecomputationCounter) -> Int {
        lock.withLock { counts[ObjectIdentifier(counter)]?.count ?? 0 }
    }

    /// The recomputations of `selector` in this scope (0 for a selector without a counter, made
    /// with ``StateSelector/init(_:)``).
    public subscript<Root, Value>(selector: StateSelector<Root, Value>) -> Int {
        selector._counter.map { self[$0] } ?? 0
    }

    /// The recomputations of `selector` in this scope, over all its arguments.
    public subscript<Root, Argument, Value>(selector: ParameterizedSelector<Root, Argument, Value>) -> Int {
        self[selector._cache.total]
    }

    /// Every recomputation counted in this scope, whatever its counter. (A parameterized
    /// selector's recomputation counts twice: for its argument and for its total.)
    public var total: Int {
        lock.withLock { counts.values.reduce(0) { $0 + $1.count } }
    }

    func add(_ counter: RecomputationCounter) {
        lock.withLock {
            guard isOpen else { return }
            counts[ObjectIdentifier(counter), default: (counter, 0)].count += 1
        }
    }

    func close() {
        lock.withLock { isOpen = false }
    }
}

extension RecomputationCounter {
    /// The innermost open scope of the current task.
    @TaskLocal static var _scope: RecomputationCounts?

    /// Adds one to every scope open in the current task: the slow path of ``increment()``, taken
    /// only while some scope is open in the process.
    @usableFromInline
    func _countInScopes() {
        var scope = Self._scope
        while let current = scope {
            current.add(self)
            scope = current.parent
        }
    }

    /// Runs `body` with a fresh ``RecomputationCounts`` that counts the recomputations the current
    /// task (and its child tasks) make until `body` returns, and returns what `body` returns.
    ///
    /// The per-counter numbers (``StateSelector/recomputations``) keep counting for the whole
    /// process; use this in tests that run in parallel:
    ///
    /// ```swift
    /// @Test func filterRecomputesOnce() {
    ///     RecomputationCounter.counting { counts in
    ///         var state = TodoState()
    ///         _ = state.computed.visibleTodos
    ///         state.filter = .done
    ///         _ = state.computed.visibleTodos
    ///         #expect(counts[TodoState.Selectors.visibleTodos] == 2)
    ///     }
    /// }
    /// ```
    ///
    /// While no scope is open anywhere in the process, a recomputation pays one relaxed atomic
    /// load for this feature; cache hits pay nothing.
    public static func counting<Result>(_ body: (RecomputationCounts) throws -> Result) rethrows -> Result {
        let counts = open()
        defer { close(counts) }
        return try $_scope.withValue(counts) { try body(counts) }
    }

    /// Runs the asynchronous `body` with a fresh ``RecomputationCounts`` that counts the
    /// recomputations the current task and its child tasks make until `body` returns (see
    /// ``counting(_:)``).
    public static func counting<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (RecomputationCounts) async throws -> Result
    ) async rethrows -> Result {
        let counts = open()
        defer { close(counts) }
        return try await $_scope.withValue(counts) { try await body(counts) }
    }

    private static func open() -> RecomputationCounts {
        cg_recomputation_scopes_add(1)
        return RecomputationCounts(parent: _scope)
    }

    private static func close(_ counts: RecomputationCounts) {
        counts.close()
        cg_recomputation_scopes_add(-1)
    }
}
