/// The entries of a ``StateTable``, and the calls generated code describes them with.
extension StateTable {
    /// A field: where its stamp is, and how to read its value and its members' versions.
    struct Field {
        let name: String
        /// The byte offset of the field's `VersionStamp` in the storage; -1 when `version` reads it.
        let stampOffset: Int
        let version: ((UnsafeRawPointer) -> VersionStamp)?
        /// The version of a member of the field's value (`"computed.total"`), when its type is a
        /// generated state; `nil` for any other type.
        let memberVersion: ((UnsafeRawPointer, Substring) -> VersionStamp?)?
        /// The value, for the mirror.
        let value: (UnsafeRawPointer) -> Any
        /// Calls its second argument with each shared reference the field holds: a `@Shared`
        /// field's, or those of a nested generated state; `nil` when it can hold none.
        let references: ((UnsafeRawPointer, (any _SharedReference) -> Void) -> Void)?
        /// The storage of the field's selector (`Selectors.count`), made once with the table.
        let selector: AnyObject
        /// The version of the field's value when it is an ``IdentifiedList`` (see
        /// `StateTable+Incremental.swift`); `nil` for any other type.
        var listVersion: ((UnsafeRawPointer) -> ListVersion)? = nil
    }

    /// A computed value over `@Shared` fields: its version, read after bringing it up to date.
    struct SharedComputed {
        let name: String
        let version: (UnsafeRawPointer) -> VersionStamp
    }

    /// A memoized computed value: where its cell is, its inputs, and how to refresh it.
    struct Computed {
        let name: String
        /// The offset in the storage of its own `MemoCell` (an ``IncrementalMemo``'s), or -1 when
        /// it is cached in the next slot of the state's ``MemoTable`` (it has a `slotKind`).
        let cellOffset: Int
        /// The value's type (the cell holds a `Value?`).
        let valueType: Any.Type
        /// The inputs as the entry gave them, and resolved to indices by the table's `init`
        /// (shared with a refresh that reads them itself).
        let declaredInputs: StaticString
        let resolvedInputs: ResolvedInputs
        var inputs: [Input] { resolvedInputs.inputs }
        /// Refreshes the cell (see ``StateTable/refresh(_:in:)``), typed for the value.
        let refresh: (StateTable, Int, UnsafeRawPointer) -> Void
        /// Replaces the cell at the given address (which another copy shares) by a stale copy;
        /// `nil` for a slot (the table is copied as a whole).
        let replaceWithStaleCopy: ((UnsafeMutableRawPointer) -> Void)?
        let counter: RecomputationCounter
        /// Makes the storage of the value's selector (`Selectors.total`), once the table exists.
        let makeSelector: (StateTable, Int) -> AnyObject
        /// How to make, copy and destroy its slot; `nil` for a cell of its own.
        let slotKind: _MemoSlotKind?
    }
}

extension StateTable.Builder {
    /// A plain field: its name, its storage, and the key paths user code reads it by, on the
    /// state (`\.count`) and on `state.computed` (`\.count`).
    public mutating func field<Value>(
        _ name: String,
        _ storage: KeyPath<Extended, StoredField<Value>>,
        _ state: KeyPath<State, Value>,
        _ extended: KeyPath<Extended, Value>
    ) {
        let offset = Self.offset(of: storage)
        appendStored(
            name,
            valueAt: offset + MemoryLayout<StoredField<Value>>.offset(of: \StoredField<Value>._value)!,
            stampAt: offset + MemoryLayout<StoredField<Value>>.offset(of: \StoredField<Value>._version)!,
            as: Value.self
        )
        stateMembers.append((state, name))
        extendedMembers.append((extended, name))
    }

    /// An `@Edge` field: its name, its storage (`\._avatar`) and the key path user code reads it
    /// by on the state. (`state.computed.avatar` is tracked as the whole state: its setter is
    /// visible in the generated file only, so a key path made there would not equal the user's.)
    public mutating func edge<Value>(_ name: String, _ storage: KeyPath<Extended, Edge<Value>>, _ state: KeyPath<State, Value>) {
        let offset = Self.offset(of: storage)
        appendStored(
            name,
            valueAt: offset + MemoryLayout<Edge<Value>>.offset(of: \Edge<Value>._value)!,
            stampAt: offset + MemoryLayout<Edge<Value>>.offset(of: \Edge<Value>._version)!,
            as: Value.self
        )
        stateMembers.append((state, name))
    }

