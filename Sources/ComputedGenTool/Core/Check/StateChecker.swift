/// Checks one state and, when it is clean, builds its ``CheckedState``.
struct StateChecker {
    let state: StateDecl
    let path: String
    let incompleteMembers: Set<SourceLocation>
    private(set) var diagnostics: [Diagnostic] = []

    let fields: [FieldDecl]
    let computeds: [ComputedDecl]
    let selectors: [SelectorDecl]
    /// Fields and computeds by name (the first declaration wins), for input resolution.
    let inputsByName: [String: Input]
    /// The names of fields, then of computeds, each once, in declaration order: did-you-mean candidates.
    let inputNames: [String]
    /// The names of selectors.
    let selectorNames: Set<String>
    /// Each field's type as written (the first declaration of a name wins).
    let fieldTypes: [String: String]
    /// What is left of ``NameRules/suggestionBudget`` for this state.
    var suggestionBudget = NameRules.suggestionBudget

    init(state: StateDecl, path: String, incompleteMembers: Set<SourceLocation>) {
        self.state = state
        self.path = path
        self.incompleteMembers = incompleteMembers
        var fields: [FieldDecl] = []
        var computeds: [ComputedDecl] = []
        var selectors: [SelectorDecl] = []
        var inputsByName: [String: Input] = [:]
        for member in state.members {
            switch member {
            case .field(let decl):
                fields.append(decl)
                if inputsByName[decl.name.name] == nil { inputsByName[decl.name.name] = .field(decl.name.name) }
            case .computed(let decl):
                computeds.append(decl)
                if inputsByName[decl.name.name] == nil { inputsByName[decl.name.name] = .computed(decl.name.name) }
            case .selector(let decl):
                selectors.append(decl)
            }
        }
        var seenNames: Set<String> = []
        self.inputNames = (fields.map(\.name.name) + computeds.map(\.name.name)).filter { seenNames.insert($0).inserted }
        self.selectorNames = Set(selectors.map(\.name.name))
        self.fields = fields
        self.computeds = computeds
        self.selectors = selectors
        self.inputsByName = inputsByName
        self.fieldTypes = Dictionary(fields.compactMap { field in field.type.map { (field.name.name, $0.text) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Runs every check; returns the checked state when none found an error.
    mutating func check() -> CheckedState? {
        checkNames()
        checkDuplicates()
        let kinds = fields.map { checkAttributes(of: $0) }
        checkTypes()
        let computedInputs = computeds.map { resolveInputs(of: $0) }
        let selectorInputs = selectors.map { resolveInputs(of: $0) }
        checkDerivedCollections(inputs: computedInputs)
        checkSectionOrders()
        checkViewChains()
        checkJoins()
        checkFoldsOfViews()
        checkCacheCapacities()
        let graph = DependencyGraph(computeds: computeds, inputs: computedInputs.map(\.inputs))
        for cycle in graph.cycles() {
            let names = (cycle + [cycle[0]]).map { computeds[$0].name.name }.joined(separator: " → ")
            let message = "dependency cycle: \(names); a computed cannot depend on itself, remove one of these inputs"
            report(message, at: computeds[cycle[0]].name.location)
        }
        guard diagnostics.isEmpty else { return nil }
        return build(kinds: kinds, computedInputs: computedInputs, selectorInputs: selectorInputs, graph: graph)
    }

    mutating func report(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(path: path, at: location, message))
    }

    /// A warning: the spec is valid and generates, but probably not as the user meant.
    mutating func warn(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.warning, path: path, at: location, message))
    }

    func isIncomplete(_ name: Identifier) -> Bool {
        incompleteMembers.contains(name.location)
    }

    // MARK: - Names

    /// Keywords and reserved names among member and parameter names.
    private mutating func checkNames() {
        for member in state.members {
            if let problem = NameRules.keywordProblem(member.name) ?? NameRules.reservedProblem(member.name)
                ?? NameRules.characterProblem(member.name) {
                report(problem, at: member.name.location)
            }
        }
        for selector in selectors {
            var seen: Set<String> = []
            for parameter in selector.parameters {
                if let label = parameter.label, let problem = NameRules.characterProblem(label) {
                    report(problem, at: label.location)
                }
                if let problem = NameRules.keywordProblem(parameter.name) ?? NameRules.characterProblem(parameter.name) {
                    report(problem, at: parameter.name.location)
                }
                if !seen.insert(parameter.name.name).inserted {
                    report("duplicate parameter name '\(parameter.name.name)' in selector '\(selector.name.name)'; rename one of them", at: parameter.name.location)
                }
            }
        }
    }

    /// Fields, computeds and selectors share one namespace, except that a selector with
    /// parameters is known by its full name (`todos(ownedBy:)`) and only clashes with another
    /// selector of the same full name.
    private mutating func checkDuplicates() {
        var firstByName: [String: (kind: String, location: SourceLocation)] = [:]
        for member in state.members {
            let (key, kind, displayName) = Self.namespaceKey(of: member)
            if let first = firstByName[key] {
                let message = "duplicate name '\(displayName)' in state '\(state.name.name)': a \(first.kind) named '\(displayName)' is declared at \(first.location); rename one of them"
                report(message, at: member.name.location)
            } else {
                firstByName[key] = (kind, member.name.location)
            }
        }
    }

    /// The namespace key of a member, a word for its kind, and the name to show in messages.
    private static func namespaceKey(of member: Member) -> (key: String, kind: String, displayName: String) {
        switch member {
        case .field(let decl):
            return (decl.name.name, "field", decl.name.name)
        case .computed(let decl):
            return (decl.name.name, "computed", decl.name.name)
        case .selector(let decl) where decl.parameters.isEmpty:
            return (decl.name.name, "selector", decl.name.name)
        case .selector(let decl):
            let fullName = decl.name.name + "(" + decl.parameters.map { $0.callLabel + ":" }.joined() + ")"
            return ("(selector)" + fullName, "selector", fullName)
        }
    }

    // MARK: - Types

    /// Missing types of fields, computeds, selectors and selector parameters.
    private mutating func checkTypes() {
        for field in fields where field.type == nil && !isIncomplete(field.name) {
            report("field '\(field.name.name)' has no type; write 'var \(field.name.name): Type'", at: field.name.location)
        }
        for computed in computeds where computed.type == nil && !isIncomplete(computed.name) {
            report("computed '\(computed.name.name)' has no type; write 'computed \(computed.name.name): Type { … }'", at: computed.name.location)
        }
        for selector in selectors where !isIncomplete(selector.name) {
            for parameter in selector.parameters where parameter.type == nil {
                let message = "parameter '\(parameter.name.name)' of selector '\(selector.name.name)' has no type; write '\(parameter.name.name): Type'"
                report(message, at: parameter.name.location)
            }
            if selector.returnType == nil {
                report("selector '\(selector.name.name)' has no return type; write '-> Type' after its parameters", at: selector.name.location)
            }
        }
    }

    /// `cache N` with N < 1.
    private mutating func checkCacheCapacities() {
        for selector in selectors {
            guard let capacity = selector.cacheCapacity, capacity < 1 else { continue }
            let message = "cache capacity of selector '\(selector.name.name)' must be at least 1, found \(capacity)"
            report(message, at: selector.cacheCapacityLocation ?? selector.location)
        }
    }

    // MARK: - Building

    private func build(
        kinds: [FieldKind],
        computedInputs: [ResolvedInputs],
        selectorInputs: [ResolvedInputs],
        graph: DependencyGraph
    ) -> CheckedState {
        let order = graph.topologicalOrder()
        let checkedComputeds = order.map { index in
            CheckedComputed(
                decl: computeds[index],
                type: computeds[index].type?.text ?? "",
                inputs: computedInputs[index].inputs,
                inputsAreExplicit: computedInputs[index].isExplicit,
                memberPaths: computedInputs[index].memberPaths
            )
        }
        let dependentsByField = graph.fieldDependents(in: order)
        let checkedFields = fields.indices.map { index in
            let name = fields[index].name.name
            let dependents = (dependentsByField[name] ?? []).map { computeds[$0].name.name }
            return CheckedField(decl: fields[index], kind: kinds[index], type: fields[index].type?.text ?? "", dependents: dependents)
        }
        let checkedSelectors = selectors.indices.map { index in
            CheckedSelector(
                decl: selectors[index],
                returnType: selectors[index].returnType?.text ?? "",
                inputs: selectorInputs[index].inputs,
                inputsAreExplicit: selectorInputs[index].isExplicit
            )
        }
        return CheckedState(decl: state, fields: checkedFields, computeds: checkedComputeds, selectors: checkedSelectors)
    }
}
