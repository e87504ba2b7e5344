import CComputedAtomics

/// Computed values maintained incrementally: a spec's `computed visible: ListView<Message> {
/// messages.filter { !$0.isRead }.sorted(by: \.date) }`, and its folds over a list
/// (`computed unreadTotal: Int { messages.count(where: { !$0.isRead }) }`).
///
/// The generated body returns the query (`some IncrementalListQuery<ListView<Message>>`), and the
/// value's storage is an ``IncrementalMemo``. Its refresh is the table's, as for any computed value
/// (verify the inputs' versions, recompute only when one moved), except that "recompute" evaluates
/// the query through the memo's ``IncrementalListCache``:
/// - when the only inputs that moved are ``IdentifiedList`` fields that are the query's source,
///   the pipeline follows the list's changes, in O(changes · log n);
/// - when any other input moved (a search string, a sort order, a computed value), the query's
///   closures may read it, so the pipeline evaluates the query in full (`reuse: false`);
/// - the cutoff asks the new view's ``ListView/changes`` (O(changes)), not `==` over the whole
///   view: no change, or only elements edited to equal values in place, keeps the cached view and
///   its version, so nothing that reads it is recomputed or notified. After a full evaluation it
///   compares the views' elements, as any computed value's cutoff does.
///
/// Every entry takes an optional `source:`, the storage of the list field the query reads
/// (`\._messages`), which the generator passes when that list is the value's only input and its
/// body reads it only where the chain starts: the query's closures then read nothing that can
/// change, so the query is built on the first evaluation only and pointed at the list's new
/// value on each refresh after that (no closures or step arrays allocated per edit).
extension StateTable.Builder {
    /// A computed value maintained incrementally whose elements are `Equatable`: its name, its
    /// storage (`\._visible`), the key path user code reads it by on `state.computed`, its inputs,
    /// and its body, which builds the query from the inputs read from the storage. An element
    /// edited to an equal value in place is no change (unless `cutoff` is false).
    ///
    /// `unfollowedLists` names the list fields among the inputs whose changes are not followed:
    /// the body reads them in a closure, not only where its chain starts, so a move of one
    /// evaluates the value in full.
    ///
    /// `sourceInputs` names the input that is the query's source when it is another `ListView`
    /// value (`computed unread: ListView<Message> { timeline.filter { … } }`): a move of that
    /// value is followed through its changes, as a move of a list the query reads.
    ///
    /// The entries' methods are inlinable, so that the query's evaluation is specialized in the
    /// generated file, for its query type (see `_evaluator(_:)`); the rest of the entry is the
    /// runtime's.
    @inlinable
    public mutating func incremental<Element: Equatable, Query: IncrementalListQuery>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<ListView<Element>>>,
        _ extended: KeyPath<Extended, ListView<Element>>,
        inputs: StaticString,
        sourceInputs: StaticString = "",
        unfollowedLists: StaticString = "",
        cutoff: Bool = true,
        source: PartialKeyPath<Extended>? = nil,
        _ body: @escaping (UnsafePointer<Extended>) -> Query
    ) where Query.Output == ListView<Element> {
        _appendIncremental(name, storage, extended, inputs: inputs, unfollowedLists: unfollowedLists, sourceInputs: sourceInputs, unchanged: cutoff ? Self._unchangedTest(==) : nil,
                           release: _CachedValueRelease(unchanged: cutoff ? { $0.changes._leavesViewUnchanged(==) } : nil), Self._evaluator(body, source: source))
    }

    /// A computed value maintained incrementally whose elements are not `Equatable`: an edited
    /// element is a change, and a full evaluation always is.
    @inlinable
    public mutating func incremental<Element, Query: IncrementalListQuery>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<ListView<Element>>>,
        _ extended: KeyPath<Extended, ListView<Element>>,
        inputs: StaticString,
        sourceInputs: StaticString = "",
        unfollowedLists: StaticString = "",
        cutoff: Bool = true,
        source: PartialKeyPath<Extended>? = nil,
        _ body: @escaping (UnsafePointer<Extended>) -> Query
    ) where Query.Output == ListView<Element> {
        _appendIncremental(name, storage, extended, inputs: inputs, unfollowedLists: unfollowedLists, sourceInputs: sourceInputs, unchanged: cutoff ? Self._unchangedTest(nil) : nil,
                           release: _CachedValueRelease(unchanged: cutoff ? { $0.changes._leavesViewUnchanged(nil) } : nil), Self._evaluator(body, source: source))
    }

    /// A fold maintained incrementally (a spec's `computed unreadTotal: Int {
    /// messages.count(where: { !$0.isRead }) }`): its name, its storage, the key path user code
    /// reads it by, its inputs, and its body, which builds the fold query from the inputs read from
    /// the storage. The list's changes are followed when only the list moved (O(changes)), the
    /// fold is evaluated in full when another input moved, and a result `==` to the cached one is
    /// no change (unless `cutoff` is false).
    @inlinable
    public mutating func fold<Value: Equatable, Query: IncrementalListQuery>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<Value>>,
        _ extended: KeyPath<Extended, Value>,
        inputs: StaticString,
        sourceInputs: StaticString = "",
        unfollowedLists: StaticString = "",
        cutoff: Bool = true,
        source: PartialKeyPath<Extended>? = nil,
        _ body: @escaping (UnsafePointer<Extended>) -> Query
    ) where Query.Output == Value {
        _appendIncremental(name, storage, extended, inputs: inputs, unfollowedLists: unfollowedLists, sourceInputs: sourceInputs, unchanged: cutoff ? (==) : nil, Self._evaluator(body, source: source))
    }

    /// A fold maintained incrementally whose value is not `Equatable`: each recomputation is a
    /// change.
    @inlinable
    public mutating func fold<Value, Query: IncrementalListQuery>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<Value>>,
        _ extended: KeyPath<Extended, Value>,
        inputs: StaticString,
        sourceInputs: StaticString = "",
        unfollowedLists: StaticString = "",
        cutoff: Bool = true,
        source: PartialKeyPath<Extended>? = nil,
        _ body: @escaping (UnsafePointer<Extended>) -> Query
    ) where Query.Output == Value {
        _appendIncremental(name, storage, extended, inputs: inputs, unfollowedLists: unfollowedLists, sourceInputs: sourceInputs, unchanged: nil, Self._evaluator(body, source: source))
    }

    /// What evaluates a value's query: builds it with `body` from the state's storage, and
    /// updates the pipeline of the cache it is given the offset of in the storage (loaded here,
    /// where its type is specialized) with it, following the source's changes when `reuse` says the
    /// moves allow it (given the query's source version), calling the last argument before the
    /// pipeline edits its state. Specialized where it is written.
    ///
    /// With `source` (the generator passes it when the value's only input is that list and its
    /// body reads the list only where the chain starts, so that the query's closures read nothing
    /// that can change), the query is built once per cache and then pointed at the list's new
    /// value (read in place) on each refresh.
    @inlinable
    static func _evaluator<Query: IncrementalListQuery>(
        _ body: @escaping (UnsafePointer<Extended>) -> Query,
        source: PartialKeyPath<Extended>?
    ) -> (UnsafeRawPointer, Int, Bool, (ListVersion) -> Bool, () -> Void) -> Query.Output {
        // The body's type is opaque (`some IncrementalListQuery<…>`), so the source's type is
        // checked here, once: another key path is a generator bug, and the query is then built
        // on each refresh as without it.
        let field = source.flatMap { $0 as? KeyPath<Extended, StoredField<IdentifiedList<Query.Source>>> }
        assert(field != nil || source == nil, "source: is not the storage of a list of the query's elements")
        let sourceOffset = field.map(_valueOffset(of:))
        return { base, cacheOffset, orderMoved, reuse, beforeEditing in
            base.load(fromByteOffset: cacheOffset, as: IncrementalListCache<Query.Output>.self)._update(
                source: sourceOffset.map { base.load(fromByteOffset: $0, as: IdentifiedList<Query.Source>.self) },
                building: { body(base.assumingMemoryBound(to: Extended.self)) },
                keyOrderMoved: orderMoved, reuse: reuse, beforeEditing: beforeEditing)
        }
    }

    /// The entry of any value maintained by an incremental query: `unchanged` is its cutoff,
    /// `evaluate` its query's evaluation (see `_evaluator(_:)`), told whether an input in
    /// `orderInputs` (those only a section query's key order reads) moved; such moves do not
    /// keep the query from following its source's changes.
    @usableFromInline
    mutating func _appendIncremental<Value>(
        _ name: String,
        _ storage: KeyPath<Extended, IncrementalMemo<Value>>,
        _ extended: KeyPath<Extended, Value>,
        inputs: StaticString,
        unfollowedLists: StaticString,
        orderInputs: StaticString = "",
        sourceInputs: StaticString = "",
        unchanged: ((Value, Value) -> Bool)?,
        release: _CachedValueRelease<Value>? = nil,
        _ evaluate: @escaping (UnsafeRawPointer, Int, Bool, (ListVersion) -> Bool, () -> Void) -> Value
    ) {
        let offset = Self.offset(of: storage)
        let cellOffset = offset + MemoryLayout<IncrementalMemo<Value>>.offset(of: \IncrementalMemo<Value>._memo)!
        let cacheOffset = offset + MemoryLayout<IncrementalMemo<Value>>.offset(of: \IncrementalMemo<Value>._cache)!
        // The inputs, resolved once the table is built, with their list version readers by
        // position: a move of a list is followed when it is the query's source.
        let resolved = StateTable.ResolvedInputs()
        let orderMask = Self._positions(of: orderInputs, in: inputs)
        // A view the query reads as its source: its moves are followed (the query compares its
        // lineage), as are those of the key order's inputs.
        let followedMask = orderMask | Self._positions(of: sourceInputs, in: inputs)
        // Lists the body reads in a closure too: the previous result was made with their values
        // then, so a move of one is evaluated in full, as a move of any other input.
        let unfollowedMask = Self._positions(of: unfollowedLists, in: inputs)
        let counter = RecomputationCounter()
        // The cell is reached by address (its header's and its value's offsets in the object,
        // found once) and the cache by the evaluator, which is specialized: in this unspecialized
        // code, a `MemoCell<Value>` or an `IncrementalListCache<Value>` named or accessed would be
        // looked up in the runtime's metadata cache on every refresh.
        let valueOffset = Self._valueOffsetInCell(Value.self)
        appendEntry(name, cellAt: cellOffset, extended, inputs: inputs, counter: counter, refresh: { table, index, base in
            // The storage at `base` holds the cell for the whole refresh.
            let object = base.load(fromByteOffset: cellOffset, as: UnsafeMutableRawPointer.self)
            let header = (object + table.headerOffset).assumingMemoryBound(to: _MemoCellHeader.self)
            let slot = (object + valueOffset).assumingMemoryBound(to: Value.self)
            var moves = _InputMoves()
            _ = _MemoCellHeader._refresh(
                header, slot,
                verifies: true,
                { table.recordInputs(resolved.inputs, in: base, into: &$0, lists: resolved.lists, moves: &moves) },
                {
                    counter.increment()
                    var restore: ((Value) -> Value)?
                    let value = evaluate(base, cacheOffset, moves.anyMoved(orderMask), {
                        moves.lists & unfollowedMask == 0
                            && moves.onlySourceMoved($0, in: base, readers: resolved.lists, ignoring: followedMask)
                    }, {
                        // The pipeline follows the list's changes: the cached value, which this
                        // refresh replaces (the cell is ours until it publishes), lets go of the
                        // tree it shares with the pipeline, which then edits what nobody else holds
                        // in place.
                        if let release, restore == nil, header._hasValue.pointee {
                            restore = release.take(slot)
                        }
                    })
                    if let restore {
                        slot.initialize(to: restore(value))
                    }
                    if _slowPath(cg_change_trace_active()) {
                        // A change trace says whether the list's changes were followed, and why not.
                        let cache = base.load(fromByteOffset: cacheOffset, as: IncrementalListCache<Value>.self)
                        _ChangeTraceFrame.innermost?.noteEvaluation(cache.lastEvaluation, of: header)
                    }
                    return value
                },
                unchanged
            )
        }, replaceWithStaleCopy: { slot in
            // This copy of the state diverges from the others: its own cell, and its own
            // pipeline, going on from the same previous result.
            let memo = slot.assumingMemoryBound(to: Memo<Value>.self)
            memo.pointee._cell = memo.pointee._cell._staleCopy()
            let cache = (slot + (cacheOffset - cellOffset)).assumingMemoryBound(to: IncrementalListCache<Value>.self)
            cache.pointee = cache.pointee.copy()
        }, resolvedInputs: resolved)
    }

    /// Where a `MemoCell<Value>`'s value is, from the start of the cell object: measured once, on
    /// a cell made for it.
    static func _valueOffsetInCell<Value>(_: Value.Type) -> Int {
        let cell = MemoCell<Value>.make()
        return withExtendedLifetime(cell) {
            UnsafeRawPointer(cell._valuePointer) - UnsafeRawPointer(Unmanaged.passUnretained(cell).toOpaque())
        }
    }

    /// Where a plain field's value is in the state's storage, given the field's storage.
    @usableFromInline
    static func _valueOffset<Value>(of storage: KeyPath<Extended, StoredField<Value>>) -> Int {
        offset(of: storage) + MemoryLayout<StoredField<Value>>.offset(of: \StoredField<Value>._value)!
    }

    /// The positions (below 64) in `inputs` of the names in `names` (an input read through its
    /// members, `shelf.total`, by its field's name), as bits.
    static func _positions(of names: StaticString, in inputs: StaticString) -> UInt64 {
        let wanted = Set(names.description.split(separator: " "))
        guard !wanted.isEmpty else { return 0 }
        var mask: UInt64 = 0
        for (position, name) in inputs.description.split(separator: " ").enumerated() where position < 64 {
            if wanted.contains(name.prefix { $0 != "." }) { mask |= 1 << UInt64(position) }
        }
        return mask
    }

    /// The cutoff of a view: after an incremental update, whether its changes leave the cached
    /// view as it was (O(changes)); after a full evaluation, whether the elements are equal.
    /// Specialized where it is written (generic, it looks up type metadata on every edit).
    @inlinable
    static func _unchangedTest<Element>(_ isEqual: ((Element, Element) -> Bool)?) -> (ListView<Element>, ListView<Element>) -> Bool {
        return { cached, new in
            if new.changes.isIncremental { return new.changes._leavesViewUnchanged(isEqual) }
            guard let isEqual else { return cached.isEmpty && new.isEmpty }
            return cached.count == new.count && cached.elementsEqual(new, by: isEqual)
        }
    }
}

