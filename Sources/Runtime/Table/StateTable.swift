import CComputedAtomics

/// An input of a computed value, recorded by version when the value is verified (resolved from
/// the names an entry gives, see `resolveInputs`). Outside ``StateTable``, whose nested types are
/// generic: its code, unspecialized, would look an input type's metadata up on every refresh.
enum _StateTableInput: Sendable {
    /// The field at this index (its stamp).
    case field(Int)
    /// The computed value at this index (its version, after bringing it up to date).
    case computed(Int)
    /// A member of the field at this index (`"computed.total"`, `"books"`), when the field's
    /// type is a generated state; otherwise the field's own stamp.
    case member(Int, String)
}

/// A generated state's members, described once per state type: its fields and memoized computed
/// values by index, the inputs of each computed value and the body that computes it.
///
/// Generated code keeps per member only what is specific to it (its storage, its typed hit path
/// and its body) and describes the rest in one table per state, `Extended.__table`, built on
/// first use:
///
/// ```swift
/// static let __table = StateTable<CounterState, Extended>(\.computed, memo: \.__memo) { table in
///     table.field("count", \._count, \.count, \.count)
///     table.computed("doubled", \.doubled, inputs: "count") {
///         CounterState._ComputedBodies.doubled($0.pointee._count.wrappedValue)
///     }
/// }
/// ```
///
/// Everything that is the same for every member runs here, once, driven by the table:
/// - **Refresh** (``refresh(_:in:)``): a stale computed value is verified against its inputs'
///   versions and recomputed only when one of them moved; an equal result keeps the cached value
///   and its version (early cutoff).
/// - **Invalidation** (``invalidate(afterWritingField:in:)``): after a field is written, every
///   computed value that depends on it, directly or through other computed values, is marked
///   stale, from a list the table derives once from the inputs.
/// - **Members** (see `StateTable+Members.swift`): versions by member name, the fields' stamps a
///   store records around a commit, the members a store observes by key path, the mirror.
///
/// The table reaches a state's storage through byte offsets taken from stored-property key paths
/// (`MemoryLayout.offset(of:)`), and a memo cell of any value type through the cell's
/// type-independent header, so that nothing in it is compiled once per member. The cells of a
/// state's memoized values are the slots of one ``MemoTable`` (one allocation per state, laid out
/// here from the values' types); a `ListView` value keeps a cell of its own.
///
/// `State` is the generated state, whose only stored property is its `Extended` storage (so a
/// pointer to a state is a pointer to its storage). Not meant to be used by hand.
public final class StateTable<State, Extended>: @unchecked Sendable {
    // Safety: every property is a `let` set by `init`; the closures it holds only read through
    // the pointers they are given, and cells follow the memo once-protocol.

    /// An input of a computed value (see ``_StateTableInput``).
    typealias Input = _StateTableInput

    /// How generated code describes the members, one call per member, in declaration order.
    public struct Builder {
        var fields: [Field] = []
        var computeds: [Computed] = []
        var sharedComputeds: [SharedComputed] = []
        var stateMembers: [(PartialKeyPath<State>, String)] = []
        var extendedMembers: [(PartialKeyPath<Extended>, String)] = []
    }

