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

/// One record of a ``_ListChangeLog``: the change, the element's entry (value and label) just
/// before it (nil for an insertion), and its offset after it. The first record of an id after a
/// version holds the entry the id had at that version: what a derived value needs to find (and
/// take out) what it made of the element then, without a table of its own by id.
@usableFromInline
struct _ListLogRecord<Element: Identifiable> {
    @usableFromInline var change: ListChange<Element.ID>
    @usableFromInline var prior: _ListEntry<Element>?
    /// The element's offset just after the edit (-1: removed, or not known): a hint, see
    /// `_TouchedElement.offset`.
    @usableFromInline var offset: Int

    @inlinable
    init(_ change: ListChange<Element.ID>, prior: _ListEntry<Element>?, offset: Int) {
        self.change = change
        self.prior = prior
        self.offset = offset
    }
}

/// The identity of an ``IdentifiedList`` history, in a class without generic parameters: a state's
/// table reads a list field's version in place through it, without the list's element type (generic
/// code that names the element type looks its metadata up on every refresh).
@usableFromInline
class _ListLineage: @unchecked Sendable {
    // Safety: immutable.
    /// The history's lineage (``ListVersion/lineage``).
    @usableFromInline let lineage: UInt64

    @usableFromInline
    init(lineage: UInt64) {
        self.lineage = lineage
    }
}

/// The edit record shared by the copies of one ``IdentifiedList`` history: a bounded ring of the
/// latest edits, each with the edited element's previous value and label (so the ring holds
/// at most `capacity` element copies besides the list's own). Only the copy at the head of the
/// history appends; a copy that edits from an older point starts a new history (a new log), so
/// every value's edits are a prefix of its log's sequence.
///
/// Thread safety: the ring is only touched under `lock`, except by a value that holds the only
/// reference to the log (then no other value, hence no other thread, can reach it).
@usableFromInline
final class _ListChangeLog<Element: Identifiable>: _ListLineage, @unchecked Sendable {
    // Safety: mutable state is accessed under `lock`, or by the unique owner (see above).
    @usableFromInline let capacity: Int
    @usableFromInline let lock = Lock()
    // Unchecked exclusivity: the fields below are accessed under `lock` or by the only holder,
    // never in overlapping accesses; the dynamic checks cost a call and a thread-local access set
    // each (a dozen per edit of a derived list), more than the accesses they guard.
    /// The records, oldest at `start` (a ring once `count == capacity`).
    @usableFromInline @exclusivity(unchecked) var ring: ContiguousArray<_ListLogRecord<Element>> = []
    @usableFromInline @exclusivity(unchecked) var start = 0
    /// Sequence number of the oldest record still held.
    @usableFromInline @exclusivity(unchecked) var first: UInt64 = 0
    /// Sequence number the next record gets (the head of the history).
    @usableFromInline @exclusivity(unchecked) var head: UInt64 = 0
    /// The last range `_changes(from:to:)` gave and what it gave: the values derived from one list
    /// ask for the same range after an edit (a feed reader's timeline, counts and total), and get
    /// one array of changes rather than one each. Records in the range never change while they
    /// are held, so it stays right.
    @usableFromInline @exclusivity(unchecked) var lastChanges: (from: UInt64, to: UInt64, changes: ListChanges<Element.ID>)?

    @usableFromInline
    init(capacity: Int) {
        precondition(capacity > 0, "the change record holds at least one change")
        self.capacity = capacity
        super.init(lineage: VersionStamp.next().rawValue)
    }

    /// Appends `record` if `sequence` is the head; returns whether it did. Caller holds the lock
    /// or the only reference.
    @inlinable
    func _append(_ record: _ListLogRecord<Element>, at sequence: UInt64) -> Bool {
        guard sequence == head else { return false }
        if ring.count < capacity {
            ring.append(record)
        } else {
            ring[start] = record
            start += 1
            if start == capacity { start = 0 }
            first += 1
        }
        head += 1
        return true
    }