    /// A field whose value and stamp are stored in the state (a plain or an `@Edge` field), at
    /// these offsets: read in place by its version, its members' versions, the mirror and its
    /// selector.
    private mutating func appendStored<Value>(_ name: String, valueAt valueOffset: Int, stampAt stampOffset: Int, as _: Value.Type) {
        let references = Self.references(of: Value.self, at: valueOffset)
        // A nested state's `@Shared` values change through other holders without a write to the
        // field: its selector keys caches on their stamps as well as on the field's.
        let selector = references.map { StateSelector<State, Value>(_valueAt: valueOffset, stampAt: stampOffset, sharedReferences: $0) }
            ?? StateSelector<State, Value>(_valueAt: valueOffset, stampAt: stampOffset)
        fields.append(StateTable.Field(
            name: name,
            stampOffset: stampOffset,
            version: nil,
            memberVersion: Self.memberVersion(of: Value.self, at: valueOffset),
            value: { $0.load(fromByteOffset: valueOffset, as: Value.self) },
            references: references,
            selector: selector._storage,
            listVersion: Self.listVersion(of: Value.self, at: valueOffset)
        ))
    }

    /// A `@Shared` field: its name, its storage (`\._session`) and the key path user code reads
    /// it by on the state. Its version is the shared reference's, read on every call.
    public mutating func shared<Value>(_ name: String, _ storage: KeyPath<Extended, Shared<Value>>, _ state: KeyPath<State, Value>) {
        let offset = Self.offset(of: storage)
        fields.append(StateTable.Field(
            name: name,
            stampOffset: -1,
            version: { $0.load(fromByteOffset: offset, as: Shared<Value>.self).version },
            memberVersion: nil,
            value: { $0.load(fromByteOffset: offset, as: Shared<Value>.self).wrappedValue },
            references: { $1($0.load(fromByteOffset: offset, as: Shared<Value>.self).box) },
            selector: StateSelector<State, Value>(
                _select: { root in Self.shared(at: offset, in: root, as: Value.self).wrappedValue },
                _version: { root in Self.shared(at: offset, in: root, as: Value.self).version },
                _counter: nil
            )._storage
        ))
        stateMembers.append((state, name))
    }

    /// A computed value over `@Shared` fields (cached in a ``SharedMemo``, refreshed by its
    /// accessor): its name, its cell and the key path user code reads it by on `state.computed`,
    /// so that a store observes it alone, by the stamp its cell takes when its value changes.
    public mutating func sharedComputed<Value>(
        _ name: String,
        _ cell: KeyPath<Extended, SharedMemo<Value>>,
        _ extended: KeyPath<Extended, Value>
    ) {
        let offset = Self.offset(of: cell)
        sharedComputeds.append(StateTable.SharedComputed(name: name) { base in
            // Brought up to date through its accessor, then its cell says when it last changed.
            _ = base.assumingMemoryBound(to: Extended.self).pointee[keyPath: extended]
            return base.load(fromByteOffset: offset, as: SharedMemo<Value>.self)._cell.changedAt
        })
        extendedMembers.append((extended, "computed." + name))
    }

    /// A memoized computed value whose result is compared with the cached one (early cutoff,
    /// unless `cutoff` is `false`), cached in the next slot of the state's ``MemoTable``: its
    /// name, the key path user code reads it by on `state.computed`, its inputs (by name), and its
    /// body, called with the storage and reading exactly its inputs.
    ///
    /// Inlinable, so that the comparison is specialized where the table is described (in the
    /// state's module, once per value type): an unspecialized `==` of an array calls a witness
    /// per element, three times the cost of the recomputation it cuts off.
    @inlinable
    public mutating func computed<Value: Equatable>(
        _ name: String,
        _ extended: KeyPath<Extended, Value>,
        inputs: StaticString,
        cutoff: Bool = true,
        _ body: @escaping (UnsafePointer<Extended>) -> Value
    ) {
        let isEqual: (Value, Value) -> Bool = _isEqualForCutoff
        appendSlot(name, extended, inputs: inputs, isEqual: cutoff ? isEqual : nil, body)
    }

