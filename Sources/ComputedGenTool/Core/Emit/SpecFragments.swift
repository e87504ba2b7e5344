/// The spec's Swift fragments outside bodies — field, computed and selector types, default values
/// and attribute arguments — each written exactly once in the generated code, under
/// `#sourceLocation` at its spec line and column.
///
/// A type is spelled in many generated declarations (the initializer, the accessors, the storage,
/// the selectors, the bodies), so a misspelled one used to be reported eight or more times, all in
/// the generated file. Instead each type gets a typealias, declared where the spec wrote it, and
/// the generated declarations use the alias: Swift reports the bad type once, at the alias, and
/// stays silent about the declarations that use it. The public interface spells a type as the
/// spec wrote it instead when the generator knows it exists (``KnownTypes``), where no mistake
/// can be reported at all. Default values and attribute arguments become
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

    func lines(sourcePath: String, indentation: String) -> [String] {
        let text = FragmentLayout.lines(of: fragment)
        let line = fragment.location.line
        var lines: [String]
        if line > 1 {
            lines = ["#sourceLocation(file: \(sourcePath), line: \(line - 1))", indentation + header, FragmentLayout.padding(fragment) + text[0]]
        } else {
            // No line before the first: the header shares the fragment's line, which loses its column.
            lines = ["#sourceLocation(file: \(sourcePath), line: \(line))", indentation + header + (header.isEmpty ? "" : " ") + text[0]]
        }
        lines += text.dropFirst()
        if let closing { lines.append(indentation + closing) }
        lines.append("#sourceLocation()")
        return lines
    }

    /// The fragment's lines, without carriage returns.
    static func lines(of fragment: SourceText) -> [String] {
        BodyLayout.splitLines(fragment.text).map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
    }

    /// The spaces that put a line's first character at the fragment's spec column (columns count
    /// UTF-8 bytes; the generated text before a fragment is ASCII).
    static func padding(_ fragment: SourceText, after prefix: Int = 0) -> String {
        String(repeating: " ", count: max(fragment.location.column - 1 - prefix, 0))
    }
}

/// Lays out the spec's types as typealiases so that each type keeps its spec line and column, in
/// about one generated line per type:
///
/// ```
/// #sourceLocation(file: "Todo.statespec", line: 4)
///     public typealias
///  __todosType=[Todo]; public typealias
/// __filterType=Filter
/// #sourceLocation()
/// ```
///
/// The alias's name shares its type's line (so an error about the declaration, such as a public
/// state using an internal type, is on the spec line of the type), right before the type, which
/// is padded to its spec column; the keywords end the line before. A name too long to fit before
/// its type goes on the line before too. Types on lines that follow each other (at most two apart,
/// padded with blank lines) share one `#sourceLocation`; a type on the line of the previous one
/// starts a new one.
struct TypeAliasLayout {
    /// One alias: its keywords (`public typealias`), its name, and the spec's type.
    struct Alias {
        var keywords: String
        var name: String
        var type: SourceText
    }

    let sourcePath: String
    let indentation: String

