/// Emits the Swift declarations for one checked state.
///
/// Storage layout (all `fileprivate`, names start with `_`, which spec names cannot):
/// - a plain field `x` is stored as `Extended._x: Edge<T>` (value + version stamp, no middleware);
/// - an `@Edge` field `x` is a property-wrapped `Extended.x`, so `$x` exists and the state exposes it
///   through `@dynamicMemberLookup`;
/// - a `@Shared` field `x` is a property-wrapped `Extended.x` (a reference, exposed as `$x`);
/// - a computed `y` is cached in `Extended._y: Memo<T>`, or in a `SharedMemo<T>` when it reads a
///   `@Shared` field directly or through other computed values (other holders can change those).
struct StateEmitter {
    let state: CheckedState
    let source: SourceContext
    /// Fields and computeds by name (the first of a name wins, as linear searches would), so that
    /// emitting a large state stays linear in its size.
    private let fieldsByName: [String: CheckedField]
    private let computedsByName: [String: CheckedComputed]

    init(state: CheckedState, source: SourceContext) {
        self.state = state
        self.source = source
        fieldsByName = Dictionary(state.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        computedsByName = Dictionary(state.computeds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        sharedInputsByComputed = Self.sharedInputs(of: state)
    }

    /// For each computed, the `@Shared` fields it reads directly or through other computed values,
    /// in declaration order. Computeds come in topological order, so one pass suffices.
    private let sharedInputsByComputed: [String: [String]]

    private static func sharedInputs(of state: CheckedState) -> [String: [String]] {
        // The shared fields in declaration order: filtering these, not every field, for each
        // computed keeps this linear (it was fields × computeds: most of the time on 10,000 of each).
        let sharedNames = state.fields.filter(\.isShared).map(\.name)
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
    private func sharedInputs(of computed: CheckedComputed) -> [String] {
        sharedInputsByComputed[computed.name] ?? []
    }

    // MARK: Names

    /// The access modifier with a trailing space (`"public "`), or `""` for internal states.
    private var access: String {
        switch state.decl.access {
        case .internal: ""
        case .public: "public "
        case .package: "package "
        }
    }

    private var typeName: String { swiftName(state.decl.name) }

    private var edgeFields: [CheckedField] {
        state.fields.filter(\.isEdge)
    }

    private var sharedFields: [CheckedField] {
        state.fields.filter(\.isShared)
    }

    /// Fields stored behind a property wrapper in `Extended` (`@Edge`, `@Shared`), whose `$name`
    /// the state exposes through dynamic member lookup.
    private func isWrapped(_ field: CheckedField) -> Bool {
        field.isEdge || field.isShared
    }

    /// A spec name as a Swift identifier: backticked when the spec backticked it.
    private func swiftName(_ identifier: Identifier) -> String {
        identifier.isEscaped ? "`\(identifier.name)`" : identifier.name
    }

    /// A selector parameter's explicit label in a declaration: `_` (even when the spec wrote
    /// `` `_` ``, which Swift would read as a label named `_`) means no label, as in every call.
    private func labelName(_ label: Identifier) -> String {
        if label.name == "_" { return "_" }
        return label.isEscaped ? swiftName(label) : SwiftSpelling.parameterLabel(label.name)
    }

    private func swiftName(of input: Input) -> String {
        switch input {
        case .field(let name):
            fieldsByName[name].map { swiftName($0.decl.name) } ?? name
        case .computed(let name):
            computedsByName[name].map { swiftName($0.decl.name) } ?? name
        }
    }

    private func field(named name: String) -> CheckedField? {
        fieldsByName[name]
    }

    /// The expression, inside `Extended`, that reads an input's current value.
    private func readExpression(of input: Input) -> String {
        switch input {
        case .field(let name):
            guard let field = field(named: name) else { return name }
            if isWrapped(field) { return "self." + swiftName(field.decl.name) }
            return "_\(name).wrappedValue"
        case .computed:
            return "self." + swiftName(of: input)
        }
    }

    /// The expression, on a state `$0`, that reads a field's version stamp.
    private func versionExpression(of field: CheckedField) -> String {
        if isWrapped(field) {
            return "$0.computed.$\(field.name).version"
        }
        return "$0.computed._\(field.name).version"
    }

    // MARK: Emission

    func emit(into writer: inout CodeWriter) {
        emitStruct(into: &writer)
        writer.line()
        emitExtended(into: &writer)
        writer.line()
        emitSelectors(into: &writer)
        writer.line()
        emitBodies(into: &writer)
        let conformances = ConformanceEmitter(state: state, access: access, typeName: typeName)
        conformances.emit(into: &writer)
        MemberVersionEmitter(state: state, access: access, typeName: typeName, isShared: isShared).emit(into: &writer)
    }

    // MARK: The state struct

    private func emitStruct(into writer: inout CodeWriter) {
        writer.doc(state.decl.doc?.lines ?? [])
        if !edgeFields.isEmpty || !sharedFields.isEmpty {
            writer.line("@dynamicMemberLookup")
        }
        writer.block("\(access)struct \(typeName)\(inheritanceClause)") { writer in
            writer.doc([
                "The memoized computed values of this state (and its stored fields and memo cells).",
                "",
                "Each value is computed on its first read and cached until one of its inputs changes;",
                "reading it again costs about as much as reading a stored property.",
            ])
            // A stored property, not an accessor: `state.computed.x` then projects the storage in
            // place wherever the state lives (a `var`, a parameter, a class property); an accessor
            // would load, hence copy, the whole storage first.
            writer.line("\(access)fileprivate(set) var computed: Extended")
            writer.line()
            emitInit(into: &writer)
            for field in state.fields {
                writer.line()
                emitAccessor(for: field, into: &writer)
            }
            for computed in state.computeds {
                writer.line()
                emitMisreadGuard(for: computed, into: &writer)
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
                // Without this, a misspelled member in a context that expects a type (`return
                // state.visibelCount` from an `Int` function) makes Swift 6.3 fail to produce any
                // diagnostic while it tries the key-path subscripts above.
                writer.doc(["Any other name: an error that says where members are, instead of a compiler failure."])
                let message = "\(state.name) has no member of this name: fields are 'state.field', computed values 'state.computed.value', the Edge or Shared of a field 'state.$field'"
                writer.line("@available(*, unavailable, message: \"\(message)\")")
                writer.line("\(access)subscript(dynamicMember member: Swift.String) -> Swift.Never { Swift.fatalError() }")
            }
        }
    }

    /// `: Sendable, P, Q` — explicit `Sendable` for non-internal states (implicit inference
    /// covers internal ones), then the spec's conformances that are not emitted as extensions.
    private var inheritanceClause: String {
        var names: [String] = []
        if state.decl.access != .internal { names.append("Sendable") }
        for conformance in state.decl.conformances
        where !ConformanceEmitter.handled.contains(conformance.name) && !names.contains(conformance.name) {
            names.append(swiftName(conformance))
        }
        return names.isEmpty ? "" : ": " + names.joined(separator: ", ")
    }

    private func emitInit(into writer: inout CodeWriter) {
        if state.fields.isEmpty {
            writer.doc(["Creates a state."])
            writer.block("\(access)init()") { writer in
                writer.line("computed = Extended()")
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

    private func emitInit(sharedByReference: Bool, into writer: inout CodeWriter) {
        writer.line("\(access)init(")
        for (index, field) in state.fields.enumerated() {
            let separator = index == state.fields.count - 1 ? "" : ","
            let name = swiftName(field.decl.name)
            if sharedByReference && field.isShared {
                writer.line("    \(name): \(RuntimeNames.shared)<\(field.type)>\(separator)")
            } else {
                let defaultClause = field.decl.defaultValue.map { " = \($0.text)" } ?? ""
                writer.line("    \(name): \(field.type)\(defaultClause)\(separator)")
            }
        }
        writer.block(")") { writer in
            let arguments = state.fields.map { field -> String in
                let label = SwiftSpelling.argumentLabel(field.decl.name.name)
                let name = swiftName(field.decl.name)
                if case .shared(let strategy) = field.kind, !sharedByReference {
                    return "\(label): \(RuntimeNames.shared)(wrappedValue: \(name), \(strategy.text))"
                }
                return "\(label): \(name)"
            }
            writer.call("computed = Extended", arguments: arguments)
        }
    }

    private func emitAccessor(for field: CheckedField, into writer: inout CodeWriter) {
        let name = swiftName(field.decl.name)
        writer.doc(field.decl.doc?.lines ?? [])
        if field.isShared {
            // A reference: writing it changes the value for every holder, so the setter does not
            // mutate the state, and computed values over it check its version on each read.
            writer.block("\(access)var \(name): \(field.type)") { writer in
                writer.line("get { computed.\(name) }")
                writer.line("nonmutating set { computed.\(name) = newValue }")
            }
            return
        }
        let storage = field.isEdge ? "computed.\(name)" : "computed._\(field.name).wrappedValue"
        writer.block("\(access)var \(name): \(field.type)") { writer in
            writer.line("get { \(storage) }")
            if !field.isEdge {
                // An assignment of an equal value (when the type is Equatable: `update` has an
                // overload for that) is no change: no stamp, nothing invalidated. `@Edge` fields
                // keep Verge's rule, every write is a new version, so they have no setter.
                if needsChangeHook(field) {
                    writer.line("set { if computed._\(field.name).update(newValue) { computed.\(changeHookName(field))() } }")
                } else {
                    writer.line("set { computed._\(field.name).update(newValue) }")
                }
            }
            writer.block("_modify") { writer in
                if needsChangeHook(field) {
                    writer.line("defer { computed.\(changeHookName(field))() }")
                }
                writer.line("yield &\(storage)")
            }
        }
    }

    /// `state.visibleCount` (without `.computed`) fails with a message that names the fix, instead
    /// of "has no member" (or, through the dynamic member lookup of a state with `@Edge` fields,
    /// a compiler failure to produce any diagnostic). `Never`: it can never be read.
    private func emitMisreadGuard(for computed: CheckedComputed, into writer: inout CodeWriter) {
        let name = swiftName(computed.decl.name)
        writer.doc(["`\(computed.name)` is a computed value: read it as `state.computed.\(computed.name)`."])
        writer.line("@available(*, unavailable, message: \"'\(computed.name)' is a computed value: read it as 'state.computed.\(computed.name)'\")")
        writer.line("\(access)var \(name): Swift.Never { Swift.fatalError() }")
    }

    private func needsChangeHook(_ field: CheckedField) -> Bool {
        !field.isShared && !field.dependents.isEmpty
    }

    /// The method that invalidates what a field feeds. Generated helpers start with two
    /// underscores: storage is `_` + a spec name, and spec names cannot start with `_`, so the
    /// two can never collide.
    private func changeHookName(_ field: CheckedField) -> String {
        "__\(field.name)DidChange"
    }

    /// The property that brings a computed value up to date and returns its version.
    private func versionAccessorName(_ computed: CheckedComputed) -> String {
        "__\(computed.name)Version"
    }

    private func isShared(_ computed: CheckedComputed) -> Bool {
        !sharedInputs(of: computed).isEmpty
    }

    // MARK: Extended

    private func emitExtended(into writer: inout CodeWriter) {
        writer.block("extension \(typeName)") { writer in
            writer.doc([
                "The stored fields and memoized computed values of ``\(state.name)``, read as `state.computed`.",
                "",
                "`state.computed` borrows this storage in place, so reading a cached value never copies the state.",
            ])
            let sendable = state.decl.access == .internal ? "" : ": Sendable"
            writer.block("\(access)struct Extended\(sendable)") { writer in
                emitExtendedStorage(into: &writer)
                writer.line()
                emitExtendedInit(into: &writer)
                for field in state.fields where !isWrapped(field) {
                    writer.line()
                    writer.doc(field.decl.doc?.lines ?? [])
                    writer.line("\(access)var \(swiftName(field.decl.name)): \(field.type) { _\(field.name).wrappedValue }")
                }
                for computed in state.computeds {
                    writer.line()
                    emitComputedProperty(computed, into: &writer)
                }
                for computed in state.computeds where !isShared(computed) {
                    writer.line()
                    writer.doc(["The version of `\(computed.name)`'s value, brought up to date first: it moves only when the value changed."])
                    writer.block("fileprivate var \(versionAccessorName(computed)): \(RuntimeNames.versionStamp)") { writer in
                        writer.line("_ = \(swiftName(computed.decl.name))")
                        writer.line("return _\(computed.name).version")
                    }
                }
                for field in state.fields where needsChangeHook(field) {
                    writer.line()
                    emitChangeHook(for: field, into: &writer)
                }
                if !state.computeds.isEmpty {
                    writer.line()
                    writer.doc(["How many times each computed body ran, for `Selectors.x.recomputations`."])
                    writer.block("fileprivate enum _Recomputations") { writer in
                        for computed in state.computeds {
                            writer.line("static let \(swiftName(computed.decl.name)) = \(RuntimeNames.recomputationCounter)()")
                        }
                    }
                }
            }
        }
    }



    private func emitExtendedStorage(into writer: inout CodeWriter) {
        for field in state.fields {
            switch field.kind {
            case .edge:
                writer.doc(field.decl.doc?.lines ?? [])
                writer.line("@\(RuntimeNames.edge) \(access)fileprivate(set) var \(swiftName(field.decl.name)): \(field.type)")
            case .shared:
                writer.doc(field.decl.doc?.lines ?? [])
                writer.line("@\(RuntimeNames.shared) \(access)fileprivate(set) var \(swiftName(field.decl.name)): \(field.type)")
            case .plain:
                writer.line("fileprivate var _\(field.name): \(RuntimeNames.edge)<\(field.type)>")
            }
        }
        for computed in state.computeds {
            let memo = sharedInputs(of: computed).isEmpty ? RuntimeNames.memo : RuntimeNames.sharedMemo
            writer.line("fileprivate var _\(computed.name): \(memo)<\(computed.type)>")
        }
    }

    /// The middleware expression for an `@Edge` field's arguments: `nil`, `.assert(…)`,
    /// `.onSet(…)`, the `middleware:` expression, or a composed list for several arguments.
    private func edgeMiddleware(_ arguments: [Attribute.Argument]) -> String? {
        let middlewares = arguments.map { argument -> String in
            switch argument.label?.name {
            case "assert": ".assert(\(argument.value.text))"
            case "onSet": ".onSet(\(argument.value.text))"
            default: argument.value.text
            }
        }
        switch middlewares.count {
        case 0: return nil
        case 1: return middlewares[0]
        default: return ".init([\(middlewares.joined(separator: ", "))])"
        }
    }

    private func emitExtendedInit(into writer: inout CodeWriter) {
        let parameters = state.fields.map { field in
            let type = field.isShared ? "\(RuntimeNames.shared)<\(field.type)>" : field.type
            return "\(SwiftSpelling.parameterLabel(field.decl.name.name)): \(type)"
        }
        writer.block("fileprivate init(\(parameters.joined(separator: ", ")))") { writer in
            // Only the caches of values over `@Shared` fields take an initial stamp (fields stamp
            // themselves, memo cells stamp their values), so only they declare it: an unused `let`
            // is a warning in the user's build. The `_` keeps it out of the spec's names.
            if state.computeds.contains(where: isShared) {
                writer.line("let _initialVersion = \(RuntimeNames.versionStamp).next()")
            }
            for field in state.fields {
                let name = swiftName(field.decl.name)
                if case .edge(let arguments) = field.kind {
                    let middleware = edgeMiddleware(arguments).map { ", middleware: \($0)" } ?? ""
                    writer.line("_\(field.name) = \(RuntimeNames.edge)(wrappedValue: \(name)\(middleware))")
                } else if field.isShared {
                    writer.line("_\(field.name) = \(name)")
                } else {
                    writer.line("_\(field.name) = \(RuntimeNames.edge)(wrappedValue: \(name))")
                }
            }
            for computed in state.computeds {
                if isShared(computed) {
                    writer.line("_\(computed.name) = \(RuntimeNames.sharedMemo)(version: _initialVersion)")
                } else {
                    writer.line("_\(computed.name) = \(RuntimeNames.memo)()")
                }
            }
        }
    }

    private func emitComputedProperty(_ computed: CheckedComputed, into writer: inout CodeWriter) {
        var doc = computed.decl.doc?.lines ?? []
        if !doc.isEmpty { doc.append("") }
        doc.append("Memoized: recomputed only after \(describe(computed.inputs)) changes.")
        writer.doc(doc)
        let name = swiftName(computed.decl.name)
        let shared = sharedInputs(of: computed)
        writer.block("\(access)var \(name): \(computed.type)") { writer in
            func emitCompute(_ opening: String, into writer: inout CodeWriter) {
                writer.block(opening) { writer in
                    writer.line("_Recomputations.\(name).increment()")
                    let arguments = computed.inputs.map(readExpression(of:)).joined(separator: ", ")
                    writer.line("return \(typeName)._ComputedBodies.\(name)(\(arguments))")
                }
            }
            if !shared.isEmpty {
                // Other holders may write a @Shared input: key the cache on their versions.
                let versions = shared.map { "$\($0).version.rawValue" }.joined(separator: " &+ ")
                writer.line("let sharedKey = \(versions)")
                emitCompute("return _\(computed.name).value(sharedKey: sharedKey)", into: &writer)
                return
            }
            // The hit path checks the cell before forming any closure (which would copy `self`) and
            // yields the cached value borrowed in place (no retain). A miss first records the
            // inputs' versions: when none moved, the cached value stays and the body does not run.
            writer.block("_read") { writer in
                writer.block("if !_\(computed.name).isCached") { writer in
                    writer.line("_ = _\(computed.name).value(")
                    writer.indent { writer in
                        writer.block("inputs:", suffix: ",") { writer in
                            for input in computed.inputs {
                                emitRecord(of: input, for: computed, into: &writer)
                            }
                        }
                        writer.block("compute:", suffix: "\(cutoffArgument(computed)))") { writer in
                            writer.line("_Recomputations.\(name).increment()")
                            let arguments = computed.inputs.map(readExpression(of:)).joined(separator: ", ")
                            writer.line("return \(typeName)._ComputedBodies.\(name)(\(arguments))")
                        }
                    }
                }
                writer.line("yield _\(computed.name)._borrowedValue")
            }
        }
    }

    /// "`a`", "`a` or `b`", "`a`, `b` or `c`".
    private func describe(_ inputs: [Input]) -> String {
        let names = inputs.map { "`\($0.name)`" }
        guard let last = names.last else { return "nothing" }
        if names.count == 1 { return last }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    private func emitChangeHook(for field: CheckedField, into writer: inout CodeWriter) {
        writer.doc([
            "Marks what `\(field.name)` feeds as stale: \(field.dependents.map { "`\($0)`" }.joined(separator: ", ")).",
            "Each is checked on its next read, and recomputed only if an input's version really moved.",
        ])
        writer.block("fileprivate mutating func \(changeHookName(field))()") { writer in
            for dependent in field.dependents {
                if let computed = computedsByName[dependent], isShared(computed) {
                    writer.line("_\(dependent).invalidate(version: \(fieldVersionExpression(field)))")
                } else {
                    writer.line("_\(dependent).invalidate()")
                }
            }
        }
    }

    /// The expression, inside `Extended`, that reads a field's version stamp.
    private func fieldVersionExpression(_ field: CheckedField) -> String {
        isWrapped(field) ? "$\(field.name).version" : "_\(field.name).version"
    }

    /// The expression, inside `Extended`, that reads an input's current version (bringing a
    /// computed input up to date first).
    private func inputVersionExpression(of input: Input) -> String {
        switch input {
        case .field(let name):
            return field(named: name).map(fieldVersionExpression) ?? "_\(name).version"
        case .computed(let name):
            return "self.__\(name)Version"
        }
    }

    /// Records an input's version in a memo's `inputs` closure: one record per member path for a
    /// field read only through members (a generated state's members have their own versions;
    /// for any other type `memberVersion` is `nil` and the field's own version stands in).
    private func emitRecord(of input: Input, for computed: CheckedComputed, into writer: inout CodeWriter) {
        guard case .field(let name) = input, let paths = computed.memberPaths[name], let field = field(named: name), !field.isShared else {
            writer.line("$0.record(\(inputVersionExpression(of: input)))")
            return
        }
        for path in paths {
            writer.line("$0.record(\(RuntimeNames.memberVersion)(of: \(readExpression(of: input)), \"\(path)\") ?? \(fieldVersionExpression(field)))")
        }
    }

    /// `, isEqual: nil` for a computed whose spec turned the cutoff off; otherwise nothing, and
    /// overload resolution picks the comparing `value(inputs:compute:)` for `Equatable` types.
    private func cutoffArgument(_ computed: CheckedComputed) -> String {
        computed.decl.noCutoff ? ", isEqual: nil" : ""
    }

    // MARK: Selectors

    private func emitSelectors(into writer: inout CodeWriter) {
        writer.block("extension \(typeName)") { writer in
            writer.doc([
                "Selectors over ``\(state.name)``: pure functions from a state to a value, for stores and composition.",
                "",
                "Field and computed selectors are versioned, so `createSelector` detects their changes in O(1).",
            ])
            writer.block("\(access)enum Selectors") { writer in
                var first = true
                func separate() {
                    if !first { writer.line() }
                    first = false
                }
                for field in state.fields {
                    separate()
                    writer.doc(field.decl.doc?.lines ?? [])
                    writer.line("\(access)static let \(swiftName(field.decl.name)) = \(RuntimeNames.stateSelector)<\(typeName), \(field.type)>(version: { \(versionExpression(of: field)) }) {")
                    writer.line("    $0.\(swiftName(field.decl.name))")
                    writer.line("}")
                }
                for computed in state.computeds {
                    separate()
                    writer.doc(computed.decl.doc?.lines ?? [])
                    let name = swiftName(computed.decl.name)
                    writer.line("\(access)static let \(name) = \(RuntimeNames.stateSelector)<\(typeName), \(computed.type)>(")
                    if sharedInputs(of: computed).isEmpty {
                        writer.line("    version: { $0.computed.\(versionAccessorName(computed)) },")
                    }
                    writer.line("    recomputations: Extended._Recomputations.\(name)")
                    writer.line(") {")
                    writer.line("    $0.computed.\(name)")
                    writer.line("}")
                }
                let storageNames = Self.storageNames(of: state.selectors)
                for (selector, storage) in zip(state.selectors, storageNames) {
                    separate()
                    emitSelector(selector, storage: storage, into: &writer)
                }
            }
        }
    }

    /// The natural Swift identifier of a selector's cache, from its full name: `_todos_ownedBy`.
    private static func naturalStorageName(of selector: CheckedSelector) -> String {
        (["_" + selector.name] + selector.decl.parameters.map(\.callLabel)).joined(separator: "_")
    }

    /// The identifiers of the selectors' caches, in order, unique within `Selectors`.
    ///
    /// Each is the natural name (`_todos_ownedBy`) unless that name, or the `<name>_Arguments`
    /// struct a selector with several parameters also declares, is already taken: different full
    /// names can join to the same identifier (`f(a_b:)` and `f(a:b:)` both give `_f_a_b`; `f(x:)`
    /// and `f_x()` both give `_f_x`). A later clash gets the first free `_2`, `_3`, … suffix that
    /// is not some other selector's natural name, so names stay stable and deterministic.
    static func storageNames(of selectors: [CheckedSelector]) -> [String] {
        let natural = selectors.map(naturalStorageName(of:))
        var reserved = Set(natural)
        for (selector, name) in zip(selectors, natural) where selector.decl.parameters.count > 1 {
            reserved.insert(name + "_Arguments")
        }
        var taken: Set<String> = []
        var names: [String] = []
        for (selector, name) in zip(selectors, natural) {
            let needsArguments = selector.decl.parameters.count > 1
            func isFree(_ candidate: String) -> Bool {
                !taken.contains(candidate) && !(needsArguments && taken.contains(candidate + "_Arguments"))
            }
            var chosen = name
            var suffix = 2
            while !isFree(chosen) || (chosen != name && (reserved.contains(chosen) || (needsArguments && reserved.contains(chosen + "_Arguments")))) {
                chosen = "\(name)_\(suffix)"
                suffix += 1
            }
            taken.insert(chosen)
            if needsArguments { taken.insert(chosen + "_Arguments") }
            names.append(chosen)
        }
        return names
    }

    /// The name of a selector's body function in `_SelectorBodies`: its base name, unless another
    /// selector shares that base name (`f(_:)` and `f(_:_:)` would give body functions that differ
    /// in labels only by `_`, so their calls could be ambiguous or clash); then its unique cache name.
    private func bodyFunctionName(of selector: CheckedSelector, storage: String) -> String {
        let sharesBaseName = state.selectors.contains { $0.name == selector.name && $0.decl != selector.decl }
        return sharesBaseName ? storage : swiftName(selector.decl.name)
    }

    private func emitSelector(_ selector: CheckedSelector, storage: String, into writer: inout CodeWriter) {
        let parameters = selector.decl.parameters
        let bodyName = bodyFunctionName(of: selector, storage: storage)
        // Without input selectors, `createSelector` cannot infer the state type: spell it out.
        let typeAnnotation = { (type: String) -> String in
            selector.inputs.isEmpty ? ": \(type)" : ""
        }
        let inputSelectors = selector.inputs.map { "Selectors.\(swiftName(of: $0))" }
        let inputsClause = inputSelectors.isEmpty ? "" : inputSelectors.joined(separator: ", ") + ", "
        let inputParameters = selector.inputs.map { input in
            "\(swiftName(of: input)): \(inputType(input))"
        }
        let bodyInputs = selector.inputs.map { swiftName(of: $0) }

        var doc = selector.decl.doc?.lines ?? []
        if !doc.isEmpty { doc.append("") }
        if parameters.isEmpty {
            doc.append("Memoized: recomputed only after \(describe(selector.inputs)) changes.")
        } else {
            let capacity = selector.decl.cacheCapacity.map { "the \($0)" }
                ?? "`ParameterizedSelector.defaultCapacity`"
            doc.append("Memoized per argument (\(capacity) most recently used arguments are kept);")
            doc.append("each is recomputed only after \(describe(selector.inputs)) changes.")
        }
        writer.doc(doc)

        let signature = parameters.map { parameter -> String in
            let label = parameter.label.map(labelName) ?? swiftName(parameter.name)
            let name = parameter.label == nil ? "" : " " + swiftName(parameter.name)
            return "\(label)\(name): \(parameter.type?.text ?? "")"
        }
        let name = swiftName(selector.decl.name)
        let resultType = "\(RuntimeNames.stateSelector)<\(typeName), \(selector.returnType)>"
        writer.block("\(access)static func \(name)(\(signature.joined(separator: ", "))) -> \(resultType)") { writer in
            switch parameters.count {
            case 0:
                writer.line(storage)
            case 1:
                writer.line("\(storage)(\(swiftName(parameters[0].name)))")
            default:
                let fields = parameters.map { "\(SwiftSpelling.argumentLabel($0.name.name)): \(swiftName($0.name))" }
                writer.line("\(storage)(\(storage)_Arguments(\(fields.joined(separator: ", "))))")
            }
        }
        writer.line()

        let bodyCall = { (argumentPrefix: String) -> String in
            let labeled = parameters.map { parameter -> String in
                let label = parameter.label?.name == "_" ? "" : "\(SwiftSpelling.argumentLabel(parameter.callLabel)): "
                return label + argumentPrefix + swiftName(parameter.name)
            }
            return "\(typeName)._SelectorBodies.\(bodyName)(\((labeled + bodyInputs).joined(separator: ", ")))"
        }
        let closureParameters = inputParameters.joined(separator: ", ")
        switch parameters.count {
        case 0:
            let annotation = typeAnnotation("\(RuntimeNames.stateSelector)<\(typeName), \(selector.returnType)>")
            writer.line("private static let \(storage)\(annotation) = \(RuntimeNames.createSelector)(\(inputsClause)transform: { (\(closureParameters)) in")
            writer.line("    \(bodyCall(""))")
            writer.line("})")
        case 1:
            let parameter = parameters[0]
            let argument = "\(swiftName(parameter.name)): \(parameter.type?.text ?? "")"
            let annotation = typeAnnotation("\(RuntimeNames.parameterizedSelector)<\(typeName), \(parameter.type?.text ?? ""), \(selector.returnType)>")
            writer.line("private static let \(storage)\(annotation) = \(RuntimeNames.createParameterizedSelector)(")
            writer.line("    \(inputsClause)\(capacityArgument(selector))transform: { (\(([argument] + inputParameters).joined(separator: ", "))) in")
            writer.line("        \(bodyCall(""))")
            writer.line("    }")
            writer.line(")")
        default:
            writer.block("private struct \(storage)_Arguments: Hashable, Sendable") { writer in
                for parameter in parameters {
                    writer.line("var \(swiftName(parameter.name)): \(parameter.type?.text ?? "")")
                }
            }
            writer.line()
            let annotation = typeAnnotation("\(RuntimeNames.parameterizedSelector)<\(typeName), \(storage)_Arguments, \(selector.returnType)>")
            writer.line("private static let \(storage)\(annotation) = \(RuntimeNames.createParameterizedSelector)(")
            let arguments = (["arguments: \(storage)_Arguments"] + inputParameters).joined(separator: ", ")
            writer.line("    \(inputsClause)\(capacityArgument(selector))transform: { (\(arguments)) in")
            writer.line("        \(bodyCall("arguments."))")
            writer.line("    }")
            writer.line(")")
        }
    }

    private func capacityArgument(_ selector: CheckedSelector) -> String {
        selector.decl.cacheCapacity.map { "capacity: \($0), " } ?? ""
    }

    private func inputType(_ input: Input) -> String {
        switch input {
        case .field(let name): fieldsByName[name]?.type ?? "Never"
        case .computed(let name): computedsByName[name]?.type ?? "Never"
        }
    }

    // MARK: Bodies

    private func emitBodies(into writer: inout CodeWriter) {
        writer.block("extension \(typeName)") { writer in
            writer.doc([
                "The computed bodies from the spec. Each is a function of exactly its inputs, so a body",
                "cannot read state it did not declare.",
            ])
            writer.block("fileprivate enum _ComputedBodies") { writer in
                for (index, computed) in state.computeds.enumerated() {
                    if index > 0 { writer.line() }
                    let parameters = computed.inputs.map { "_ \(swiftName(of: $0)): \(inputType($0))" }
                    let header = "static func \(swiftName(computed.decl.name))(\(parameters.joined(separator: ", "))) -> \(computed.type)"
                    emitBody(header: header, body: computed.decl.body, into: &writer)
                }
            }
            if !state.selectors.isEmpty {
                writer.line()
                writer.doc(["The selector bodies from the spec: each a function of its parameters and inputs."])
                writer.block("fileprivate enum _SelectorBodies") { writer in
                    let storageNames = Self.storageNames(of: state.selectors)
                    for (index, (selector, storage)) in zip(state.selectors, storageNames).enumerated() {
                        if index > 0 { writer.line() }
                        let parameters = selector.decl.parameters.map { parameter -> String in
                            let label = parameter.label.map(labelName).map { $0 + " " } ?? ""
                            return "\(label)\(swiftName(parameter.name)): \(parameter.type?.text ?? "")"
                        }
                        let inputs = selector.inputs.map { "_ \(swiftName(of: $0)): \(inputType($0))" }
                        let name = bodyFunctionName(of: selector, storage: storage)
                        let header = "static func \(name)(\((parameters + inputs).joined(separator: ", "))) -> \(selector.returnType)"
                        emitBody(header: header, body: selector.decl.body, into: &writer)
                    }
                }
            }
        }
    }

    /// Emits `header {`, the body verbatim under `#sourceLocation` (so its lines and columns are
    /// the spec's), and `}`.
    private func emitBody(header: String, body: Body, into writer: inout CodeWriter) {
        writer.line(header + " {")
        for line in BodyLayout(body).lines(sourcePath: source.pathLiteral) {
            writer.verbatim(line)
        }
        writer.line("}")
    }
}
