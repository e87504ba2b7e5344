/// The selectors generated states declare for their fields and computed values, made from where
/// the member is stored rather than from closures compiled once per member.
extension StateSelector {
    /// A versioned selector of a field kept in a ``StoredField`` (as generated states keep their
    /// plain fields): the value and its stamp are read in place.
    ///
    /// ```swift
    /// static let todos = StateSelector<TodoState, [Todo]>(field: \TodoState.computed._todos)
    /// ```
    ///
    /// A memoized selector made from this one reads the stamp straight from the state's memory on
    /// its hit path. When `field` is not a path of stored properties, both are read through the
    /// key path instead.
    public init(field: KeyPath<Root, StoredField<Value>> & Sendable) {
        guard let fieldOffset = MemoryLayout<Root>.offset(of: field) else {
            self.init(field: field) { $0[keyPath: field]._value }
            return
        }
        self.init(
            _valueAt: fieldOffset + MemoryLayout<StoredField<Value>>.offset(of: \StoredField<Value>._value)!,
            stampAt: fieldOffset + MemoryLayout<StoredField<Value>>.offset(of: \StoredField<Value>._version)!
        )
    }

    /// A versioned selector of a value stored `valueOffset` bytes into the root, whose stamp is
    /// stored `stampOffset` bytes into it: both are read in place.
    init(_valueAt valueOffset: Int, stampAt stampOffset: Int) {
        self.init(
            _select: { root in
                withUnsafePointer(to: root) { UnsafeRawPointer($0).load(fromByteOffset: valueOffset, as: Value.self) }
            },
            _version: { root in _stamp(of: root, at: stampOffset) },
            _counter: nil,
            _versionOffset: stampOffset
        )
    }

    /// A selector of a field stored `valueOffset` bytes into the root whose value holds `@Shared`
    /// values (a nested generated state's): keyed on the field's stamp, stored `stampOffset`
    /// bytes into the root, and on the current stamps of those values, which other holders of the
    /// same keys write without touching the field. Unversioned: one stamp cannot say all that.
    init(
        _valueAt valueOffset: Int,
        stampAt stampOffset: Int,
        sharedReferences references: @escaping @Sendable (UnsafeRawPointer, (any _SharedReference) -> Void) -> Void
    ) {
        self.init(_storage: _SelectorStorage(
            select: { root in
                withUnsafePointer(to: root) { UnsafeRawPointer($0).load(fromByteOffset: valueOffset, as: Value.self) }
            },
            version: nil,
            counter: nil,
            isMemo: false,
            stamps: { root, stamps in
                withUnsafePointer(to: root) { pointer in
                    let base = UnsafeRawPointer(pointer)
                    stamps.record(_stamp(in: base, at: stampOffset))
                    references(base) { stamps.record($0.version) }
                }
            }
        ))
    }

    /// A versioned selector of the memoized computed value at `index` in a generated state's
    /// table: it reads the value from the state's memo cell (bringing it up to date first), its
    /// version is the value's, and its ``recomputations`` the count of the value's body.
    ///
    /// ```swift
    /// static let total = StateSelector<Cart, Int>(computed: 1, of: Extended.__table)
    /// ```
    ///
    /// No closure is compiled per selector: the table knows where the cell is.
    public init<Storage>(computed index: Int, of table: StateTable<Root, Storage>) {
        precondition(
            table.computeds[index].valueType == Value.self,
            "computed value \(index) of \(Root.self) is a \(table.computeds[index].valueType), not a \(Value.self)"
        )
        self.init(_storage: _SelectorStorage(
            select: { root in
                withUnsafePointer(to: root) { table.value(ofComputed: index, in: UnsafeRawPointer($0), as: Value.self) }
            },
            version: { root in
                withUnsafePointer(to: root) { table.version(ofComputed: index, in: UnsafeRawPointer($0)) }
            },
            counter: table.recomputations(ofComputed: index),
            isMemo: false,
            memoOffset: table.memoOffset,
            slot: table.slots[index]
        ))
    }
}
