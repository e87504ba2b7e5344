import CComputedAtomics

/// An ordered collection of identifiable elements, unique by id, that records what each edit
/// changed so that values derived from it (``ListView``, counts, groups) follow it in
/// O(changes) instead of recomputing.
///
/// A value type: copies are independent, and two copies edited differently each stay correct.
///
/// ```swift
/// var messages: IdentifiedList<Message> = [Message(id: 1, subject: "Hi", date: .now)]
/// let seen = messages.version
/// messages[id: 1]?.isRead = true                 // in place, recorded as an update of 1
/// messages.append(Message(id: 2, subject: "Re: Hi", date: .now))
/// messages.changes(since: seen)?.touchedIDs      // [1, 2]
/// ```
///
/// ## Complexity
/// - Reading by offset or by id (``subscript(id:)``, ``index(id:)``): O(1).
/// - ``append(_:)``, ``removeLast()``, an in-place edit by id or offset: O(1) amortized.
/// - ``insert(_:at:)``, ``remove(id:)``, ``move(fromOffset:toOffset:)``: O(n − offset), as an
///   `Array`'s (the elements after the offset shift, and so do their offsets in the id index).
/// - ``changes(since:)``: O(changes).
///
/// ## The change record
/// Each edit appends one ``ListChange`` to a record shared by the copies of the value, bounded to
/// ``changeRecordCapacity`` changes (the oldest are dropped), with the edited element's value and
/// place in the order before the edit: derived views and folds find what they made of the element
/// from them, without a table by id of their own. The record thus holds at most
/// ``changeRecordCapacity`` element copies besides the list's elements (an element edited in place
/// shares its storage with its copy: a `String` field the edit mutates is copied once).
/// ``changes(since:)`` returns nil, and a derived value recomputes in full, when the version it
/// holds is of another history (the list was replaced with ``replaceAll(with:)``, assigned a
/// different list, or is a copy that was edited after another copy of the same value), or when
/// its changes were dropped.
public struct IdentifiedList<Element: Identifiable> {
    /// The type of the elements' ids.
    public typealias ID = Element.ID

    /// The elements, in order.
    @usableFromInline var _elements: ContiguousArray<Element>
    /// Each element's place in the order, increasing along `_elements`: lets a derived view sort
    /// by list order without asking for offsets (which shift on every insertion).
    @usableFromInline var _labels: ContiguousArray<UInt64>
    /// The offset of each id in `_elements`.
    @usableFromInline var _offsets: _IDIndex<ID>
    /// The history this value belongs to.
    @usableFromInline var _log: _ListChangeLog<Element>
    /// The number of edits of that history this value holds.
    @usableFromInline var _sequence: UInt64

    /// The number of changes the record of a new list holds by default.
    public static var defaultChangeRecordCapacity: Int { 4_096 }

    /// Creates an empty list whose change record holds at most `changeRecordCapacity` changes.
    public init(changeRecordCapacity: Int = Self.defaultChangeRecordCapacity) {
        _elements = []
        _labels = []
        _offsets = _IDIndex()
        _log = _ListChangeLog(capacity: changeRecordCapacity)
        _sequence = 0
    }

    /// Creates a list of `elements`, in order. Ids must be unique (a repeated id is a
    /// precondition failure).
    ///
    /// Inlinable, so that building the id index is specialized for the element type where the
    /// list is made (a bulk load of 10^6 elements through generic code costs several times more).
    @inlinable
    public init<S: Sequence>(_ elements: S, changeRecordCapacity: Int = Self.defaultChangeRecordCapacity)
    where S.Element == Element {
        self.init(changeRecordCapacity: changeRecordCapacity)
        _load(ContiguousArray(elements))
    }

    /// Fills an empty storage with `elements` and evenly spaced labels.
    @inlinable
    mutating func _load(_ elements: ContiguousArray<Element>) {
        _offsets = _IDIndex(minimumCapacity: elements.count)
        // Each id read in place (iterating the elements would copy each one: a retain and a
        // release of its references).
        elements.withUnsafeBufferPointer { elements in
            for offset in elements.indices {
                precondition(_offsets.insertNew(elements[offset].id, at: offset),
                             "IdentifiedList: duplicate id \(elements[offset].id)")
            }
        }
        _elements = elements
        _labels = Self._evenLabels(count: elements.count, above: 0, below: .max)
    }

    /// The capacity of this value's change record.
    public var changeRecordCapacity: Int { _log.capacity }

    /// This value's place in its history: keep it to ask ``changes(since:)`` later.
    @inlinable
    public var version: ListVersion {
        ListVersion(lineage: _log.lineage, sequence: _sequence)
    }

    /// The edits made between `version` and this value, oldest first, in O(changes); nil when
    /// they are not known (another history, or a version this value is older than, or changes
    /// dropped from the bounded record), in which case the caller must start over from the
    /// current elements.
    @inlinable
    public func changes(since version: ListVersion) -> ListChanges<ID>? {
        guard version.lineage == _log.lineage else { return nil }
        if version.sequence == _sequence { return ListChanges([]) }
        _log.lock.lock()
        defer { _log.lock.unlock() }
        return _log._changes(from: version.sequence, to: _sequence)
    }

    /// Whether this value holds an element with `id`. O(1).
    @inlinable
    public func contains(id: ID) -> Bool {
        _offsets[id] != nil
    }

