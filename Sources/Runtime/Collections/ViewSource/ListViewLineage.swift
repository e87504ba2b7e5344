/// The record a ``ListView``'s pipeline keeps of its results' changes, so that a query whose
/// source is the view (``ListViewQuery``: `unread.prefix(20)`, `timeline.filter { … }`) follows
/// them, as a query over an ``IdentifiedList`` follows the list's change record.
///
/// One lineage per run of incremental updates of one pipeline: a full evaluation starts a new
/// one (the order of its entries may be another, and every element is new), and so does a copy
/// of the pipeline that updates after another copy did (as an `IdentifiedList` copy edited after
/// another). Each incremental update appends, for every source element it touched, the element's
/// entries in the view before and after (nil when it was not in it, or left); a view holds its
/// lineage and the sequence number of the update that made it. A later view of the same lineage
/// can then tell a follower which elements changed since the view it last read, what they were
/// then (the first record's entry before: where the follower's tree holds them, found without a
/// table by id) and what they are now (the last record's entry after), in O(changes).
///
/// Records are kept only once a follower asked for them (``follow()``): a view nobody chains
/// from costs one locked increment per update. The record is bounded (``capacity`` records;
/// the oldest are dropped): a follower that fell further behind evaluates in full.
///
/// Thread safety: the record is read and written under `lock` (a pipeline appends under its
/// cache's lock, a follower of another value reads under its own).
@usableFromInline
final class _ListViewLineage<Element: Identifiable & Sendable>: @unchecked Sendable where Element.ID: Sendable {
    // Safety: the mutable record is only touched under `lock`; `stamp`, `less` and `capacity`
    // are immutable.
    /// Unique in the process: tells two lineages apart.
    @usableFromInline let stamp: UInt64
    /// The order of the view's entries (the query's order, then the source's): what a follower
    /// breaks its own ties with. Fixed for the lineage: an update with other closures is a full
    /// evaluation, which starts a new lineage.
    @usableFromInline let less: @Sendable (_ListEntry<Element>, _ListEntry<Element>) -> Bool
    /// How many records are kept at most.
    @usableFromInline let capacity: Int
    @usableFromInline let lock = Lock()
    // Unchecked exclusivity: the fields below are accessed under `lock`, never in overlapping
    // accesses; the dynamic checks cost a call and a thread-local access set each (a dozen per
    // edit of a derived list), more than the accesses they guard.
    /// The records, oldest at `start` (a ring once full).
    @usableFromInline @exclusivity(unchecked) var ring: ContiguousArray<_ListViewRecord<Element>> = []
    @usableFromInline @exclusivity(unchecked) var start = 0
    /// The sequence number of the oldest record held.
    @usableFromInline @exclusivity(unchecked) var first: UInt64 = 0
    /// The sequence number of the next record (the view of the last update has this one).
    @usableFromInline @exclusivity(unchecked) var head: UInt64 = 0
    /// Whether a follower asked for records: until then none is kept.
    @usableFromInline @exclusivity(unchecked) var isFollowed = false
    /// An empty list, for the queries that follow this lineage's views to hold their operators in
    /// (made once, not at each build of a query).
    @usableFromInline let emptyList: IdentifiedList<Element>

    /// The number of records a lineage keeps by default.
    @usableFromInline static var defaultCapacity: Int { 4_096 }

    @usableFromInline
    init(less: @escaping @Sendable (_ListEntry<Element>, _ListEntry<Element>) -> Bool, capacity: Int = defaultCapacity) {
        self.stamp = VersionStamp.next().rawValue
        self.less = less
        self.capacity = capacity
        self.emptyList = IdentifiedList(changeRecordCapacity: 1)
    }

    /// A new lineage with this one's order: what a copy of the pipeline that updates after
    /// another copy starts.
    @usableFromInline
    func fork() -> _ListViewLineage {
        _ListViewLineage(less: less, capacity: capacity)
    }

    /// Appends the new entries of the touched elements of an update made from the view at
    /// `sequence`; returns the new view's sequence, or nil when `sequence` is not the head
    /// (another copy of the pipeline updated from there first).
    @inlinable
    func append(_ records: [_TouchRecord<Element>], at sequence: UInt64) -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        guard sequence == head else { return nil }
        guard isFollowed else {
            head += UInt64(records.count)
            first = head
            return head
        }
        for record in records {
            let entry = _ListViewRecord(id: (record.new?.element ?? record.old!.element).id, old: record.old, entry: record.new)
            if ring.count < capacity {
                ring.append(entry)
            } else {
                ring[start] = entry
                start += 1
                if start == capacity { start = 0 }
                first += 1
            }
            head += 1
        }
        return head
    }

    /// The records from the view at `from` to the view at `to`, oldest first, or nil when some
    /// were dropped (or never kept). Marks the lineage followed.
    @inlinable
    func records(from: UInt64, to: UInt64) -> [_ListViewRecord<Element>]? {
        lock.lock()
        defer { lock.unlock() }
        isFollowed = true
        guard from <= to, from >= first, to <= head else { return nil }
        var result: [_ListViewRecord<Element>] = []
        result.reserveCapacity(Int(to - from))
        var sequence = from
        while sequence < to {
            result.append(ring[(start + Int(sequence - first)) % ring.count])
            sequence += 1
        }
        return result
    }

    /// Keeps records from now on (a follower evaluated in full from a view of this lineage).
    @inlinable
    func follow() {
        lock.withLock { isFollowed = true }
    }
}

