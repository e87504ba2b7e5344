import CComputedAtomics

/// A thread-safe counter of recomputations, for tests and diagnostics (as Reselect's
/// `recomputations()`).
///
/// Memoized selectors and generated memo cells increment it each time they actually run their
/// transform; cache hits leave it untouched. All operations are relaxed atomics: the count is
/// exact, but reading it gives no ordering guarantee about other memory.
///
/// A counter is **per process**: a selector's counter (``StateSelector/recomputations``,
/// `TodoState.Selectors.visibleTodos.recomputations`) counts what every thread and every test
/// running at the same time recomputed. Tests that run in parallel (Swift Testing's default)
/// should count inside ``counting(_:)``, which sees only what the current task and its child
/// tasks recomputed:
///
/// ```swift
/// @Test func visibleCountIsCached() {
///     RecomputationCounter.counting { counts in
///         var state = TodoState()
///         _ = state.computed.visibleCount
///         _ = state.computed.visibleCount
///         #expect(counts[TodoState.Selectors.visibleCount] == 1)
///     }
/// }
/// ```
public final class RecomputationCounter: @unchecked Sendable {
    // Safety: the storage is only accessed through the atomic functions of CComputedAtomics.
    @usableFromInline
    let _storage: UnsafeMutablePointer<Int64>

    /// Creates a counter at zero.
    public init() {
        _storage = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
        _storage.initialize(to: 0)
    }

    deinit {
        _storage.deinitialize(count: 1)
        _storage.deallocate()
    }

    /// The number of recomputations counted since creation or the last ``reset()``.
    public var count: Int {
        Int(cg_atomic_i64_load(_storage))
    }

    /// Counts one recomputation: one relaxed atomic add, plus one relaxed load that finds no
    /// ``counting(_:)`` scope open anywhere in the process (otherwise the count also goes to the
    /// current task's scopes).
    @inlinable
    public func increment() {
        _ = cg_atomic_i64_add(_storage, 1)
        if _slowPath(cg_recomputation_scopes_open()) {
            _countInScopes()
        }
    }

    /// Sets the count back to zero.
    public func reset() {
        cg_atomic_i64_store(_storage, 0)
    }
}