/// The inputs of an incremental computed value that moved since its last computation, as its
/// refresh records them (without allocating: a refresh after one edit is a microsecond).
struct _InputMoves {
    /// The positions of the list fields that moved, as bits (positions from 64 on count as
    /// `others`: the value is then evaluated in full, never wrongly followed).
    var lists: UInt64 = 0
    /// The positions of the other inputs that moved, as bits.
    var otherBits: UInt64 = 0
    /// Whether an input from position 64 on moved.
    var others = false

    /// Whether the query can follow its source's changes: nothing but lists moved, and each of
    /// those is the query's source (a list that a closure of the query reads is another input),
    /// apart from the inputs at the positions in `ignoring` (those only a key order reads).
    /// `readers` are the inputs' list version readers, by position.
    func onlySourceMoved(_ source: ListVersion, in base: UnsafeRawPointer, readers: [((UnsafeRawPointer) -> ListVersion)?],
                         ignoring: UInt64 = 0) -> Bool {
        if others || otherBits & ~ignoring != 0 { return false }
        var moved = lists & ~ignoring
        while moved != 0 {
            let position = moved.trailingZeroBitCount
            moved &= moved - 1
            guard let reader = readers[position], reader(base) == source else { return false }
        }
        return true
    }

    /// Whether an input at one of the positions in `mask` moved.
    func anyMoved(_ mask: UInt64) -> Bool {
        (lists | otherBits) & mask != 0
    }
}

