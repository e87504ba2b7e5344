/// Emits the Swift declarations for one checked state.
///
/// Storage layout (all `fileprivate`, names start with `_`, which spec names cannot):
/// - a plain field `x` is stored as `Extended._x: StoredField<T>` (value + version stamp);
/// - an `@Edge` field `x` is a property-wrapped `Extended.x`, so `$x` exists and the state exposes it
///   through `@dynamicMemberLookup`;
/// - a `@Shared` field `x` is a property-wrapped `Extended.x` (a reference, exposed as `$x`);
/// - a computed `y` is cached in a slot of `Extended.__memo: MemoTable` (one allocation for all of
///   them), in `Extended._y: IncrementalMemo<T>` when it is maintained incrementally (a `ListView`
///   or a fold of a list),
///   or in `Extended._y: SharedMemo<T>` when it reads a `@Shared` field directly or through other
///   computed values (other holders can change those).
struct StateEmitter {
    let state: CheckedState
    let source: SourceContext
    /// Fields and computeds by name (the first of a name wins, as linear searches would), so that
    /// emitting a large state stays linear in its size.
    let fieldsByName: [String: CheckedField]
    let computedsByName: [String: CheckedComputed]

    init(state: CheckedState, source: SourceContext) {
        self.state = state
        self.source = source
        fieldsByName = Dictionary(state.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        computedsByName = Dictionary(state.computeds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let sharedInputs = Self.sharedInputs(of: state)
        sharedInputsByComputed = sharedInputs
        fieldIndices = Dictionary(state.fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Each body is read for a join and a fold once (the emitter asks for every computed value
        // often). Computed values come in topological order: a join of a join finds the first.
        let fields = fieldsByName
        var joins: [String: IncrementalJoins.Join] = [:]
        for computed in state.computeds where joins[computed.name] == nil {
            if let join = Self.join(of: computed, fields: fields, joins: joins) { joins[computed.name] = join }
        }
        self.joins = joins
        let folds = state.computeds.compactMap { computed in
            Self.foldedList(of: computed, fields: fields, joins: joins).map { (computed.name, $0) }
        }
        foldedLists = Dictionary(folds, uniquingKeysWith: { first, _ in first })
        // The memo table's slots first, so that a value's slot is its index in the table; the
        // incremental values (`ListView`s, joins and folds of a list) keep cells of their own.
        let memos = state.computeds.filter { sharedInputs[$0.name]?.isEmpty ?? true }
        let isIncremental = { [foldedLists] (computed: CheckedComputed) in
            computed.isIncrementalList || foldedLists[computed.name] != nil || joins[computed.name] != nil
        }
        tableComputeds = memos.filter { !isIncremental($0) } + memos.filter(isIncremental)
        memoIndices = Dictionary(tableComputeds.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Each field's index in the state's table: its position among the fields.
    let fieldIndices: [String: Int]
    /// The `IdentifiedList` field (or join value) each recognised fold reads, by the computed
    /// value's name.
    let foldedLists: [String: String]
    /// Each recognised join (see `IncrementalJoins`), by the computed value's name.
    let joins: [String: IncrementalJoins.Join]
    /// The memoized computed values in the state's table, in its order: those cached in the memo
    /// table (whose slot is their index), then the incremental `ListView` values. Computed values
    /// over `@Shared` fields keep their own code and are not in it.
    let tableComputeds: [CheckedComputed]
    /// Each memoized computed value's index in the state's table (see ``tableComputeds``).
    let memoIndices: [String: Int]

    /// Whether a computed value is cached in a slot of the state's memo table.
    func isInMemoTable(_ computed: CheckedComputed) -> Bool {
        !isIncremental(computed) && sharedInputs(of: computed).isEmpty
    }

    func fieldIndex(of field: CheckedField) -> Int {
        fieldIndices[field.name] ?? 0
    }

    func memoIndex(of computed: CheckedComputed) -> Int {
        memoIndices[computed.name] ?? 0
    }

    /// For each computed, the `@Shared` fields it reads directly or through other computed values,
    /// and the fields holding nested states with `@Shared` values (``CheckedField/holdsNestedShared``),
    /// in declaration order. Computeds come in topological order, so one pass suffices.
    let sharedInputsByComputed: [String: [String]]

    static func sharedInputs(of state: CheckedState) -> [String: [String]] {
        // The shared fields in declaration order: filtering these, not every field, for each
        // computed keeps this linear (it was fields × computeds: most of the time on 10,000 of each).
        let sharedNames = state.fields.filter { $0.isShared || $0.holdsNestedShared }.map(\.name)
        let shared = Set(sharedNames)
        var result: [String: [String]] = [:]
        for computed in state.computeds {
            var reads: Set<String> = []
            for input in computed.inputs {
                switch input {
                case .field(let name) where shared.contains(name): reads.insert(name)
                case .field: break
                case .computed(let name): reads.formUnion(result[name] ?? [])
                }
            }
            result[computed.name] = sharedNames.filter(reads.contains)
        }
        return result
    }

    /// The `@Shared` fields a computed reads, directly or not; empty for an ordinary memo.
    func sharedInputs(of computed: CheckedComputed) -> [String] {
        sharedInputsByComputed[computed.name] ?? []
    }

    // MARK: Names

    /// The access modifier with a trailing space (`"public "`), or `""` for internal states.
    var access: String {
        switch state.decl.access {
        case .internal: ""
        case .public: "public "
        case .package: "package "
        }
    }

    var typeName: String { swiftName(state.decl.name) }

    /// Whether hit paths are `@inlinable`: a public or package state is read from other modules,
    /// where nothing else could inline its accessors. Internal states rely on whole-module
    /// optimization and keep their storage `fileprivate`.
    var isInlinable: Bool { state.decl.access != .internal }

    /// `@inlinable ` for the hit paths of public and package states, otherwise nothing.
    var inlinable: String { isInlinable ? "@inlinable " : "" }

    /// The access of storage and helpers that inlinable hit paths touch.
    var storageAccess: String { isInlinable ? "@usableFromInline internal " : "fileprivate " }

    /// `@inlinable ` before a getter of a public or package state.
    var inlinableGet: String { isInlinable ? "@inlinable get" : "get" }

    var edgeFields: [CheckedField] {
        state.fields.filter(\.isEdge)
    }

    var sharedFields: [CheckedField] {
        state.fields.filter(\.isShared)
    }

    /// Fields stored behind a property wrapper in `Extended` (`@Edge`, `@Shared`), whose `$name`
    /// the state exposes through dynamic member lookup.
    func isWrapped(_ field: CheckedField) -> Bool {
        field.isEdge || field.isShared
    }

    /// A spec name as a Swift identifier: backticked when the spec backticked it.
    func swiftName(_ identifier: Identifier) -> String {
        identifier.isEscaped ? "`\(identifier.name)`" : identifier.name
    }

    /// A selector parameter's explicit label in a declaration: `_` (even when the spec wrote
    /// `` `_` ``, which Swift would read as a label named `_`) means no label, as in every call.
    func labelName(_ label: Identifier) -> String {
        if label.name == "_" { return "_" }
        return label.isEscaped ? swiftName(label) : SwiftSpelling.parameterLabel(label.name)
    }

    func swiftName(of input: Input) -> String {
        switch input {
        case .field(let name):
            fieldsByName[name].map { swiftName($0.decl.name) } ?? name
        case .computed(let name):
            computedsByName[name].map { swiftName($0.decl.name) } ?? name
        }
    }

    func field(named name: String) -> CheckedField? {
        fieldsByName[name]
    }

    /// The expression, inside `Extended`, that reads an input's current value.
    func readExpression(of input: Input) -> String {
        switch input {
        case .field(let name):
            guard let field = field(named: name) else { return name }
            if isWrapped(field) { return "self." + swiftName(field.decl.name) }
            return "_\(name).wrappedValue"
        case .computed:
            return "self." + swiftName(of: input)
        }
    }

    // MARK: Emission

    func emit(into writer: inout CodeWriter) {
        emitStruct(into: &writer)
        emitSpecFragments(into: &writer)
        writer.line()
        emitExtended(into: &writer)
        writer.line()
        emitSelectors(into: &writer)
        writer.line()
        emitBodies(into: &writer)
        let conformances = ConformanceEmitter(state: state, access: access, typeName: typeName)
        conformances.emit(into: &writer)
        TableEmitter(emitter: self).emit(into: &writer)
    }

    // MARK: The state struct

    func emitStruct(into writer: inout CodeWriter) {
        writer.doc(state.decl.doc?.lines ?? [])
        if !edgeFields.isEmpty || !sharedFields.isEmpty {
            writer.line("@dynamicMemberLookup")
        }
        writer.block("\(access)struct \(typeName)\(inheritanceClause)") { writer in
            var doc = [
                "The memoized computed values of this state (and its stored fields and memo cells).",
                "",
                "Each value is computed on its first read and cached until one of its inputs changes;",
                "reading it again costs about as much as reading a stored property.",
            ]
            if isInlinable {
                doc += ["", "Only another state's `computed` can be assigned to it, which is the same as assigning that state."]
            }
            writer.doc(doc)
            // A stored property, not an accessor: `state.computed.x` then projects the storage in
            // place wherever the state lives (a `var`, a parameter, a class property); an accessor
            // would load, hence copy, the whole storage first.
            if isInlinable {
                // Settable from other modules, so that the inlinable field setters below can write
                // it. Safe: `Extended`'s members have no public setters and its initializer is
                // private to this file, so the only thing another module can assign is another
                // state's `computed`, which is assigning that state.
                writer.line("\(access)var computed: Extended")
            } else {
                writer.line("fileprivate(set) var computed: Extended")
            }
            writer.line()
            emitInit(into: &writer)
            for field in state.fields {
                writer.line()
                emitAccessor(for: field, into: &writer)
            }
            if !state.computeds.isEmpty {
                writer.line()
                writer.line("// Computed values are read as `state.computed.x`: these say so when one is used as a field.")
                for computed in state.computeds {
                    emitMisreadGuard(for: computed, into: &writer)
                }
            }
            if !edgeFields.isEmpty {
                writer.line()
                writer.doc([
                    "The `Edge` of an `@Edge` field, as `state.$field`: its version stamp and value.",
                ])
                writer.line("\(access)subscript<Value>(dynamicMember keyPath: KeyPath<Extended, \(RuntimeNames.edge)<Value>>) -> \(RuntimeNames.edge)<Value> {")
                writer.line("    computed[keyPath: keyPath]")
                writer.line("}")
            }
            if !sharedFields.isEmpty {
                writer.line()
                writer.doc([
                    "The reference of a `@Shared` field, as `state.$field`: hand it to another state,",
                    "`withLock` it, or stream its `values`.",
                ])
                writer.line("\(access)subscript<Value>(dynamicMember keyPath: KeyPath<Extended, \(RuntimeNames.shared)<Value>>) -> \(RuntimeNames.shared)<Value> {")
                writer.line("    computed[keyPath: keyPath]")
                writer.line("}")
            }
            if !edgeFields.isEmpty || !sharedFields.isEmpty {
                writer.line()
                emitMissingMemberGuard(into: &writer)
            }
        }
    }

    /// `: Sendable` for non-internal states (implicit inference covers internal ones). The spec's
    /// other conformances are extensions at their spec positions (`emitSpecConformances`).
    var inheritanceClause: String {
        state.decl.access != .internal ? ": Sendable" : ""
    }

    func emitInit(into writer: inout CodeWriter) {
        if state.fields.isEmpty {
            writer.doc(["Creates a state."])
            writer.block("\(access)init()") { writer in
                writer.line(state.computeds.isEmpty ? "computed = Extended()" : "computed = Extended.__make()")
            }
            return
        }
        var doc = ["Creates a state; every field without a value in the spec must be given."]
        if !sharedFields.isEmpty {
            doc += [
                "",
                "A `@Shared` field's value is used only when its storage has none yet; to share an",
                "existing reference instead, use the initializer that takes `Shared` values.",
            ]
        }
        writer.doc(doc)
        emitInit(sharedByReference: false, into: &writer)
        if !sharedFields.isEmpty {
            writer.line()
            writer.doc([
                "Creates a state whose `@Shared` fields use existing references, as",
                "`ChildState(count: parent.$count)`: every holder sees the others' writes.",
            ])
            emitInit(sharedByReference: true, into: &writer)
        }
    }

    func emitInit(sharedByReference: Bool, into writer: inout CodeWriter) {
        writer.line("\(access)init(")
        for (index, field) in state.fields.enumerated() {
            let separator = index == state.fields.count - 1 ? "" : ","
            let name = swiftName(field.decl.name)
            if sharedByReference && field.isShared {
                writer.line("    \(name): \(RuntimeNames.shared)<\(publicType(field))>\(separator)")
            } else {
                let defaultClause = field.decl.defaultValue == nil ? "" : " = Extended.\(SpecFragmentNames.defaultValue(of: field))"
                writer.line("    \(name): \(publicType(field))\(defaultClause)\(separator)")
            }
        }
        writer.block(")") { writer in
            let arguments = state.fields.map { field -> String in
                let label = SwiftSpelling.argumentLabel(field.decl.name.name)
                let name = swiftName(field.decl.name)
                if field.isShared, !sharedByReference {
                    let strategy = SpecFragmentNames.attributeArgument("Strategy", of: field, occurrence: 1)
                    return "\(label): \(RuntimeNames.shared)(wrappedValue: \(name), Extended.\(strategy))"
                }
                return "\(label): \(name)"
            }
            writer.call("computed = Extended.__make", arguments: arguments)
        }
    }

    func emitAccessor(for field: CheckedField, into writer: inout CodeWriter) {
        let name = swiftName(field.decl.name)
        writer.doc(field.decl.doc?.lines ?? [])
        if field.isShared {
            // A reference: writing it changes the value for every holder, so the setter does not
            // mutate the state, and computed values over it check its version on each read.
            writer.block("\(access)var \(name): \(publicType(field))") { writer in
                writer.line("\(inlinableGet) { computed.\(name) }")
                writer.line("nonmutating set { computed.\(name) = newValue }")
            }
            return
        }
        let value = field.isEdge ? "computed.\(name)" : "computed._\(field.name).wrappedValue"
        // Writes of plain fields inline into other modules too: the stamp and the store, with the
        // change hook (which marks dependents stale) out of line. An `@Edge` field's wrapper
        // setter is `fileprivate`, so its writes stay out of line.
        let inlinableWrite = isInlinable && !field.isEdge ? "@inlinable " : ""
        writer.block("\(access)var \(name): \(publicType(field))") { writer in
            writer.line("\(inlinableGet) { \(value) }")
            if !field.isEdge {
                // An assignment of an equal value (when the type is Equatable: `update` has an
                // overload for that) is no change: no stamp, nothing invalidated. `@Edge` fields
                // keep Verge's rule, every write is a new version, so they have no setter.
                if let hook = changeHook(of: field) {
                    writer.line("\(inlinableWrite)set { if computed._\(field.name).update(newValue) { computed.\(hook) } }")
                } else {
                    writer.line("\(inlinableWrite)set { computed._\(field.name).update(newValue) }")
                }
            }
            // In place: the field's storage takes a new stamp, then the hook marks what it feeds.
            let hook = changeHook(of: field).map { "defer { computed.\($0) }; " } ?? ""
            writer.line("\(inlinableWrite)_modify { \(hook)yield &\(value) }")
        }
    }

    /// Whether a field feeds computed values over `@Shared` fields: its writes then call a hook
    /// of its own, which also keys those cells on its new stamp.
    func needsChangeHook(_ field: CheckedField) -> Bool {
        !field.isShared && field.dependents.contains { computedsByName[$0].map(isShared) ?? false }
    }

    /// The call, on `computed`, that marks what a field feeds as stale after a write:
    /// `__didChange(2)` (the table's invalidation), the field's own hook, or `nil` when the
    /// field feeds nothing.
    func changeHook(of field: CheckedField) -> String? {
        if field.isShared || field.dependents.isEmpty { return nil }
        return needsChangeHook(field) ? "\(changeHookName(field))()" : "__didChange(\(fieldIndex(of: field)))"
    }

    /// The method that invalidates what a field feeds. Generated helpers start with two
    /// underscores: storage is `_` + a spec name, and spec names cannot start with `_`, so the
    /// two can never collide.
    func changeHookName(_ field: CheckedField) -> String {
        "__\(field.name)DidChange"
    }

    func isShared(_ computed: CheckedComputed) -> Bool {
        !sharedInputs(of: computed).isEmpty
    }
}
