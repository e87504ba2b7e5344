/// The spec's Swift fragments outside bodies — field, computed and selector types, default values
/// and attribute arguments — each written exactly once in the generated code, under
/// `#sourceLocation` at its spec line and column.
///
/// A type is spelled in many generated declarations (the initializer, the accessors, the storage,
/// the selectors, the bodies), so a misspelled one used to be reported eight or more times, all in
/// the generated file. Instead each type gets a typealias, declared where the spec wrote it, and
/// every generated declaration uses the alias: Swift reports the bad type once, at the alias, and
/// stays silent about the declarations that use it. Default values and attribute arguments become
/// static members for the same reason (a default is used by the initializer and by `Decodable`).
///
/// The names start with `__`, which spec names cannot, so they never clash with the spec's.
enum SpecFragmentNames {
    /// `__todosType`: the alias of a field's or computed value's type.
    static func type(of name: String) -> String {
        "__\(name)Type"
    }

    /// `__todosDefault`: the static property holding a field's default value.
    static func defaultValue(of field: CheckedField) -> String {
        "__\(field.name)Default"
    }

    /// `__todos_ownedBy_Result`: the alias of a selector's return type, from its unique storage
    /// name in `Selectors`.
    static func result(ofSelectorStorage storage: String) -> String {
        "_\(storage)_Result"
    }

    /// `__todos_ownedBy_owner`: the alias of a selector parameter's type.
    static func parameter(_ parameter: Parameter, ofSelectorStorage storage: String) -> String {
        "_\(storage)_\(parameter.name.name)"
    }

    /// A field's argument label in a call (`SwiftSpelling` applied to its name).
    static func argumentLabel(_ field: CheckedField) -> String {
        SwiftSpelling.argumentLabel(field.decl.name.name)
    }

    /// `__badgeOnSet`, `__unreadAssert`, `__avatarMiddleware`, `__countStrategy`: the static
    /// property holding an attribute argument; a second argument with the same label gets `2`.
    static func attributeArgument(_ role: String, of field: CheckedField, occurrence: Int) -> String {
        "__\(field.name)\(role)\(occurrence > 1 ? String(occurrence) : "")"
    }
}

/// Lays out one spec fragment after a declaration header so that the fragment keeps its spec line
/// and column: the header goes on the line mapped to the line before the fragment's, and the
/// fragment's first line is padded with spaces to its column, as ``BodyLayout`` does for bodies.
struct FragmentLayout {
    let header: String
    let fragment: SourceText
    /// A line after the fragment (a closing brace), or `nil`.
    let closing: String?
    /// Whether the header shares the fragment's line (which then loses its column).
    var sameLine = false

    func lines(sourcePath: String, indentation: String) -> [String] {
        let text = BodyLayout.splitLines(fragment.text).map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        let line = fragment.location.line
        let padding = String(repeating: " ", count: max(fragment.location.column - 1, 0))
        var lines: [String]
        if line > 1 && !sameLine {
            lines = ["#sourceLocation(file: \(sourcePath), line: \(line - 1))", indentation + header, padding + text[0]]
        } else {
            // Asked for, or no line before the first: the header shares the fragment's line.
            lines = ["#sourceLocation(file: \(sourcePath), line: \(line))", indentation + header + " " + text[0]]
        }
        lines += text.dropFirst()
        if let closing { lines.append(indentation + closing) }
        lines.append("#sourceLocation()")
        return lines
    }
}

extension StateEmitter {
    /// The alias that stands for a field's type in generated code.
    func typeAlias(_ field: CheckedField) -> String {
        SpecFragmentNames.type(of: field.name)
    }

    /// The alias that stands for a computed value's type in generated code.
    func typeAlias(_ computed: CheckedComputed) -> String {
        SpecFragmentNames.type(of: computed.name)
    }

    /// Emits the types as typealiases of the state. (The default values and attribute arguments
    /// are static members of `Extended`, which generated code reaches without dynamic member
    /// lookup: on the state, a reference to a member that failed to compile would fall back to
    /// its `dynamicMember` subscript and report a second, misleading error.)
    func emitSpecFragments(into writer: inout CodeWriter) {
        guard !state.fields.isEmpty || !state.computeds.isEmpty || !state.selectors.isEmpty else { return }
        writer.line()
        writer.line("// The spec's types, each written once at its spec line, so that a mistake in one is")
        writer.line("// reported once, where it was written.")
        writer.block("extension \(typeName)") { writer in
            var aliases: [(header: String, fragment: SourceText?)] = []
            for field in state.fields {
                aliases.append(("\(access)typealias \(typeAlias(field)) =", field.decl.type))
            }
            for computed in state.computeds {
                aliases.append(("\(access)typealias \(typeAlias(computed)) =", computed.decl.type))
            }
            for (selector, storage) in zip(state.selectors, Self.storageNames(of: state.selectors)) {
                for parameter in selector.decl.parameters {
                    let alias = SpecFragmentNames.parameter(parameter, ofSelectorStorage: storage)
                    aliases.append(("\(access)typealias \(alias) =", parameter.type))
                }
                aliases.append(("\(access)typealias \(SpecFragmentNames.result(ofSelectorStorage: storage)) =", selector.decl.returnType))
            }
            emitTypeAliases(aliases, into: &writer)
        }
    }

