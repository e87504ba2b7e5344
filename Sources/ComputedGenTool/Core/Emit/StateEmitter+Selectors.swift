/// The `Selectors` namespace: a versioned selector per field and computed value, and a memoized
/// (per-argument) selector per `selector` declaration.
extension StateEmitter {
    func emitSelectors(into writer: inout CodeWriter) {
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
                // Field and computed selectors are made once by the runtime, with the state's
                // table, from where each member is stored, no closure per member. A field's is a
                // getter (composed selectors keep the selector, so a call to it is rare); a
                // computed value's, called as `Selectors.total(state)` as often as the value is
                // read, is a global, borrowed in place by the call (no retain, no table lookup).
                // A field's getter is not optimized (`@_optimize(none)`): it runs when a selector
                // is composed, and the optimizer's passes over it were 1% of the compiler's time
                // on the reference shape (issue 36, see Docs/Performance.md).
                // One-line selectors follow each other without blank lines.
                var previousIsOneLine = false
                func emitTableSelector(_ name: String, type: String, doc: [String], entry: String, stored: Bool) {
                    if !(doc.isEmpty && previousIsOneLine) { separate() }
                    previousIsOneLine = doc.isEmpty
                    writer.doc(doc)
                    let declaration = "\(access)static \(stored ? "let" : "var") \(name): \(RuntimeNames.stateSelector)<\(typeName), \(type)>"
                    writer.line(stored ? "\(declaration) = Extended.__table.\(entry)" : "\(declaration) { @_optimize(none) get { Extended.__table.\(entry) } }")
                }
                for field in state.fields {
                    emitTableSelector(swiftName(field.decl.name), type: publicType(field), doc: field.decl.doc?.lines ?? [], entry: "fieldSelector(\(fieldIndex(of: field)))", stored: false)
                }
                for computed in state.computeds {
                    let name = swiftName(computed.decl.name)
                    guard isShared(computed) else {
                        emitTableSelector(name, type: publicType(computed), doc: computed.decl.doc?.lines ?? [], entry: "computedSelector(\(memoIndex(of: computed)))", stored: true)
                        continue
                    }
                    // A value over `@Shared` fields is unversioned (other holders write those),
                    // and not in the table. The closure names the state's type: with a type that
                    // failed to compile, `$0` could not be inferred and Swift would report that too.
                    separate()
                    previousIsOneLine = false
                    writer.doc(computed.decl.doc?.lines ?? [])
                    writer.line("\(access)static let \(name) = \(RuntimeNames.stateSelector)<\(typeName), \(publicType(computed))>(recomputations: Extended.__Recomputations.\(name)) { (state: \(typeName)) in")
                    writer.line("    state.computed.\(name)")
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
    static func naturalStorageName(of selector: CheckedSelector) -> String {
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
    func bodyFunctionName(of selector: CheckedSelector, storage: String) -> String {
        let sharesBaseName = state.selectors.contains { $0.name == selector.name && $0.decl != selector.decl }
        return sharesBaseName ? storage : swiftName(selector.decl.name)
    }

    func emitSelector(_ selector: CheckedSelector, storage: String, into writer: inout CodeWriter) {
        let resultAlias = SpecFragmentNames.result(ofSelectorStorage: storage)
        let parameters = selector.decl.parameters
        let bodyName = bodyFunctionName(of: selector, storage: storage)
        // Without an input from the table, `createSelector` cannot infer the state type: spell it out.
        let inputSelectors = selector.inputs.map(inputSelector)
        let typeAnnotation = { (type: String) -> String in
            inputSelectors.allSatisfy { !$0.hasPrefix("Extended.__table.") } ? ": \(type)" : ""
        }
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
            let type = parameter.type.flatMap { source.knownTypes.spelling(of: $0.text) }
            return "\(label)\(name): \(type ?? SpecFragmentNames.parameter(parameter, ofSelectorStorage: storage))"
        }
        let name = swiftName(selector.decl.name)
        let publicResult = selector.decl.returnType.flatMap { source.knownTypes.spelling(of: $0.text) } ?? resultAlias
        let resultType = "\(RuntimeNames.stateSelector)<\(typeName), \(publicResult)>"
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
            let annotation = typeAnnotation("\(RuntimeNames.stateSelector)<\(typeName), \(resultAlias)>")
            writer.line("private static let \(storage)\(annotation) = \(RuntimeNames.createSelector)(\(inputsClause)\(traceNameArgument(selector))transform: { (\(closureParameters)) in")
            writer.line("    \(bodyCall(""))")
            writer.line("})")
        case 1:
            let parameter = parameters[0]
            let argument = "\(swiftName(parameter.name)): \(SpecFragmentNames.parameter(parameter, ofSelectorStorage: storage))"
            let annotation = typeAnnotation("\(RuntimeNames.parameterizedSelector)<\(typeName), \(SpecFragmentNames.parameter(parameter, ofSelectorStorage: storage)), \(resultAlias)>")
            writer.line("private static let \(storage)\(annotation) = \(RuntimeNames.createParameterizedSelector)(")
            writer.line("    \(inputsClause)\(capacityArgument(selector))\(traceNameArgument(selector))transform: { (\(([argument] + inputParameters).joined(separator: ", "))) in")
            writer.line("        \(bodyCall(""))")
            writer.line("    }")
            writer.line(")")
        default:
            // `==` and `hash(into:)` are written out: synthesized, they would also report a
            // parameter type that failed to compile, in the generated file.
            writer.block("private struct \(storage)_Arguments: Hashable, Sendable") { writer in
                let names = parameters.map { swiftName($0.name) }
                for (parameter, name) in zip(parameters, names) {
                    writer.line("var \(name): \(SpecFragmentNames.parameter(parameter, ofSelectorStorage: storage))")
                }
                writer.line()
                let equal = names.map { "lhs.\($0) == rhs.\($0)" }.joined(separator: " && ")
                writer.line("static func == (lhs: \(storage)_Arguments, rhs: \(storage)_Arguments) -> Swift.Bool { \(equal) }")
                let combine = names.map { "hasher.combine(self.\($0))" }.joined(separator: "; ")
                writer.line("func hash(into hasher: inout Swift.Hasher) { \(combine) }")
            }
            writer.line()
            let annotation = typeAnnotation("\(RuntimeNames.parameterizedSelector)<\(typeName), \(storage)_Arguments, \(resultAlias)>")
            writer.line("private static let \(storage)\(annotation) = \(RuntimeNames.createParameterizedSelector)(")
            let arguments = (["arguments: \(storage)_Arguments"] + inputParameters).joined(separator: ", ")
            writer.line("    \(inputsClause)\(capacityArgument(selector))\(traceNameArgument(selector))transform: { (\(arguments)) in")
            writer.line("        \(bodyCall("arguments."))")
            writer.line("    }")
            writer.line(")")
        }
    }

    func capacityArgument(_ selector: CheckedSelector) -> String {
        selector.decl.cacheCapacity.map { "capacity: \($0), " } ?? ""
    }

    /// The name a change trace reports the selector's recomputations by: its Swift name,
    /// `todos(ownedBy:)`.
    func traceNameArgument(_ selector: CheckedSelector) -> String {
        let labels = selector.decl.parameters.map { ($0.label?.name ?? $0.name.name) + ":" }.joined()
        return "name: \"\(selector.decl.name.name)(\(labels))\", "
    }

    /// The selector of a `selector`'s input, by index in the table rather than by name: by name,
    /// `Selectors.todos` would also find `Selectors.todos(ownedBy:)`, which Swift picks (and reports
    /// a mismatch in the generated file) when the field's type failed to compile. A computed value
    /// over `@Shared` fields is not in the table: its selector is coerced to its type instead.
    func inputSelector(_ input: Input) -> String {
        switch input {
        case .field(let name):
            return "Extended.__table.fieldSelector(\(fieldsByName[name].map(fieldIndex(of:)) ?? 0))"
        case .computed(let name):
            guard let computed = computedsByName[name], isShared(computed) else {
                return "Extended.__table.computedSelector(\(computedsByName[name].map(memoIndex(of:)) ?? 0))"
            }
            return "Selectors.\(swiftName(computed.decl.name)) as \(RuntimeNames.stateSelector)<\(typeName), \(typeAlias(computed))>"
        }
    }

    func inputType(_ input: Input) -> String {
        switch input {
        case .field(let name): SpecFragmentNames.type(of: name)
        case .computed(let name): SpecFragmentNames.type(of: name)
        }
    }
}
