/// The `Extended` struct behind `state.computed`: storage for fields and memo cells, and the
/// memoized computed properties' hit paths. Verifying, recomputing and invalidating run in the
/// runtime, driven by the state's table (`TableEmitter`); only computed values over `@Shared`
/// fields keep code of their own here (their cells are keyed on the shared inputs' stamps).
extension StateEmitter {
    func emitExtended(into writer: inout CodeWriter) {
        writer.block("extension \(typeName)") { writer in
            writer.doc([
                "The stored fields and memoized computed values of ``\(state.name)``, read as `state.computed`.",
                "",
                "`state.computed` borrows this storage in place, so reading a cached value never copies the state.",
            ])
            let sendable = state.decl.access == .internal ? "" : ": Sendable"
            writer.block("\(access)struct Extended\(sendable)") { writer in
                emitExtendedStorage(into: &writer)
                emitValueFragments(into: &writer)
                for (index, field) in state.fields.enumerated() where !isWrapped(field) {
                    // Consecutive one-line readers without docs follow each other.
                    if index == 0 || field.decl.doc != nil || isWrapped(state.fields[index - 1]) || state.fields[index - 1].decl.doc != nil {
                        writer.line()
                    }
                    writer.doc(field.decl.doc?.lines ?? [])
                    // `self.`: a getter body that starts with `_read` or `_modify` (the storage of
                    // fields named `read` and `modify`) would be read as that accessor.
                    writer.line("\(inlinable)\(access)var \(swiftName(field.decl.name)): \(publicType(field)) { self._\(field.name).wrappedValue }")
                }
                for computed in state.computeds {
                    writer.line()
                    emitComputedProperty(computed, into: &writer)
                }
                for field in state.fields where needsChangeHook(field) {
                    writer.line()
                    emitChangeHook(for: field, into: &writer)
                }
                let shared = state.computeds.filter(isShared)
                if !shared.isEmpty {
                    writer.line()
                    writer.doc(["How many times each computed body over `@Shared` fields ran, for `Selectors.x.recomputations`."])
                    writer.block("fileprivate enum __Recomputations") { writer in
                        for computed in shared {
                            writer.line("static let \(swiftName(computed.decl.name)) = \(RuntimeNames.recomputationCounter)()")
                        }
                    }
                }
            }
        }
        emitExtendedInit(into: &writer)
    }

    func emitExtendedStorage(into writer: inout CodeWriter) {
        for field in state.fields {
            switch field.kind {
            case .edge:
                writer.doc(field.decl.doc?.lines ?? [])
                writer.line("@\(RuntimeNames.edge) \(access)fileprivate(set) var \(swiftName(field.decl.name)): \(publicType(field))")
            case .shared:
                writer.doc(field.decl.doc?.lines ?? [])
                writer.line("@\(RuntimeNames.shared) \(access)fileprivate(set) var \(swiftName(field.decl.name)): \(publicType(field))")
            case .plain:
                writer.line("\(storageAccess)var _\(field.name): \(RuntimeNames.storedField)<\(typeAlias(field))>")
            }
        }
        if state.computeds.contains(where: isInMemoTable) {
            writer.line("\(storageAccess)var __memo: \(RuntimeNames.memoTable)")
        }
        for computed in state.computeds where !isInMemoTable(computed) {
            writer.line("\(storageAccess)var _\(computed.name): \(memoType(of: computed))<\(typeAlias(computed))>")
        }
    }

    /// The cache type of a computed value not in the memo table: a `SharedMemo` (keyed on its
    /// `@Shared` inputs' stamps, which other holders write), or for a `ListView` value an
    /// `IncrementalMemo` (see `StateEmitter+Incremental.swift`).
    func memoType(of computed: CheckedComputed) -> String {
        isShared(computed) ? RuntimeNames.sharedMemo : RuntimeNames.incrementalMemo
    }