    /// Emits typealiases each on its spec line: one-line types that follow each other in the spec
    /// (at most two lines apart, padded with blank lines) share one `#sourceLocation`, so a state
    /// of N members spends about N lines on its types, not 3N.
    private func emitTypeAliases(_ aliases: [(header: String, fragment: SourceText?)], into writer: inout CodeWriter) {
        let present = aliases.compactMap { alias in alias.fragment.map { (alias.header, $0) } }
        // In spec order (stable: members on one line keep their order).
        let ordered = present.enumerated().sorted {
            ($0.element.1.location.line, $0.offset) < ($1.element.1.location.line, $1.offset)
        }.map(\.element)
        var lastLine: Int?
        for (header, fragment) in ordered {
            let line = fragment.location.line
            let isOneLine = !fragment.text.contains("\n") && !fragment.text.contains("\r")
            if isOneLine, let last = lastLine, (1...3).contains(line - last) {
                for _ in 0..<(line - last - 1) { writer.verbatim("") }
                writer.verbatim(writer.indentation + header + " " + fragment.text)
                lastLine = line
                continue
            }
            if lastLine != nil { writer.verbatim("#sourceLocation()") }
            lastLine = nil
            guard isOneLine else {
                emitFragment(header, fragment, sameLine: true, into: &writer)
                continue
            }
            writer.verbatim("#sourceLocation(file: \(source.pathLiteral), line: \(line))")
            writer.verbatim(writer.indentation + header + " " + fragment.text)
            lastLine = line
        }
        if lastLine != nil { writer.verbatim("#sourceLocation()") }
    }

    /// Emits, inside `Extended` (lexically within the state, so a default value finds the state's
    /// static members as it would in the initializer), the default values and attribute arguments.
    func emitValueFragments(into writer: inout CodeWriter) {
        let valued = state.fields.filter { $0.decl.defaultValue != nil || $0.isEdge || $0.isShared }
        guard !valued.isEmpty else { return }
        writer.line()
        writer.line("// The spec's default values and attribute arguments, at their spec lines.")
        for field in valued {
            if let value = field.decl.defaultValue {
                let header = "\(storageAccess)static var \(SpecFragmentNames.defaultValue(of: field)): \(typeAlias(field)) {"
                emitFragment(header, value, closing: "}", into: &writer)
            }
            emitAttributeArguments(of: field, into: &writer)
        }
    }

    /// The static members for `@Edge(assert:onSet:middleware:)` and `@Shared(strategy)`, typed, so
    /// a closure's parameters are known where it is written.
    private func emitAttributeArguments(of field: CheckedField, into writer: inout CodeWriter) {
        let type = typeAlias(field)
        switch field.kind {
        case .edge(let arguments):
            for (argument, name) in zip(arguments, edgeArgumentNames(of: field, arguments)) {
                let valueType = switch argument.label?.name {
                case "assert": "@Sendable (\(type)) -> Swift.Bool"
                case "onSet": "@Sendable (inout \(type)) -> Swift.Void"
                default: "\(RuntimeNames.edge)<\(type)>.Middleware"
                }
                emitFragment("\(storageAccess)static var \(name): \(valueType) {", argument.value, closing: "}", into: &writer)
            }
        case .shared(let strategy):
            let name = SpecFragmentNames.attributeArgument("Strategy", of: field, occurrence: 1)
            emitFragment("\(storageAccess)static var \(name): \(RuntimeNames.sharedStrategy)<\(type)> {", strategy, closing: "}", into: &writer)
        case .plain:
            break
        }
    }

    /// The static member names of an `@Edge` field's arguments, in order.
    func edgeArgumentNames(of field: CheckedField, _ arguments: [Attribute.Argument]) -> [String] {
        var seen: [String: Int] = [:]
        return arguments.map { argument in
            let role = switch argument.label?.name {
            case "assert": "Assert"
            case "onSet": "OnSet"
            default: "Middleware"
            }
            seen[role, default: 0] += 1
            return SpecFragmentNames.attributeArgument(role, of: field, occurrence: seen[role]!)
        }
    }

    /// Emits a fragment after `header`. A typealias keeps its header on the spec line (`sameLine`):
    /// errors about the declaration itself, such as a public state using an internal type, then
    /// land on the right line, and an error inside the type is off only in its column.
    private func emitFragment(_ header: String, _ fragment: SourceText?, closing: String? = nil, sameLine: Bool = false, into writer: inout CodeWriter) {
        guard let fragment else { return }
        let layout = FragmentLayout(header: header, fragment: fragment, closing: closing, sameLine: sameLine)
        for line in layout.lines(sourcePath: source.pathLiteral, indentation: writer.indentation) {
            writer.verbatim(line)
        }
    }
}
