extension StateChecker {
    /// The argument labels `@Edge` accepts.
    static let edgeLabels = ["assert", "onSet", "middleware"]
    /// The attributes a field may have.
    static let knownAttributes = ["Edge", "Shared"]

    /// Checks a field's attributes and returns how the field is stored.
    mutating func checkAttributes(of field: FieldDecl) -> FieldKind {
        var kind = FieldKind.plain
        var seen: Set<String> = []
        for attribute in field.attributes {
            let name = attribute.name.name
            if name == "NoCutoff" {
                report("'@NoCutoff' applies only to computed values; remove it from field '\(field.name.name)' (an equal assignment to a field is never a change)", at: attribute.location)
                continue
            }
            guard Self.knownAttributes.contains(name) else {
                let hint = NameRules.suggestion(for: name, among: Self.knownAttributes).map { " (did you mean '@\($0)'?)" } ?? ""
                report("unknown attribute '@\(name)'\(hint); only '@Edge' and '@Shared' are supported", at: attribute.location)
                continue
            }
            guard seen.insert(name).inserted else {
                report("duplicate attribute '@\(name)' on field '\(field.name.name)'; remove one of them", at: attribute.location)
                continue
            }
            if seen.count == 2 {
                report("field '\(field.name.name)' cannot be both '@Edge' and '@Shared'; remove one of the two attributes", at: attribute.location)
            }
            if name == "Edge" {
                kind = .edge(arguments: checkEdgeArguments(of: attribute))
            } else if let strategy = checkSharedArgument(of: attribute) {
                kind = .shared(strategy: strategy)
                if field.defaultValue == nil {
                    report(
                        "'@Shared' field '\(field.name.name)' needs a default value, used when its storage has none; write 'var \(field.name.name): \(field.type?.text ?? "Type") = …'",
                        at: field.name.location
                    )
                }
            }
        }
        return kind
    }

    /// `@Edge` arguments must be labeled `assert:`, `onSet:` or `middleware:`.
    private mutating func checkEdgeArguments(of attribute: Attribute) -> [Attribute.Argument] {
        let arguments = attribute.arguments ?? []
        for argument in arguments {
            guard let label = argument.label else {
                report("'@Edge' arguments need a label; write 'assert:', 'onSet:' or 'middleware:' before the expression", at: argument.value.location)
                continue
            }
            guard Self.edgeLabels.contains(label.name) else {
                let hint = NameRules.suggestion(for: label.name, among: Self.edgeLabels).map { " (did you mean '\($0):'?)" } ?? ""
                report("unknown '@Edge' argument label '\(label.name):'\(hint); use 'assert:', 'onSet:' or 'middleware:'", at: label.location)
                continue
            }
        }
        return arguments
    }

    /// `@Shared` takes exactly one unlabeled argument, the storage strategy.
    private mutating func checkSharedArgument(of attribute: Attribute) -> SourceText? {
        let message = "'@Shared' takes exactly one unlabeled argument, the storage strategy, e.g. '@Shared(.inMemory(\"key\"))'"
        let arguments = attribute.arguments ?? []
        guard let first = arguments.first else {
            report(message, at: attribute.location)
            return nil
        }
        if arguments.count > 1 {
            let extra = arguments[1]
            report(message, at: extra.label?.location ?? extra.value.location)
            return nil
        }
        if let label = first.label {
            report(message, at: label.location)
            return nil
        }
        return first.value
    }
}