    /// The middleware expression for an `@Edge` field's arguments: `nil`, `.assert(…)`,
    /// `.onSet(…)`, the `middleware:` value, or a composed list for several arguments. Each argument
    /// is a static member written at its spec line (see `SpecFragments`); an assertion reports
    /// the spec's line when it fails.
    func edgeMiddleware(of field: CheckedField, _ arguments: [Attribute.Argument]) -> String? {
        let names = edgeArgumentNames(of: field, arguments)
        let middlewares = zip(arguments, names).map { argument, name -> String in
            let member = "\(typeName).Extended.\(name)"
            switch argument.label?.name {
            case "assert": return ".assert(\(member), file: \(source.pathLiteral), line: \(argument.value.location.line))"
            case "onSet": return ".onSet(\(member))"
            default: return member
            }
        }
        switch middlewares.count {
        case 0: return nil
        case 1: return middlewares[0]
        default: return ".init([\(middlewares.joined(separator: ", "))])"
        }
    }

    /// `Extended.__make(…)`: the storage from the fields' values, through the memberwise
    /// initializer Swift synthesizes. An initializer that assigns the stored properties one by one
    /// is checked (definite initialization) in time that grows with the square of their number,
    /// which made large states compile superlinearly. A function rather than an initializer: with
    /// only `@Edge` fields its signature would be the memberwise one. A state without stored
    /// properties uses the implicit `init()`.
    func emitExtendedInit(into writer: inout CodeWriter) {
        guard !state.fields.isEmpty || !state.computeds.isEmpty else { return }
        writer.line()
        writer.block("extension \(typeName).Extended") { writer in
            // Qualified: outside the state's body, its members are not in scope.
            let parameters = state.fields.map { field in
                let alias = "\(typeName).\(typeAlias(field))"
                let type = field.isShared ? "\(RuntimeNames.shared)<\(alias)>" : alias
                return "\(SwiftSpelling.parameterLabel(field.decl.name.name)): \(type)"
            }
            // Spelled with the type's name, not `Self`: a state may be named `` `Self` ``.
            let storage = "\(typeName).Extended"
            writer.block("fileprivate static func __make(\(parameters.joined(separator: ", "))) -> \(storage)") { writer in
                // One stamp for the plain fields and the caches of values over `@Shared` fields
                // (memo cells stamp their values), declared only when used: an unused `let` is a
                // warning in the user's build. Spec names cannot start with `_`, so `__` names are
                // the generator's.
                let plainFields = state.fields.contains { !$0.isShared && !$0.isEdge }
                if plainFields || state.computeds.contains(where: isShared) {
                    writer.line("let __initialStamp = \(RuntimeNames.versionStamp).next()")
                }
                // In declaration order.
                var arguments: [String] = []
                for field in state.fields {
                    let name = swiftName(field.decl.name)
                    if isWrapped(field) {
                        arguments.append("\(SwiftSpelling.argumentLabel(field.decl.name.name)): \(name)")
                    } else {
                        // The value's type is spelled: were it not to compile, an inferred one would
                        // be one more error ("could not be inferred") in this file.
                        arguments.append("_\(field.name): \(RuntimeNames.storedField)<\(typeName).\(typeAlias(field))>(wrappedValue: \(name), version: __initialStamp)")
                    }
                }
                // Every property is passed: a default value would be a default argument of the
                // memberwise initializer, whose symbol spells every label, so N of them take
                // N^2 space (and crashed the compiler at 2,000 properties).
                if state.computeds.contains(where: isInMemoTable) {
                    arguments.append("__memo: __table.makeMemoTable()")
                }
                for computed in state.computeds where !isInMemoTable(computed) {
                    // A change trace names a value over @Shared fields, and its shared inputs, by this.
                    let version = isShared(computed)
                        ? "version: __initialStamp, traceName: \"\(typeName).\(computed.name)(\(sharedInputs(of: computed).joined(separator: ", ")))\""
                        : ""
                    arguments.append("_\(computed.name): \(memoType(of: computed))<\(typeName).\(typeAlias(computed))>(\(version))")
                }
                // The memberwise initializer gives an `@Edge` field no middleware: set it after.
                let middlewares = state.fields.compactMap { field -> String? in
                    guard case .edge(let attributeArguments) = field.kind,
                        let middleware = edgeMiddleware(of: field, attributeArguments)
                    else { return nil }
                    let name = swiftName(field.decl.name)
                    return "__storage._\(field.name) = \(RuntimeNames.edge)(wrappedValue: \(name), middleware: \(middleware))"
                }
                guard !middlewares.isEmpty else {
                    writer.call("return \(storage)", arguments: arguments)
                    return
                }
                writer.call("var __storage = \(storage)", arguments: arguments)
                writer.lines(middlewares)
                writer.line("return __storage")
            }
        }
    }