    let fields: [Field]
    let computeds: [Computed]
    /// Where each computed value is cached: its slot in the state's ``MemoTable`` (-1 for a
    /// cell of its own), or the offset of its own memo cell in the storage (-1 for a slot); and
    /// each field's stamp (-1 when its entry's `version` reads it). Copies of the entries' values
    /// in flat arrays, so that the hot paths (invalidation, versions, a store's stamp record) read
    /// an `Int` rather than copy an entry, which retains every closure and array it holds.
    let slots: [Int]
    let cellOffsets: [Int]
    let stampOffsets: [Int]
    /// Where the state's ``MemoTable`` is in the storage (-1 when it has none), and the layout of
    /// its slots.
    let memoOffset: Int
    let memoLayout: _MemoLayout
    /// Where a memo table's words start in its object (`_MemoLayout.elementsOffset`, read once:
    /// a global's every read checks its initialization).
    let memoWordsOffset: Int
    /// The invalidation plan, in one allocation the table owns: for field `f`, the memo cells it
    /// feeds are `plan[plan[f] ..< plan[f + 1]]` (the first `fields + 1` words are the starts),
    /// parallel to `dependents`: first the memo table's slots, each as `~offset` (its header's
    /// offset from the table's words), then the cells of their own, by their offsets in the
    /// storage. A raw buffer, so that a write's loop runs without bounds checks,
    /// retains or metadata lookups in this unspecialized generic class.
    let plan: UnsafeMutableBufferPointer<Int>
    /// The computed values each field feeds, directly or not, in the plan's order (the plan's
    /// entry `fields + 1 + k` is the cell of `dependents[k]`).
    let dependents: [Int]
    /// Where a memo cell's header is in the cell object (the same for every value type).
    let headerOffset: Int
    /// Fields and computed values by name, keyed by `Substring` so that a lookup from a member
    /// path (`"computed.total"` split at its dot) allocates nothing.
    let fieldIndex: [Substring: Int]
    let computedIndex: [Substring: Int]
    /// The computed values over `@Shared` fields, by name: their versions (see
    /// ``Builder/sharedComputed(_:_:_:)``).
    let sharedComputeds: [Substring: (UnsafeRawPointer) -> VersionStamp]
    /// The storage of each field's selector, by index (see ``fieldSelector(_:)``).
    let fieldSelectors: [AnyObject]
    /// The storage of each computed value's selector, by index (see ``computedSelector(_:)``);
    /// set at the end of `init`, as the selectors read through the table.
    private(set) var computedSelectors: [AnyObject] = []
    /// Each computed value's refresh, by index, bound to this table: a refresh reads one closure
    /// from an array of a non-generic type, rather than copy its entry (which looks the entry
    /// type's metadata up in this unspecialized generic class and retains every closure it
    /// holds). Set at the end of `init`, as the closures capture the table (unowned: a table is
    /// never freed while a state of its type exists).
    @exclusivity(unchecked) private(set) var refreshes: [(UnsafeRawPointer) -> Void] = []
    let stateMembers: _MemberTable<State>
    let extendedMembers: _MemberTable<Extended>
    /// What visits the shared references of each field that can hold any (see
    /// ``visitSharedReferences(in:_:)``).
    let referenceCollectors: [(UnsafeRawPointer, (any _SharedReference) -> Void) -> Void]
    /// The names a change trace reports, made on the first traced refresh (see
    /// `StateTable+Trace.swift`).
    let traceNames = _TraceNames()