    /// A memoized computed value whose type is not `Equatable` (no early cutoff; `cutoff` is
    /// there so that both overloads take the same arguments, and the `Equatable` one is chosen
    /// whenever it applies).
    public mutating func computed<Value>(
        _ name: String,
        _ extended: KeyPath<Extended, Value>,
        inputs: StaticString,
        cutoff: Bool = true,
        _ body: @escaping (UnsafePointer<Extended>) -> Value
    ) {
        appendSlot(name, extended, inputs: inputs, isEqual: nil, body)
    }

    @usableFromInline
    mutating func appendSlot<Value>(
        _ name: String,
        _ extended: KeyPath<Extended, Value>,
        inputs: StaticString,
        isEqual: ((Value, Value) -> Bool)?,
        _ body: @escaping (UnsafePointer<Extended>) -> Value
    ) {
        let counter = RecomputationCounter()
        appendEntry(
            name, cellAt: -1, extended, inputs: inputs, counter: counter,
            refresh: { table, index, base in
                let header = table.header(ofComputed: index, in: base)
                _ = _MemoCellHeader._refresh(
                    header,
                    _MemoCellHeader._valuePointer(header, as: Value.self),
                    verifies: true,
                    { table.recordInputs(of: index, in: base, into: &$0) },
                    {
                        counter.increment()
                        // The storage is an `Extended` (or the state around it, of the same layout).
                        return body(base.assumingMemoryBound(to: Extended.self))
                    },
                    isEqual
                )
            },
            replaceWithStaleCopy: nil,
            slotKind: _TypedMemoSlotKind<Value>()
        )
    }

    /// Appends a memoized computed value's entry, cached in the memo table's next slot (with a
    /// `slotKind`), or in a `MemoCell<Value>` `offset` bytes into the storage; and its key path on
    /// `state.computed`.
    mutating func appendEntry<Value>(
        _ name: String,
        cellAt offset: Int,
        _ extended: KeyPath<Extended, Value>,
        inputs: StaticString,
        counter: RecomputationCounter,
        refresh: @escaping (StateTable, Int, UnsafeRawPointer) -> Void,
        replaceWithStaleCopy: ((UnsafeMutableRawPointer) -> Void)?,
        slotKind: _MemoSlotKind? = nil,
        resolvedInputs: StateTable.ResolvedInputs = StateTable.ResolvedInputs()
    ) {
        computeds.append(StateTable.Computed(
            name: name,
            cellOffset: offset,
            valueType: Value.self,
            declaredInputs: inputs,
            resolvedInputs: resolvedInputs,
            refresh: refresh,
            replaceWithStaleCopy: replaceWithStaleCopy,
            counter: counter,
            makeSelector: { table, index in StateSelector<State, Value>(computed: index, of: table)._storage },
            slotKind: slotKind
        ))
        extendedMembers.append((extended, "computed." + name))
    }

    /// The `Shared` reference stored `offset` bytes into a state.
    private static func shared<Value>(at offset: Int, in root: State, as _: Value.Type) -> Shared<Value> {
        withUnsafePointer(to: root) { UnsafeRawPointer($0).load(fromByteOffset: offset, as: Shared<Value>.self) }
    }

    /// The byte offset of a stored property in the storage.
    static func offset<Value>(of storage: KeyPath<Extended, Value>) -> Int {
        guard let offset = MemoryLayout<Extended>.offset(of: storage) else {
            preconditionFailure("a StateTable entry's storage must be a stored property of the state's storage")
        }
        return offset
    }

    /// Visits the shared references of a field's value in place, when `Value` is a generated
    /// state that holds any.
    private static func references<Value>(of _: Value.Type, at offset: Int) -> (@Sendable (UnsafeRawPointer, (any _SharedReference) -> Void) -> Void)? {
        guard let witness = _SharedReferences<Value>().witness else { return nil }
        return { base, visit in witness.visit(base + offset, visit) }
    }

    /// Reads the version of a member of a field's value in place, when `Value` is a generated state.
    private static func memberVersion<Value>(of _: Value.Type, at offset: Int) -> ((UnsafeRawPointer, Substring) -> VersionStamp?)? {
        guard let witness = _MemberVersions<Value>().witness else { return nil }
        return { base, path in
            path.isEmpty ? nil : witness.memberVersion(UnsafeMutableRawPointer(mutating: base + offset), path)
        }
    }
}

/// `==` as a function, specialized in the module that calls it through an inlinable entry (the
/// `Equatable` overload of `StateTable.Builder.computed`): once per value type, not per member.
@inlinable
func _isEqualForCutoff<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
    lhs == rhs
}