extension StateTable {
    /// ``recordInputs(of:in:into:)`` for the value's `inputs`, noting in `moves` the inputs whose
    /// version moved since the recording of the last computation (`lists`: each input's list
    /// version reader, if it is a list field). By position, not `enumerated()`, and from the
    /// entry's resolved inputs it captured rather than a copy of its table row: in this generic
    /// code either would look up type metadata on every refresh.
    func recordInputs(_ inputs: [Input], in base: UnsafeRawPointer, into versions: inout MemoInputs,
                      lists: [((UnsafeRawPointer) -> ListVersion)?], moves: inout _InputMoves) {
        var position = 0
        while position < inputs.count {
            defer { position += 1 }
            let version = version(of: inputs[position], in: base)
            if versions._count >= versions._versions.count || versions._versions[versions._count] != version {
                if position >= 64 {
                    moves.others = true
                } else if lists[position] != nil {
                    moves.lists |= 1 << UInt64(position)
                } else {
                    moves.otherBits |= 1 << UInt64(position)
                }
            }
            versions.record(version)
        }
    }
}

extension StateTable.Builder {
    /// Reads the version of a field's value in place, when `Value` is an ``IdentifiedList``.
    static func listVersion<Value>(of _: Value.Type, at offset: Int) -> ((UnsafeRawPointer) -> ListVersion)? {
        guard let list = Value.self as? any _ListVersioned.Type else { return nil }
        // Where the list keeps its history and its place in it, found once through the list's
        // type: then each read is two loads, with no copy of the list, no dynamic cast and no
        // type metadata lookup.
        let (logOffset, sequenceOffset) = list._versionLayout
        return { base in
            let log = base.load(fromByteOffset: offset + logOffset, as: UnsafeRawPointer.self)
            return ListVersion(lineage: Unmanaged<_ListLineage>.fromOpaque(log).takeUnretainedValue().lineage,
                               sequence: base.load(fromByteOffset: offset + sequenceOffset, as: UInt64.self))
        }
    }
}

