/// The inputs of a computed or selector, and where they came from.
struct ResolvedInputs {
    /// The inputs in body-parameter order.
    var inputs: [Input]
    /// Whether they were listed with `from`.
    var isExplicit: Bool
    /// For the field inputs that the body reads only through members (`shelf.items`,
    /// `shelf.computed.total`), those member paths, in order of first appearance.
    var memberPaths: [String: [String]] = [:]
}

extension StateChecker {
    /// The inputs of a computed: its `from` list, or the fields and computeds its body names.
    mutating func resolveInputs(of computed: ComputedDecl) -> ResolvedInputs {
        checkReads(of: computed.body, owner: "computed '\(computed.name.name)'", explicit: computed.explicitInputs, parameters: [])
        if let explicit = computed.explicitInputs {
            let inputs = resolveExplicit(explicit)
            return ResolvedInputs(inputs: inputs, isExplicit: true, memberPaths: memberPaths(of: inputs, in: computed.body))
        }
        let inputs = inferInputs(from: computed.body, excluding: [])
        if inputs.isEmpty, !isIncomplete(computed.name), !Self.usesSelf(computed.body) {
            let name = computed.name.name
            let message = "computed '\(name)' reads no field or computed of state '\(state.name.name)'; use one in its body, or name its inputs with 'from', e.g. 'computed \(name): Type from field { … }'"
            report(message, at: computed.name.location)
        }
        return ResolvedInputs(inputs: inputs, isExplicit: false, memberPaths: memberPaths(of: inputs, in: computed.body))
    }

    /// For each field input that `body` reads only through member accesses, the member paths
    /// (`"items"`, `"computed.total"`). A field read bare anywhere (`shelf`, `f(shelf)`,
    /// `shelf?.items`) is read whole and gets no entry. Whether a path names a member of a
    /// generated state is decided by the generated code (`MemberVersioned`); any other path or
    /// type falls back to the whole field's version, so this can only make the check finer.
    private func memberPaths(of inputs: [Input], in body: Body) -> [String: [String]] {
        let fields = Set(inputs.compactMap { input -> String? in
            guard case .field(let name) = input, let type = fieldTypes[name], Self.couldBeState(type) else { return nil }
            return name
        })
        var paths: [String: [String]] = [:]
        var whole: Set<String> = []
        for (reference, members) in IdentifierReferences.listWithMembers(in: body) where fields.contains(reference.name) {
            guard !members.isEmpty else {
                whole.insert(reference.name)
                continue
            }
            let path = members.joined(separator: ".")
            if !(paths[reference.name]?.contains(path) ?? false) {
                paths[reference.name, default: []].append(path)
            }
        }
        for name in whole { paths[name] = nil }
        return paths
    }

    /// Types no generated state can have: member paths on them would only add checks that always
    /// fall back to the field's version.
    static let plainTypes: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double",
        "Float", "Bool", "String", "Character", "Substring", "Date", "URL", "UUID", "Data", "Decimal",
    ]

    /// Whether a field of this type may hold a generated state: a named type (`Shelf`,
    /// `Model.Shelf`), not an optional, collection, tuple, function or standard value type.
    static func couldBeState(_ type: String) -> Bool {
        guard !plainTypes.contains(type), let first = type.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return type.unicodeScalars.allSatisfy { $0 == "_" || $0 == "." || $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    /// The inputs of a selector: its `from` list, or the fields and computeds its body names
    /// (parameters shadow them). With `from`, a parameter may not shadow a listed input.
    mutating func resolveInputs(of selector: SelectorDecl) -> ResolvedInputs {
        let parameters = Set(selector.parameters.map(\.name.name))
        checkReads(of: selector.body, owner: "selector '\(selector.name.name)'", explicit: selector.explicitInputs, parameters: parameters)
        guard let explicit = selector.explicitInputs else {
            return ResolvedInputs(inputs: inferInputs(from: selector.body, excluding: parameters), isExplicit: false)
        }
        let inputs = resolveExplicit(explicit)
        let inputNames = Set(inputs.map(\.name))
        for parameter in selector.parameters where inputNames.contains(parameter.name.name) {
            let message = "parameter '\(parameter.name.name)' of selector '\(selector.name.name)' shadows the input '\(parameter.name.name)' listed in 'from'; rename the parameter"
            report(message, at: parameter.name.location)
        }
        return ResolvedInputs(inputs: inputs, isExplicit: true)
    }

    /// Resolves a `from` list, reporting unknown and repeated names.
    private mutating func resolveExplicit(_ names: [Identifier]) -> [Input] {
        var inputs: [Input] = []
        var seen: Set<String> = []
        for name in names {
            guard seen.insert(name.name).inserted else {
                report("'\(name.name)' is listed twice in 'from'; remove the repetition", at: name.location)
                continue
            }
            guard let input = inputsByName[name.name] else {
                report(unknownInputMessage(name), at: name.location)
                continue
            }
            inputs.append(input)
        }
        return inputs
    }

    private mutating func unknownInputMessage(_ name: Identifier) -> String {
        if selectorNames.contains(name.name) {
            return "'\(name.name)' in 'from' is a selector; only fields and computeds can be inputs"
        }
        let suggestion = NameRules.suggestion(for: name.name, among: inputNames, budget: &suggestionBudget)
        let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
        return "'\(name.name)' in 'from' is not a field or computed of state '\(state.name.name)'\(hint)"
    }

    /// The fields and computeds a body refers to, in order of first appearance, without repetitions.
    private func inferInputs(from body: Body, excluding excluded: Set<String>) -> [Input] {
        var seen: Set<String> = []
        var inputs: [Input] = []
        for reference in IdentifierReferences.list(in: body) where !excluded.contains(reference.name) {
            guard let input = inputsByName[reference.name], seen.insert(reference.name).inserted else { continue }
            inputs.append(input)
        }
        return inputs
    }
}
