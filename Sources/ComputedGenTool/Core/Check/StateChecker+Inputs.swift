/// The inputs of a computed or selector, and where they came from.
struct ResolvedInputs {
    /// The inputs in body-parameter order.
    var inputs: [Input]
    /// Whether they were listed with `from`.
    var isExplicit: Bool
}

extension StateChecker {
    /// The inputs of a computed: its `from` list, or the fields and computeds its body names.
    mutating func resolveInputs(of computed: ComputedDecl) -> ResolvedInputs {
        if let explicit = computed.explicitInputs {
            return ResolvedInputs(inputs: resolveExplicit(explicit), isExplicit: true)
        }
        let inputs = inferInputs(from: computed.body, excluding: [])
        if inputs.isEmpty, !isIncomplete(computed.name) {
            let name = computed.name.name
            let message = "computed '\(name)' reads no field or computed of state '\(state.name.name)'; use one in its body, or name its inputs with 'from', e.g. 'computed \(name): Type from field { … }'"
            report(message, at: computed.name.location)
        }
        return ResolvedInputs(inputs: inputs, isExplicit: false)
    }

    /// The inputs of a selector: its `from` list, or the fields and computeds its body names
    /// (parameters shadow them). With `from`, a parameter may not shadow a listed input.
    mutating func resolveInputs(of selector: SelectorDecl) -> ResolvedInputs {
        guard let explicit = selector.explicitInputs else {
            let parameters = Set(selector.parameters.map(\.name.name))
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
