import CComputedAtomics

/// A version stamp: a globally unique, increasing 64-bit number taken on every write.
///
/// Every call to ``next()`` returns a stamp no other call in the process ever returned (one
/// relaxed atomic fetch-add on a single global counter), so two values carrying the same stamp
/// are the same write, hence equal. Stamps taken one after the other are increasing, so the
/// later of two stamps identifies the later write *as observed by one thread*; across threads
/// only uniqueness is guaranteed, not an order beyond that of the counter itself.
///
/// Stamps are process-local: never persist them or compare stamps from different processes.
@frozen
public struct VersionStamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw counter value. Never 0 for a stamp returned by ``next()``.
    public let rawValue: UInt64

    /// Wraps a raw value (for tests and diagnostics; use ``next()`` to take a stamp).
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Takes a new stamp: one relaxed atomic fetch-add on the global counter, no lock.
    @inlinable
    public static func next() -> VersionStamp {
        VersionStamp(rawValue: cg_version_next())
    }

    /// Orders stamps by their raw counter value.
    @inlinable
    public static func < (lhs: VersionStamp, rhs: VersionStamp) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `v` followed by the raw value, e.g. `v42`.
    public var description: String {
        "v\(rawValue)"
    }
}