/// One touched element of an update: its id, its entry in the view before (nil: it was not in
/// it) and after (nil: it left).
@usableFromInline
struct _ListViewRecord<Element: Identifiable> {
    @usableFromInline var id: Element.ID
    @usableFromInline var old: _ListEntry<Element>?
    @usableFromInline var entry: _ListEntry<Element>?

    @inlinable
    init(id: Element.ID, old: _ListEntry<Element>?, entry: _ListEntry<Element>?) {
        self.id = id
        self.old = old
        self.entry = entry
    }
}

extension ListQueryState {
    /// After an incremental update that touched `records`: appends them to the lineage of the
    /// views this state makes, when it has one, and moves `sequence` to the new view's (forking
    /// the lineage when another copy of the pipeline appended first).
    @inlinable
    mutating func _advanceLineage(_ records: [_TouchRecord<Source>]) {
        guard let lineage else { return }
        if let next = lineage.append(records, at: sequence) {
            sequence = next
        } else {
            // Another copy of the pipeline went on from the same view: a history of our own,
            // which a follower will meet as a new lineage (and evaluate in full once).
            self.lineage = lineage.fork()
            sequence = 0
        }
    }

    /// The view of `tree` that this state's last update made: with the state's lineage, so
    /// that a query chained from the view follows its changes.
    @inlinable
    func _view(limit: Int?, project: @escaping @Sendable (Source) -> Element) -> _TreeListViewStorage<Source, Element> {
        let storage = _TreeListViewStorage(tree: tree, limit: limit, project: project)
        storage._lineage = lineage
        storage._sequence = sequence
        return storage
    }
}

extension ListQuery {
    /// The order of the tree's entries when they come from a view: the query's order, then
    /// `upstream` (the view's own order of its entries), as a `@Sendable` closure a lineage keeps.
    @inlinable
    func _entryOrder(then upstream: @escaping @Sendable (_ListEntry<Source>, _ListEntry<Source>) -> Bool)
        -> @Sendable (_ListEntry<Source>, _ListEntry<Source>) -> Bool {
        guard let order = _order else { return upstream }
        return { a, b in
            if order(a.element, b.element) { return true }
            if order(b.element, a.element) { return false }
            return upstream(a, b)
        }
    }

    /// The lineage a full evaluation starts for the views it makes, when a query may chain from
    /// them: no map (the view's elements are the source's, so the lineage's entries are the
    /// view's) and no prefix (an element pushed out of a prefix is not a touched one). Nil
    /// otherwise: a query chained from such a view evaluates in full.
    @inlinable
    func _newLineage(limit: Int?, less: @escaping @Sendable (_ListEntry<Source>, _ListEntry<Source>) -> Bool) -> _ListViewLineage<Source>? {
        _isIdentity && limit == nil ? _ListViewLineage(less: less) : nil
    }
}

extension ListView where Element: Identifiable & Sendable, Element.ID: Sendable {
    /// What a query chained from this view follows: the lineage of the pipeline that made it,
    /// the sequence of the update that made it, and its entries. Nil for a view no pipeline
    /// keeps a lineage for (made from an array, cut by a prefix, mapped, or grouped).
    @inlinable
    var _lineageSource: _ListViewSource<Element>? {
        guard let storage = _storage as? _TreeListViewStorage<Element, Element>,
              let lineage = storage._lineage as? _ListViewLineage<Element> else { return nil }
        return _ListViewSource(lineage: lineage, sequence: storage._sequence, tree: storage.tree)
    }
}

/// What a query chained from a view follows (``ListView/_lineageSource``), found once when the
/// query is built.
@usableFromInline
struct _ListViewSource<Element: Identifiable & Sendable>: Sendable where Element.ID: Sendable {
    @usableFromInline let lineage: _ListViewLineage<Element>
    @usableFromInline let sequence: UInt64
    @usableFromInline let tree: _OrderedTree<_ListEntry<Element>>

    @inlinable
    init(lineage: _ListViewLineage<Element>, sequence: UInt64, tree: _OrderedTree<_ListEntry<Element>>) {
        self.lineage = lineage
        self.sequence = sequence
        self.tree = tree
    }
}

// The queries over an `IdentifiedList`, which follow its change record.
extension ListQuery: IdentifiedListQuery {}
extension PrefixListQuery: IdentifiedListQuery {}
extension GroupedListQuery: IdentifiedListQuery {}
extension SectionedListQuery: IdentifiedListQuery {}
extension ListFoldQuery: IdentifiedListQuery {}
extension KeyedFoldQuery: IdentifiedListQuery {}
