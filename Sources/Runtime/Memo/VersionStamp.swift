import CComputedAtomics

/// A version stamp: a 64-bit number taken on every write, unique in the process.
///
/// ## Guarantees
/// - **Unique.** No two calls to ``next()``, on any threads, ever return the same stamp, and none
///   returns 0. So two values carrying the same stamp are the same write, hence equal: that is
///   all the runtime relies on (memo inputs, selector keys, `@Shared` keys and a store's change
///   detection compare stamps with `==` only, input by input).
/// - **Increasing on each thread.** A stamp is greater than every stamp taken before it on the
///   same thread.
/// - **Not ordered across threads.** Each thread hands out stamps from its own block of 1,024,
///   taken from a global counter when the previous block runs out, so a write can take a
///   *smaller* stamp than a write that happened before it on another thread. Never use `<` or
///   `max` of stamps to decide which write came last, and never sum stamps as a key: a sum can
///   come back to an earlier value while the stamps in it changed.
///
/// Taking a stamp costs two thread-local loads and a store (no atomic read-modify-write, no
/// contention between threads); one write in 1,024 also pays a relaxed fetch-add on the global
/// counter.
///
/// Stamps are process-local: never persist them or compare stamps from different processes.
@frozen
public struct VersionStamp: Hashable, Sendable, CustomStringConvertible {
    /// The raw value. Never 0 for a stamp returned by ``next()``.
    public let rawValue: UInt64

    /// Wraps a raw value (for tests and diagnostics; use ``next()`` to take a stamp).
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Takes a new stamp from the calling thread's block (see the type's guarantees).
    @inlinable
    public static func next() -> VersionStamp {
        VersionStamp(rawValue: cg_version_next())
    }

    /// `v` followed by the raw value, e.g. `v42`.
    public var description: String {
        "v\(rawValue)"
    }
}

extension VersionStamp {
    /// Tests only: runs `body` with the calling thread handing out `first`, `first + 1`, … (at
    /// most `count` stamps), as a thread does with its block, then lets the thread take a fresh
    /// block. Lets a test place writes as threads holding earlier or later blocks would, to show
    /// what relies on an order across threads. Stamps stay unique only if the range is used by
    /// nothing else: take one far above the global counter (from 2^62) and never reuse it.
    static func _withTestingBlock<Result>(
        startingAt first: UInt64,
        count: UInt64 = 1_024,
        _ body: () throws -> Result
    ) rethrows -> Result {
        cg_version_testing_use_block(first, first + count)
        defer { cg_version_testing_use_block(0, 0) }
        return try body()
    }
}