    /// Builds the table of a state whose storage is at `storage` (`\.computed`, its only stored
    /// property) and whose memo table, when it has memoized computed values, is at `memo`
    /// (`\.__memo`), with `describe`; then derives what the runtime needs from it.
    public init(_ storage: WritableKeyPath<State, Extended>, memo: KeyPath<Extended, MemoTable>? = nil, _ describe: (inout Builder) -> Void) {
        precondition(
            MemoryLayout<State>.offset(of: storage) == 0 && MemoryLayout<State>.size == MemoryLayout<Extended>.size,
            "a generated state's only stored property is its storage"
        )
        _ = ProcessTrace.startFromEnvironment
        var builder = Builder()
        describe(&builder)
        fieldIndex = Dictionary(builder.fields.enumerated().map { (Substring($1.name), $0) }, uniquingKeysWith: { first, _ in first })
        computedIndex = Dictionary(builder.computeds.enumerated().map { (Substring($1.name), $0) }, uniquingKeysWith: { first, _ in first })
        builder.resolveInputs(fields: fieldIndex, computeds: computedIndex)
        fields = builder.fields
        computeds = builder.computeds
        // A computed value's slot is its position among those with a slot kind.
        var nextSlot = 0
        let slots = builder.computeds.map { computed in
            guard computed.slotKind != nil else { return -1 }
            defer { nextSlot += 1 }
            return nextSlot
        }
        self.slots = slots
        cellOffsets = builder.computeds.map(\.cellOffset)
        stampOffsets = builder.fields.map(\.stampOffset)
        memoOffset = memo.map(Builder.offset(of:)) ?? -1
        memoLayout = _MemoLayout(builder.computeds.compactMap(\.slotKind))
        memoWordsOffset = _MemoLayout.elementsOffset
        precondition(memoOffset >= 0 || memoLayout.offsets.isEmpty, "a state with memoized computed values has a memo table")
        var (dependents, ranges) = Self.dependents(fields: builder.fields.count, computeds: builder.computeds)
        // Each field's memo-table slots first: a write checks the table once, then resets them.
        for range in ranges {
            let slice = dependents[range]
            dependents.replaceSubrange(range, with: slice.filter { slots[$0] >= 0 } + slice.filter { slots[$0] < 0 })
        }
        self.dependents = dependents
        let offsets = memoLayout.offsets
        let cells = builder.computeds.indices.map { slots[$0] >= 0 ? ~offsets[slots[$0]] : builder.computeds[$0].cellOffset }
        plan = Self.plan(fields: builder.fields.count, dependents: dependents, ranges: ranges, cells: cells)
        headerOffset = _memoHeaderOffset()
        sharedComputeds = Dictionary(builder.sharedComputeds.map { (Substring($0.name), $0.version) }, uniquingKeysWith: { first, _ in first })
        // `\State.computed.total`, as user code spells it, for each computed value.
        let computedMembers = builder.extendedMembers.compactMap { keyPath, name -> (PartialKeyPath<State>, String)? in
            guard name.hasPrefix("computed."),
                let path = (storage as AnyKeyPath).appending(path: keyPath) as? PartialKeyPath<State>
            else { return nil }
            return (path, name)
        }
        stateMembers = _MemberTable(builder.stateMembers + computedMembers)
        extendedMembers = _MemberTable(builder.extendedMembers)
        fieldSelectors = builder.fields.map(\.selector)
        referenceCollectors = builder.fields.compactMap(\.references)
        computedSelectors = computeds.indices.map { computeds[$0].makeSelector(self, $0) }
        refreshes = computeds.indices.map { index in
            let refresh = computeds[index].refresh
            return { [unowned(unsafe) self] base in refresh(self, index, base) }
        }
    }

    // MARK: Selectors

    /// The selector of the field at `index`, made once with the table: generated states'
    /// `Selectors.count` (a plain or `@Edge` field's value and stamp are read in place).
    ///
    /// `Value` must be the field's type, as generated code gives it. Not inlinable: a call per
    /// access is a few instructions at run time, and inlined it was about fifty in every
    /// generated getter of every user's build.
    public func fieldSelector<Value>(_ index: Int) -> StateSelector<State, Value> {
        StateSelector(_storage: unsafeDowncast(fieldSelectors[index], to: _SelectorStorage<State, Value>.self))
    }

    /// The selector of the computed value at `index`, made once with the table: generated
    /// states' `Selectors.total` (versioned by the value's version, counting its body's runs).
    ///
    /// `Value` must be the value's type, as generated code gives it (not inlinable, as
    /// ``fieldSelector(_:)``).
    public func computedSelector<Value>(_ index: Int) -> StateSelector<State, Value> {
        StateSelector(_storage: unsafeDowncast(computedSelectors[index], to: _SelectorStorage<State, Value>.self))
    }

    deinit {
        plan.deallocate()
    }

    /// A memo table for a new state: every value is computed on its first read.
    public func makeMemoTable() -> MemoTable {
        memoLayout.make()
    }

    /// The invalidation plan (see ``plan``): field starts, then the dependents' cell offsets.
    private static func plan(fields: Int, dependents: [Int], ranges: [Range<Int>], cells: [Int]) -> UnsafeMutableBufferPointer<Int> {
        let plan = UnsafeMutableBufferPointer<Int>.allocate(capacity: fields + 1 + dependents.count)
        for (field, range) in ranges.enumerated() {
            plan[field] = fields + 1 + range.lowerBound
        }
        plan[fields] = fields + 1 + dependents.count
        for (position, computed) in dependents.enumerated() {
            plan[fields + 1 + position] = cells[computed]
        }
        return plan
    }