    /// The offset of the element with `id`, or nil. O(1).
    @inlinable
    public func index(id: ID) -> Int? {
        _offsets[id]
    }

    /// The ids, in order.
    public var ids: [ID] { _elements.map(\.id) }

    /// The elements as an array, in order.
    public var elements: [Element] { Array(_elements) }

    /// The offset of the element with `id`, found at `hint` when it is there (an id compared, no
    /// lookup in the id index: `hint` is where the change record last saw the element, which
    /// derived values pass for each touched one), otherwise by the index (-1: no hint).
    @inlinable
    func _offset(of id: ID, hint: Int = -1) -> Int? {
        if hint >= 0, hint < _elements.count, _elements[hint].id == id { return hint }
        return _offsets[id]
    }

    /// The element with `id` and its label (its place in the list's order), for derived views;
    /// looked for at `hint` first (see `_offset(of:hint:)`).
    @inlinable
    func _entry(id: ID, hint: Int = -1) -> (element: Element, label: UInt64)? {
        guard let offset = _offset(of: id, hint: hint) else { return nil }
        return (_elements[offset], _labels[offset])
    }

    /// The element with `id`, looked for at `hint` first (see `_offset(of:hint:)`).
    @inlinable
    func _element(id: ID, hint: Int) -> Element? {
        _offset(of: id, hint: hint).map { _elements[$0] }
    }

    /// Asks for the element at `offset` and its label to be brought into the caches (a hint:
    /// nothing when `offset` is out of bounds), so that a loop over scattered elements reads the
    /// next ones without waiting for memory.
    @inlinable
    func _prefetch(at offset: Int) {
        guard offset >= 0, offset < _elements.count else { return }
        _elements.withUnsafeBufferPointer { cg_prefetch($0.baseAddress! + offset) }
        _labels.withUnsafeBufferPointer { cg_prefetch($0.baseAddress! + offset) }
    }

    /// Records `kind` for `id`, whose entry (value and label) before the edit was `prior` (nil
    /// for an insertion) and whose offset after it is `offset` (-1: removed, or not known):
    /// appends to the shared record when this value is at its head, otherwise (a copy edited
    /// after another copy) starts a new history.
    @inlinable
    mutating func _record(_ kind: ListChange<ID>.Kind, _ id: ID, prior: _ListEntry<Element>?, at offset: Int = -1) {
        let record = _ListLogRecord(ListChange(kind, id), prior: prior, offset: offset)
        let appended: Bool
        if isKnownUniquelyReferenced(&_log) {
            appended = _log._append(record, at: _sequence)
        } else {
            let log = _log
            let sequence = _sequence
            appended = log.lock.withLock { log._append(record, at: sequence) }
        }
        if appended {
            _sequence += 1
        } else {
            _startNewHistory()
        }
    }

    /// Moves this value to a history of its own, so consumers of the old one recompute.
    @usableFromInline
    mutating func _startNewHistory() {
        _log = _ListChangeLog(capacity: _log.capacity)
        _sequence = 0
    }
}

extension IdentifiedList: @unchecked Sendable where Element: Sendable, Element.ID: Sendable {}
// Safety: the stored arrays and dictionary are Sendable for Sendable elements and ids; the log is
// a lock-protected class (see `_ListChangeLog`).

// MARK: - Collection

extension IdentifiedList: RandomAccessCollection {
    /// Positions are offsets, from 0.
    public typealias Index = Int
    /// The offsets of the elements.
    public typealias Indices = Range<Int>

    /// 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of elements.
    @inlinable public var endIndex: Int { _elements.count }
    /// The number of elements. O(1).
    @inlinable public var count: Int { _elements.count }
    /// Whether the list is empty.
    @inlinable public var isEmpty: Bool { _elements.isEmpty }

    /// The element at `position`. Setting or mutating it in place records an update; its id must
    /// not change (a precondition failure otherwise).
    @inlinable
    public subscript(position: Int) -> Element {
        get { _elements[position] }
        _modify {
            let prior = _ListEntry(element: _elements[position], label: _labels[position])
            let id = prior.element.id
            yield &_elements[position]
            precondition(_elements[position].id == id, "IdentifiedList: an element's id must not change in place")
            _record(.updated, id, prior: prior, at: position)
        }
    }

    /// Iterates over the elements without copying them.
    @inlinable
    public func makeIterator() -> IndexingIterator<ContiguousArray<Element>> {
        _elements.makeIterator()
    }
}

extension IdentifiedList: ExpressibleByArrayLiteral {
    /// Creates a list of the literal's elements (ids must be unique).
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension IdentifiedList: CustomStringConvertible {
    /// The elements, as an array prints them.
    public var description: String { Array(_elements).description }
}

// MARK: - Conformances of the elements

extension IdentifiedList: Equatable where Element: Equatable {
    /// Same elements in the same order (the change records are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs.version == rhs.version { return true }
        return lhs._elements == rhs._elements
    }
}

extension IdentifiedList: Hashable where Element: Hashable {
    /// Hashes the elements in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_elements)
    }
}

extension IdentifiedList: Encodable where Element: Encodable {
    /// Encodes the elements as an unkeyed container (as an array).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Array(_elements))
    }
}

extension IdentifiedList: Decodable where Element: Decodable {
    /// Decodes an array of elements; a repeated id is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let elements = try container.decode([Element].self)
        if Set(elements.map(\.id)).count != elements.count {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "IdentifiedList: repeated ids")
        }
        self.init(elements)
    }
}