/// A value that is an ``IdentifiedList``, whatever its element type.
protocol _ListVersioned {
    /// Where a list's change record (a `_ListLineage`) and its sequence in it are, in its layout.
    static var _versionLayout: (log: Int, sequence: Int) { get }
}

extension IdentifiedList: _ListVersioned {
    static var _versionLayout: (log: Int, sequence: Int) {
        (MemoryLayout<Self>.offset(of: \._log)!, MemoryLayout<Self>.offset(of: \._sequence)!)
    }
}

extension ListViewChanges {
    /// Whether these changes leave the previous view as it was: incremental, and either empty or
    /// only elements that kept their offset and are `isEqual` to their previous value (nil:
    /// elements are not comparable, so only no change at all). Specialized where it is written.
    @inlinable
    func _leavesViewUnchanged(_ isEqual: ((Element, Element) -> Bool)?) -> Bool {
        guard case .incremental(let touches) = _storage else { return false }
        guard let isEqual else { return touches.isEmpty }
        return touches.allSatisfy { touch in
            guard let old = touch.old, let new = touch.new else { return false }
            return old.offset == new.offset && isEqual(old.element, new.element)
        }
    }
}

extension IncrementalListQuery {
    /// The query evaluated once, in full, without keeping a pipeline: what a generated computed
    /// value declared as a ``ListView`` gets when it reads `@Shared` fields (other holders write
    /// those, so its cache is keyed on their versions and has no pipeline to follow a list's
    /// changes). Counted in ``IncrementalListCounters/fullRecomputations``. Not meant to be
    /// called by hand.
    public func _evaluatedInFull() -> Output {
        var state: State? = nil
        IncrementalListCounters.fullRecomputations.increment()
        return evaluate(updating: &state, changes: nil).output
    }
}