    /// For every field, the computed values that depend on it directly or through other computed
    /// values (each once), flattened: O(edges) per field.
    private static func dependents(fields: Int, computeds: [Computed]) -> ([Int], [Range<Int>]) {
        var readers = [[Int]](repeating: [], count: fields + computeds.count)
        for (c, computed) in computeds.enumerated() {
            for input in computed.inputs {
                switch input {
                case .field(let f), .member(let f, _): readers[f].append(c)
                case .computed(let other): readers[fields + other].append(c)
                }
            }
        }
        var flat: [Int] = []
        var ranges: [Range<Int>] = []
        var seen = [Int](repeating: -1, count: computeds.count)
        for f in 0..<fields {
            let start = flat.count
            var stack = readers[f]
            while let c = stack.popLast() {
                guard seen[c] != f else { continue }
                seen[c] = f
                flat.append(c)
                stack.append(contentsOf: readers[fields + c])
            }
            ranges.append(start..<flat.count)
        }
        return (flat, ranges)
    }

    // MARK: Refresh

    /// Brings the computed value at `index` up to date in the storage at `base` (a miss of its
    /// hit path): keeps it when no input's version moved, otherwise runs its body, and keeps the
    /// cached value and its version when the result is equal.
    public func refresh(_ index: Int, in base: UnsafeRawPointer) {
        if _slowPath(cg_change_trace_active()) {
            tracedRefresh(index, in: base)
            return
        }
        refreshes[index](base)
    }

    /// The version of the computed value at `index`, brought up to date first: it moves only
    /// when the value changed.
    public func version(ofComputed index: Int, in base: UnsafeRawPointer) -> VersionStamp {
        let header = header(ofComputed: index, in: base)
        if !cg_once_is_ready(header._once) {
            refresh(index, in: base)
        }
        return header._changedAt.pointee
    }

    /// The value of the computed value at `index`, brought up to date first. `Value` must be the
    /// value's type (``StateSelector/init(computed:of:)`` checks it once).
    func value<Value>(ofComputed index: Int, in base: UnsafeRawPointer, as _: Value.Type) -> Value {
        let header = header(ofComputed: index, in: base)
        if !cg_once_is_ready(header._once) {
            refresh(index, in: base)
        }
        return _MemoCellHeader._valuePointer(header, as: Value.self).pointee
    }

    /// How many times the body of the computed value at `index` ran.
    public func recomputations(ofComputed index: Int) -> RecomputationCounter {
        computeds[index].counter
    }

    /// The stamp of the field at `index`.
    func version(ofField index: Int, in base: UnsafeRawPointer) -> VersionStamp {
        let offset = stampOffsets[index]
        if _fastPath(offset >= 0) {
            return base.load(fromByteOffset: offset, as: VersionStamp.self)
        }
        return fields[index].version!(base)
    }

    /// Records the versions of the inputs of the computed value at `index`.
    func recordInputs(of index: Int, in base: UnsafeRawPointer, into versions: inout MemoInputs) {
        for input in computeds[index].inputs {
            versions.record(version(of: input, in: base))
        }
    }

    /// The current version of an input, brought up to date first when it is a computed value.
    func version(of input: Input, in base: UnsafeRawPointer) -> VersionStamp {
        switch input {
        case .field(let field):
            return version(ofField: field, in: base)
        case .computed(let other):
            return version(ofComputed: other, in: base)
        case .member(let field, let path):
            let nested = fields[field].memberVersion?(base, path[...])
            return nested ?? version(ofField: field, in: base)
        }
    }

    /// The header of the memo cell of the computed value at `index` in the storage at `base`: its
    /// slot in the memo table, or its own cell.
    func header(ofComputed index: Int, in base: UnsafeRawPointer) -> UnsafeMutablePointer<_MemoCellHeader> {
        let slot = slots[index]
        if slot >= 0 {
            return slotHeader(slot, in: base)
        }
        return cellHeader(at: cellOffsets[index], in: base)
    }