    func lines(_ aliases: [Alias]) -> [String] {
        // In spec order (stable: members at one position keep their order).
        let ordered = aliases.enumerated().sorted {
            ($0.element.type.location.line, $0.element.type.location.column, $0.offset)
                < ($1.element.type.location.line, $1.element.type.location.column, $1.offset)
        }.map(\.element)
        var lines: [String] = []
        // The spec line of the last generated line, while a `#sourceLocation` is open.
        var lastLine: Int?
        for alias in ordered {
            let line = alias.type.location.line
            let text = FragmentLayout.lines(of: alias.type)
            // `name=` right before the type (`=` with no space on either side, which Swift reads
            // as with spaces on both), or `name =` on the line before when it does not fit or the
            // type starts with an operator character (`=~` would be one operator).
            let operatorStart = text[0].first.map { "/=-+!*%<>&|^~?.".contains($0) } ?? false
            let nameFits = alias.name.utf8.count + 1 <= alias.type.location.column - 1 && !operatorStart
            let keywords = nameFits ? alias.keywords : "\(alias.keywords) \(alias.name) ="
            let first = FragmentLayout.padding(alias.type, after: nameFits ? alias.name.utf8.count + 1 : 0)
                + (nameFits ? alias.name + "=" : "") + text[0]
            if let last = lastLine, line == last + 1 {
                lines[lines.count - 1] += "; " + keywords
            } else if let last = lastLine, line > last + 1, line <= last + 3 {
                lines += Array(repeating: "", count: line - last - 2) + [indentation + keywords]
            } else {
                if lastLine != nil { lines.append("#sourceLocation()") }
                guard line > 1 else {
                    // No line before the first: all on the type's line, which loses its column.
                    lines += ["#sourceLocation(file: \(sourcePath), line: 1)", "\(indentation)\(alias.keywords) \(alias.name) = \(text[0])"]
                    lines += text.dropFirst()
                    lastLine = text.count
                    continue
                }
                lines += ["#sourceLocation(file: \(sourcePath), line: \(line - 1))", indentation + keywords]
            }
            lines.append(first)
            lines += text.dropFirst()
            lastLine = line + text.count - 1
        }
        if lastLine != nil { lines.append("#sourceLocation()") }
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

    /// A field's type in the public interface: as the spec wrote it when the generator knows it
    /// exists (see ``KnownTypes``), so Quick Help, DocC and completion show `[String: Int]`;
    /// otherwise its alias, which reports a mistake in it once.
    func publicType(_ field: CheckedField) -> String {
        field.decl.type.flatMap { source.knownTypes.spelling(of: $0.text) } ?? typeAlias(field)
    }

    /// A computed value's type in the public interface (see ``publicType(_:)-field``).
    func publicType(_ computed: CheckedComputed) -> String {
        computed.decl.type.flatMap { source.knownTypes.spelling(of: $0.text) } ?? typeAlias(computed)
    }

    /// Emits the types as typealiases of the state. (The default values and attribute arguments
    /// are static members of `Extended`, which generated code reaches without dynamic member
    /// lookup: on the state, a reference to a member that failed to compile would fall back to
    /// its `dynamicMember` subscript and report a second, misleading error.)
    func emitSpecFragments(into writer: inout CodeWriter) {
        emitSpecConformances(into: &writer)
        guard !state.fields.isEmpty || !state.computeds.isEmpty || !state.selectors.isEmpty else { return }
        writer.line()
        writer.line("// The spec's types, each written once at its spec line and column, so that a mistake in")
        writer.line("// one is reported once, where it was written.")
        writer.block("extension \(typeName)") { writer in
            let keywords = "\(access)typealias"
            var aliases: [TypeAliasLayout.Alias] = []
            for field in state.fields {
                guard let type = field.decl.type else { continue }
                aliases.append(.init(keywords: keywords, name: typeAlias(field), type: type))
            }
            for computed in state.computeds {
                guard let type = computed.decl.type else { continue }
                aliases.append(.init(keywords: keywords, name: typeAlias(computed), type: type))
            }
            for (selector, storage) in zip(state.selectors, Self.storageNames(of: state.selectors)) {
                for parameter in selector.decl.parameters {
                    guard let type = parameter.type else { continue }
                    aliases.append(.init(keywords: keywords, name: SpecFragmentNames.parameter(parameter, ofSelectorStorage: storage), type: type))
                }
                guard let type = selector.decl.returnType else { continue }
                aliases.append(.init(keywords: keywords, name: SpecFragmentNames.result(ofSelectorStorage: storage), type: type))
            }
            for line in TypeAliasLayout(sourcePath: source.pathLiteral, indentation: writer.indentation).lines(aliases) {
                writer.verbatim(line)
            }
        }
    }

    /// The spec's conformances that no generated extension implements (`Identifiable`, a protocol
    /// of the app's), in spec order without repeats.
    var specConformances: [Identifier] {
        var seen: Set<String> = ["Sendable"]
        return state.decl.conformances.filter { !ConformanceEmitter.handled.contains($0.name) && seen.insert($0.name).inserted }
    }

    /// Emits one empty extension per conformance of `specConformances`, the protocol's name at its
    /// spec line and column: a misspelled or unknown protocol, or a requirement the state does not
    /// meet, is reported there.
    func emitSpecConformances(into writer: inout CodeWriter) {
        for conformance in specConformances {
            writer.line()
            let name = SourceText(swiftName(conformance) + " {}", at: conformance.location)
            for line in FragmentLayout(header: "extension \(typeName):", fragment: name, closing: nil)
                .lines(sourcePath: source.pathLiteral, indentation: writer.indentation) {
                writer.verbatim(line)
            }
        }
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

    /// Emits a fragment after `header`, at its spec line and column (``FragmentLayout``).
    private func emitFragment(_ header: String, _ fragment: SourceText?, closing: String? = nil, into writer: inout CodeWriter) {
        guard let fragment else { return }
        let layout = FragmentLayout(header: header, fragment: fragment, closing: closing)
        for line in layout.lines(sourcePath: source.pathLiteral, indentation: writer.indentation) {
            writer.verbatim(line)
        }
    }
}
