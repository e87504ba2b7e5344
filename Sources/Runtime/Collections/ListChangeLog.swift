/// Where an ``IdentifiedList`` value stands in the history of its edits: which history
/// (`lineage`) and how many recorded edits of it (`sequence`).
///
/// Two values with the same version hold the same elements in the same order. A consumer keeps
/// the version of the value it last read and asks the next value for
/// ``IdentifiedList/changes(since:)``: when both versions belong to the same lineage and the
/// record still holds the edits in between, it gets them in O(changes); otherwise it gets `nil`
/// (replaced value, diverged copy or trimmed record) and recomputes in full.
public struct ListVersion: Hashable, Sendable, CustomStringConvertible {
    /// The history this value belongs to: unique in the process (a ``VersionStamp`` taken when
    /// the history started), never reused.
    public let lineage: UInt64
    /// The number of edits recorded in that history up to this value.
    public let sequence: UInt64

    @usableFromInline
    init(lineage: UInt64, sequence: UInt64) {
        self.lineage = lineage
        self.sequence = sequence
    }

    /// `lineage.sequence`, e.g. `v42.7`.
    public var description: String { "v\(lineage).\(sequence)" }
}

/// One recorded edit of an ``IdentifiedList``: what happened to which id.
public struct ListChange<ID: Hashable>: Hashable {
    /// What an edit did to an element.
    public enum Kind: UInt8, Hashable, Sendable {
        /// The element was added.
        case inserted
        /// The element was removed.
        case removed
        /// The element was replaced or mutated in place (same id, same position).
        case updated
        /// The element changed position (a move, or a renumbering of its place in the order).
        case moved
    }

    /// What happened.
    public var kind: Kind
    /// The id of the element it happened to.
    public var id: ID

    /// A change of `kind` to the element `id`.
    @inlinable
    public init(_ kind: Kind, _ id: ID) {
        self.kind = kind
        self.id = id
    }
}

extension ListChange: Sendable where ID: Sendable {}

/// The edit record shared by the copies of one ``IdentifiedList`` history: a bounded ring of the
/// latest edits. Only the copy at the head of the history appends; a copy that edits from an
/// older point starts a new history (a new log), so every value's edits are a prefix of its
/// log's sequence.
///
/// Thread safety: the ring is only touched under `lock`, except by a value that holds the only
/// reference to the log (then no other value, hence no other thread, can reach it).
@usableFromInline
final class _ListChangeLog<ID: Hashable>: @unchecked Sendable {
    // Safety: mutable state is accessed under `lock`, or by the unique owner (see above).
    @usableFromInline let lineage: UInt64
    @usableFromInline let capacity: Int
    @usableFromInline let lock = Lock()
    /// The records, oldest at `start` (a ring once `count == capacity`).
    @usableFromInline var ring: ContiguousArray<ListChange<ID>> = []
    @usableFromInline var start = 0
    /// Sequence number of the oldest record still held.
    @usableFromInline var first: UInt64 = 0
    /// Sequence number the next record gets (the head of the history).
    @usableFromInline var head: UInt64 = 0

    @usableFromInline
    init(capacity: Int) {
        precondition(capacity > 0, "the change record holds at least one change")
        self.lineage = VersionStamp.next().rawValue
        self.capacity = capacity
    }

    /// Appends `change` if `sequence` is the head; returns whether it did. Caller holds the lock
    /// or the only reference.
    @inlinable
    func _append(_ change: ListChange<ID>, at sequence: UInt64) -> Bool {
        guard sequence == head else { return false }
        if ring.count < capacity {
            ring.append(change)
        } else {
            ring[start] = change
            start += 1
            if start == capacity { start = 0 }
            first += 1
        }
        head += 1
        return true
    }

    /// The records with sequence numbers `from..<to`, or nil if some were trimmed or `from` is
    /// past `to`. Caller holds the lock.
    @inlinable
    func _records(from: UInt64, to: UInt64) -> [ListChange<ID>]? {
        guard from <= to, from >= first, to <= head else { return nil }
        var result: [ListChange<ID>] = []
        result.reserveCapacity(Int(to - from))
        var sequence = from
        while sequence < to {
            let offset = Int(sequence - first)
            result.append(ring[(start + offset) % ring.count])
            sequence += 1
        }
        return result
    }
}

/// The edits between two versions of an ``IdentifiedList``, in the order they were made.
public struct ListChanges<ID: Hashable>: RandomAccessCollection, Equatable {
    /// The edits, oldest first.
    public let records: [ListChange<ID>]

    /// Wraps `records`.
    @inlinable
    public init(_ records: [ListChange<ID>]) {
        self.records = records
    }

    /// The first record's position.
    public var startIndex: Int { records.startIndex }
    /// One past the last record's position.
    public var endIndex: Int { records.endIndex }
    /// The record at `position`.
    public subscript(position: Int) -> ListChange<ID> { records[position] }

    /// Every id an edit touched, once each, in the order first touched: what a consumer
    /// re-examines (the current list tells whether each is still there and what it holds).
    @inlinable
    public var touchedIDs: [ID] {
        // One edit, the common case: no set to allocate.
        if records.count == 1 { return [records[0].id] }
        var seen = Set<ID>(minimumCapacity: records.count)
        return records.compactMap { seen.insert($0.id).inserted ? $0.id : nil }
    }

    /// The ids of records of `kind`, in record order (with repeats).
    public func ids(_ kind: ListChange<ID>.Kind) -> [ID] {
        records.compactMap { $0.kind == kind ? $0.id : nil }
    }
}

extension ListChanges: Sendable where ID: Sendable {}