    /// The header of the memo table's slot at `slot` in the storage at `base`.
    func slotHeader(_ slot: Int, in base: UnsafeRawPointer) -> UnsafeMutablePointer<_MemoCellHeader> {
        let object = base.load(fromByteOffset: memoOffset, as: UnsafeMutableRawPointer.self)
        let words = object + memoWordsOffset
        return (words + words.load(fromByteOffset: slot &* MemoryLayout<Int>.stride, as: Int.self))
            .assumingMemoryBound(to: _MemoCellHeader.self)
    }

    /// The header of the memo cell stored at `offset` in the storage at `base`.
    func cellHeader(at offset: Int, in base: UnsafeRawPointer) -> UnsafeMutablePointer<_MemoCellHeader> {
        let cell = base.load(fromByteOffset: offset, as: UnsafeRawPointer.self)
        return UnsafeMutableRawPointer(mutating: cell + headerOffset).assumingMemoryBound(to: _MemoCellHeader.self)
    }

    // MARK: Invalidation

    /// Marks every computed value that depends on the field at `field` stale in the storage at
    /// `base`, after a write: in place when no other copy of the state shares the memo table (or
    /// the cell), otherwise in a copy of it that this copy of the state takes (the others keep
    /// the shared one).
    public func invalidate(afterWritingField field: Int, in base: UnsafeMutableRawPointer) {
        let plan = self.plan.baseAddress.unsafelyUnwrapped
        var position = plan[field]
        let end = plan[field + 1]
        // The memo table's slots: the table made this copy's own once, then each slot reset.
        if position < end, plan[position] < 0 {
            let words = ownMemoTable(in: base)
            repeat {
                cg_once_reset((words + ~plan[position]).assumingMemoryBound(to: _MemoCellHeader.self)._once)
                position += 1
            } while position < end && plan[position] < 0
        }
        let headerOffset = self.headerOffset
        while position < end {
            let slot = base + plan[position]
            // Any native class reference has the same representation and reference count;
            // checked as one concrete class (`isKnownUniquelyReferenced` on an `AnyObject`
            // existential answers `false` for a unique native object in unoptimized builds).
            let isUnique = slot.withMemoryRebound(to: MemoCell<UInt8>.self, capacity: 1) {
                isKnownUniquelyReferenced(&$0.pointee)
            }
            if _fastPath(isUnique) {
                let cell = slot.load(as: UnsafeMutableRawPointer.self)
                cg_once_reset((cell + headerOffset).assumingMemoryBound(to: _MemoCellHeader.self)._once)
            } else {
                replaceShared(at: position, slot)
            }
            position += 1
        }
    }

    /// The words of the memo table in the storage at `base`, after making sure that no other copy
    /// of the state shares it (by giving this copy a copy of it when one does).
    @inline(__always)
    private func ownMemoTable(in base: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        let memo = (base + memoOffset).assumingMemoryBound(to: MemoTable.self)
        if _slowPath(!isKnownUniquelyReferenced(&memo.pointee._slots)) {
            copyMemoTable(memo)
        }
        return (base + memoOffset).load(as: UnsafeMutableRawPointer.self) + memoWordsOffset
    }

    /// Gives the state a copy of the memo table it shares with other copies.
    @inline(never)
    private func copyMemoTable(_ memo: UnsafeMutablePointer<MemoTable>) {
        memo.pointee._slots = memoLayout.copy(memo.pointee._slots)
    }

    /// The unlikely path of ``invalidate(afterWritingField:in:)``, out of line so that the loop
    /// keeps few registers: the cell at `slot` (the plan's entry at `position`) is shared with
    /// another copy of the state, which keeps it; this copy gets a stale copy of it.
    @inline(never)
    private func replaceShared(at position: Int, _ slot: UnsafeMutableRawPointer) {
        let firstDependent = plan.count - dependents.count
        computeds[dependents[position - firstDependent]].replaceWithStaleCopy?(slot)
    }
}

/// Where a memo cell's type-independent header is in the cell object: the same for every value
/// type (a `ManagedBuffer`'s header follows the object header, aligned for the header type).
func _memoHeaderOffset() -> Int {
    let cell = MemoCell<UInt8>.make()
    return cell.withUnsafeMutablePointerToHeader { header in
        UnsafeRawPointer(header) - UnsafeRawPointer(Unmanaged.passUnretained(cell).toOpaque())
    }
}