    func emitComputedProperty(_ computed: CheckedComputed, into writer: inout CodeWriter) {
        var doc = computed.decl.doc?.lines ?? []
        if !doc.isEmpty { doc.append("") }
        doc.append(freshnessDoc(of: computed))
        writer.doc(doc)
        let name = swiftName(computed.decl.name)
        let shared = sharedInputs(of: computed)
        writer.block("\(shared.isEmpty ? inlinable : "")\(access)var \(name): \(publicType(computed))") { writer in
            if !shared.isEmpty {
                // Other holders may write a @Shared input: key the cache on their versions, one
                // by one (a sum of stamps is no key: stamps are not ordered across threads).
                writer.line("_\(computed.name).value(")
                writer.indent { writer in
                    writer.block("sharedInputs:", suffix: ",") { writer in
                        for input in shared {
                            writer.line(sharedStampRecording(of: input))
                        }
                    }
                    writer.block("compute:", suffix: ")") { writer in
                        writer.line("__Recomputations.\(name).increment()")
                        let arguments = computed.inputs.map(readExpression(of:)).joined(separator: ", ")
                        writer.line("return " + sharedBodyCall(of: computed, "\(typeName)._ComputedBodies.\(name)(\(arguments))"))
                    }
                }
                return
            }
            // The hit path checks the cell and yields the cached value borrowed in place (no copy
            // of `self`, no retain); a miss is the runtime's, driven by the state's table.
            let index = memoIndex(of: computed)
            if isInMemoTable(computed) {
                writer.line("_read { if !__memo._isCached(\(index)) { __refresh(\(index)) }; yield __memo[_borrowed: \(index), as: \(typeAlias(computed)).self] }")
            } else {
                writer.line("_read { if !_\(computed.name).isCached { __refresh(\(index)) }; yield _\(computed.name)._borrowedValue }")
            }
        }
    }

    /// The line of a shared-inputs closure that records the stamps of the field `name`: a
    /// `@Shared` field's version, or those of the `@Shared` values a nested state holds.
    func sharedStampRecording(of name: String) -> String {
        guard let field = fieldsByName[name], !field.isShared else { return "$0.record($\(name).version)" }
        return "\(RuntimeNames.recordSharedStamps)(of: self._\(field.name).wrappedValue, into: &$0)"
    }

    /// "`a`", "`a` or `b`", "`a`, `b` or `c`".
    func describe(_ inputs: [Input]) -> String {
        let names = inputs.map { "`\($0.name)`" }
        guard let last = names.last else { return "nothing" }
        if names.count == 1 { return last }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The hook of a field that feeds computed values over `@Shared` fields, whose cells are keyed
    /// on the field's new stamp; the other dependents are the table's (`__didChange`).
    func emitChangeHook(for field: CheckedField, into writer: inout CodeWriter) {
        let shared = field.dependents.filter { computedsByName[$0].map(isShared) ?? false }
        writer.doc([
            "Marks what `\(field.name)` feeds as stale: \(field.dependents.map { "`\($0)`" }.joined(separator: ", ")).",
            "Each is checked on its next read, and recomputed only if an input's version really moved.",
        ])
        let attributes = isInlinable ? "@inlinable internal " : "fileprivate "
        writer.block("\(attributes)mutating func \(changeHookName(field))()") { writer in
            if field.dependents.count > shared.count {
                writer.line("__didChange(\(fieldIndex(of: field)))")
            }
            for dependent in shared {
                writer.line("_\(dependent).invalidate(version: \(fieldVersionExpression(field)))")
            }
        }
    }

    /// The expression, inside `Extended`, that reads a field's version stamp.
    func fieldVersionExpression(_ field: CheckedField) -> String {
        isWrapped(field) ? "$\(field.name).version" : "_\(field.name).version"
    }
}