    /// The changes with sequence numbers `from..<to`, with the entries before each, or nil if
    /// some were trimmed or `from` is past `to`. Caller holds the lock.
    @inlinable
    func _changes(from: UInt64, to: UInt64) -> ListChanges<Element.ID>? {
        guard from <= to, from >= first, to <= head else { return nil }
        if let last = lastChanges, last.from == from, last.to == to { return last.changes }
        var changes: [ListChange<Element.ID>] = []
        var touched: [_TouchedElement<Element>] = []
        changes.reserveCapacity(Int(to - from))
        touched.reserveCapacity(Int(to - from))
        // Each id once, with its entry before the first of these edits and its offset after the
        // last: one edit, the common case, needs no table. Keyed as the id index is (integer ids
        // hashed by a few multiplications, not SipHash).
        var seen: [_IDKey<Element.ID>: Int]? = to - from > 1 ? Dictionary(minimumCapacity: Int(to - from)) : nil
        var sequence = from
        while sequence < to {
            let position = (start + Int(sequence - first)) % ring.count
            let change = ring[position].change
            changes.append(change)
            if let index = seen?[_IDKey(change.id)] {
                touched[index].offset = ring[position].offset
            } else {
                seen?[_IDKey(change.id)] = touched.count
                touched.append(_TouchedElement(id: change.id, old: ring[position].prior, offset: ring[position].offset))
            }
            sequence += 1
        }
        let result = ListChanges(changes, priors: _ListPriors(touched: touched))
        lastChanges = (from, to, result)
        return result
    }
}

/// Every element a ``ListChanges``' records touched, once each, in the order first touched, with
/// the entry (value and label) it had before the first of those records: what
/// `ListChanges._touched(_:)` gives a derived value. Made once per range of changes, with them
/// (under the change record's lock), so the values that follow one list share it.
///
/// Safety: immutable once made. It holds elements, which need not be `Sendable`; it is read only
/// by queries over `Sendable` elements (the incremental queries require them).
@usableFromInline
final class _ListPriors<Element: Identifiable>: @unchecked Sendable {
    @usableFromInline let touched: [_TouchedElement<Element>]

    @inlinable
    init(touched: [_TouchedElement<Element>]) {
        self.touched = touched
    }
}

/// One element touched since a version: its id, its entry at that version (nil: it was not in
/// the list then), and where its last edit left it.
@usableFromInline
struct _TouchedElement<Element: Identifiable> {
    @usableFromInline var id: Element.ID
    @usableFromInline var old: _ListEntry<Element>?
    /// The element's offset just after its last edit (-1: removed, or not known). A hint: a later
    /// insertion, removal or move before it shifts it, so a reader checks the id there
    /// (`IdentifiedList._offset(of:hint:)`), which costs no lookup in the id index when it holds.
    @usableFromInline var offset: Int

    @inlinable
    init(id: Element.ID, old: _ListEntry<Element>?, offset: Int = -1) {
        self.id = id
        self.old = old
        self.offset = offset
    }
}

/// The edits between two versions of an ``IdentifiedList``, in the order they were made.
///
/// Those from ``IdentifiedList/changes(since:)`` also carry each edited element's previous value
/// and place in the order (internal): a derived value reads what it made of the element before
/// the edits from them, instead of keeping a table by id. Made with ``init(_:)``, a value does not
/// carry them, and a query given it evaluates in full.
public struct ListChanges<ID: Hashable>: RandomAccessCollection, Equatable {
    /// The edits, oldest first.
    public let records: [ListChange<ID>]
    /// The `_ListPriors` of `records`, when they come from a list's change record.
    @usableFromInline let _priors: (AnyObject & Sendable)?

    /// Wraps `records`.
    @inlinable
    public init(_ records: [ListChange<ID>]) {
        self.records = records
        self._priors = nil
    }

    /// Wraps `records`, with the entries their elements had before each.
    @inlinable
    init(_ records: [ListChange<ID>], priors: (AnyObject & Sendable)?) {
        self.records = records
        self._priors = priors
    }

    /// Same records (the previous values are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.records == rhs.records
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

    /// Every id an edit touched, once each, in the order first touched, with the entry (value
    /// and label) it had before the first of those edits (nil: it was not in the list), or nil
    /// when these changes carry no previous values (made by hand, or not from a list of
    /// `Element`s). O(1): made with the changes (see `_ListPriors`).
    @inlinable
    func _touched<Element: Identifiable>(_: Element.Type) -> [_TouchedElement<Element>]? where Element.ID == ID {
        if records.isEmpty { return [] }
        return (_priors as? _ListPriors<Element>)?.touched
    }

    /// The ids of records of `kind`, in record order (with repeats).
    public func ids(_ kind: ListChange<ID>.Kind) -> [ID] {
        records.compactMap { $0.kind == kind ? $0.id : nil }
    }
}

extension ListChanges: Sendable where ID: Sendable {}
