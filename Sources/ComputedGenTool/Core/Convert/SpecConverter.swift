/// Rewrites a spec from one ``SpecForm`` to the other, keeping everything the user wrote that both
/// forms can hold: comments, blank lines, formatting and bodies.
///
/// The conversion edits the source where the forms differ rather than printing the model, so a
/// converted file reads like the original:
///
/// | spec language                              | Swift form                                           |
/// |--------------------------------------------|------------------------------------------------------|
/// | `state TodoState {`                        | `struct TodoStateSpec {`                             |
/// | `computed n: Int from todos { … }`         | `// computedgen: from todos` + `var n: Int { … }`    |
/// | `@NoCutoff computed x: T { … }`            | `// computedgen: noCutoff` + `var x: T { … }`        |
/// | `selector f(_ a: A) -> T cache 8 { … }`    | `// computedgen: cache 8` + `func f(_ a: A) -> T { … }` |
/// | `shelf.computed.total`                     | `shelf.total`                                        |
///
/// The Swift form gets `import ComputedRuntime` (its property wrappers and collections need it).
public enum SpecConverter {
    /// The result of a conversion: the converted text, or the errors that prevent it.
    public typealias Result = Swift.Result<String, DiagnosticsError>

    /// The path of `path`'s spec in the other form: `Todo.statespec` ↔ `Todo.state.swift`.
    public static func convertedPath(of path: String) -> String {
        if path.hasSuffix(SpecForm.swiftFileSuffix) {
            return String(path.dropLast(SpecForm.swiftFileSuffix.count)) + SpecForm.specFileSuffix
        }
        let base = path.hasSuffix(SpecForm.specFileSuffix) ? String(path.dropLast(SpecForm.specFileSuffix.count)) : path
        return base + SpecForm.swiftFileSuffix
    }

    /// Converts the spec `source` at `path` to the other form. `context` names the states of the
    /// target's other specs, whose names change with the form too.
    public static func convert(source: String, path: String, context: SpecContext = SpecContext()) -> Result {
        switch SpecForm(path: path) {
        case .spec: toSwift(source: source, path: path, context: context)
        case .swift: toSpec(source: source, path: path, context: context)
        }
    }

    // MARK: - To the Swift form

    static func toSwift(source: String, path: String, context: SpecContext) -> Result {
        let parsed = SpecParser.parse(source: source, path: path)
        if let errors = errors(in: parsed.diagnostics) { return .failure(errors) }
        let checked = SpecChecker.check(parsed.file, incompleteMembers: parsed.incompleteMembers, context: context)
        if let errors = errors(in: checked.diagnostics) { return .failure(errors) }
        let derived = Set((checked.spec?.states ?? []).flatMap(derivedCollections).map(\.offset))
        let tokens = ConversionTokens(source)
        let stateNames = Set(parsed.file.states.map(\.name.name)).union(context.states.keys)
        var edits = TextEdits()
        for state in parsed.file.states {
            if let keyword = tokens.first(after: state.location.offset, where: { $0.isWord("state") }) {
                edits.replace(keyword.location.offset..<keyword.endOffset, with: "struct")
            }
            // A public plain type is not inferred `Sendable`, and its bodies' `@Sendable` closures
            // (`filter { $0.title.contains(query) }`) capture it; a generated state always is.
            if state.access != .internal, !state.conformances.contains(where: { $0.name == "Sendable" }),
               let open = tokens.first(after: state.name.location.offset, where: { $0.isPunctuation("{") }), let last = tokens.previous(before: open) {
                edits.insert(state.conformances.isEmpty ? ": Sendable" : ", Sendable", at: last.endOffset)
            }
            for member in state.members {
                convertToSwift(member, derived: derived, tokens: tokens, edits: &edits)
            }
        }
        for token in tokens.all where token.kind == .identifier && stateNames.contains(token.text) {
            guard !tokens.isAfterDot(token) else { continue }
            edits.replace(token.location.offset..<token.endOffset, with: token.text + SpecForm.typeSuffix)
        }
        // `shelf.computed.total` → `shelf.total`: the plain type has no `computed`.
        for run in tokens.runs {
            for index in run.indices where tokens.readsThroughComputed(run, at: index) {
                edits.replace(run[index - 1].location.offset..<run[index].endOffset, with: "")
            }
        }
        if !parsed.file.imports.contains(where: { $0.module == "ComputedRuntime" }) {
            let line = parsed.file.imports.last.map { tokens.lineEnd(after: $0.location.offset) + 1 }
                ?? parsed.file.states.first.map { tokens.lineStart(of: $0.location.offset) }
                ?? 0
            let separator = parsed.file.imports.isEmpty ? "\n" : ""
            edits.insert("import ComputedRuntime\n" + separator, at: line)
        }
        return .success(edits.apply(to: source))
    }

    /// Where the computed values of `state` that are derived collections (views, groups,
    /// sections, totals per key, joins, folds of a list) are declared: the plain type ends their
    /// bodies with `.evaluated()`, to evaluate their queries.
    private static func derivedCollections(of state: CheckedState) -> [SourceLocation] {
        let emitter = StateEmitter(state: state, source: SourceContext(path: state.decl.name.name))
        return state.computeds.filter { computed in
            computed.isIncrementalList || DerivedCollectionTypes.isKeyedTotals(computed.type) || emitter.isIncremental(computed)
        }.map(\.decl.location)
    }

    private static func convertToSwift(_ member: Member, derived: Set<Int>, tokens: ConversionTokens, edits: inout TextEdits) {
        var directives: [String] = []
        let keyword: Token?
        let openBrace: SourceLocation?
        switch member {
        case .field:
            return
        case .computed(let decl):
            keyword = tokens.token(at: decl.location.offset)
            openBrace = decl.body.openBrace
            if let inputs = decl.explicitInputs { directives.append("from " + inputs.map(\.name).joined(separator: ", ")) }
            if decl.noCutoff { directives.append("noCutoff") }
            if let keyword { edits.replace(keyword.location.offset..<keyword.endOffset, with: "var") }
            // A derived collection's query, evaluated in full by the plain type.
            if derived.contains(decl.location.offset), let open = tokens.token(at: decl.body.openBrace.offset),
               let close = tokens.matchingBrace(of: open), let last = tokens.previous(before: close), last.location.offset > open.location.offset {
                edits.insert(".evaluated()", at: last.endOffset)
            }
        case .selector(let decl):
            keyword = tokens.token(at: decl.location.offset)
            openBrace = decl.body.openBrace
            if let inputs = decl.explicitInputs { directives.append("from " + inputs.map(\.name).joined(separator: ", ")) }
            if let capacity = decl.cacheCapacity { directives.append("cache \(capacity)") }
            if let keyword { edits.replace(keyword.location.offset..<keyword.endOffset, with: "func") }
        }
        guard let keyword, let openBrace else { return }
        // `from …` and `cache N` between the type and the body.
        if let clause = tokens.first(after: keyword.location.offset, before: openBrace.offset, where: { $0.isWord("from") || $0.isWord("cache") }) {
            edits.replace(clause.location.offset..<openBrace.offset, with: "")
        }
        // `@NoCutoff` before the keyword.
        var memberStart = keyword.location.offset
        if let at = tokens.attribute("NoCutoff", before: keyword) {
            edits.replace(at.location.offset..<keyword.location.offset, with: "")
            memberStart = at.location.offset
        }
        guard !directives.isEmpty else { return }
        let lineStart = tokens.lineStart(of: memberStart)
        let indent = tokens.text(from: lineStart, to: memberStart)
        edits.insert("\(indent)// \(SpecForm.directivePrefix) \(directives.joined(separator: "; "))\n", at: lineStart)
    }

    // MARK: - To the spec language

    static func toSpec(source: String, path: String, context: SpecContext) -> Result {
        let parsed = SpecParser.parse(source: source, path: path, context: context)
        if let errors = errors(in: parsed.diagnostics) { return .failure(errors) }
        let tokens = ConversionTokens(source)
        var edits = TextEdits()
        var stateRanges: [Range<Int>] = []
        for state in parsed.file.states {
            if let keyword = tokens.first(after: state.location.offset, where: { $0.isWord("struct") }) {
                edits.replace(keyword.location.offset..<keyword.endOffset, with: "state")
            }
            stateRanges.append(state.location.offset..<state.endLocation.offset)
            // Generated states are always `Sendable`: the spec language does not list it.
            if let sendable = state.conformances.first(where: { $0.name == "Sendable" }), let token = tokens.token(at: sendable.location.offset),
               let before = tokens.previous(before: token), let after = tokens.next(after: token) {
                if after.isPunctuation(",") {
                    edits.replace(token.location.offset..<(tokens.next(after: after)?.location.offset ?? after.endOffset), with: "")
                } else {
                    edits.replace(before.location.offset..<token.endOffset, with: "")
                }
            }
            for member in state.members {
                convertToSpec(member, tokens: tokens, edits: &edits)
            }
        }
        let stateNames = Set(parsed.file.states.map(\.name.name)).union(context.states.keys)
        for token in tokens.all where token.kind == .identifier && !token.isEscaped {
            guard let name = SpecForm.stateName(forSwiftType: token.text), stateNames.contains(name), !tokens.isAfterDot(token) else { continue }
            edits.replace(token.location.offset..<token.endOffset, with: Renamer.spelling(of: name))
        }
        // `import ComputedRuntime` goes (the generated file imports it), with the blank line after
        // it when it was the only import (as `convert` writes it).
        for item in parsed.file.imports where item.module == "ComputedRuntime" {
            let start = tokens.lineStart(of: item.location.offset)
            var end = tokens.lineEnd(after: item.location.offset) + 1
            if parsed.file.imports.count == 1, end < tokens.bytes.count, tokens.bytes[end] == UInt8(ascii: "\n") { end += 1 }
            edits.replace(start..<min(end, tokens.bytes.count), with: "")
        }
        // Declarations other than states have no place in a `.statespec`.
        var diagnostics: [Diagnostic] = []
        for token in tokens.top where token.isAtLineStart && token.location.column == 1 {
            let offset = token.location.offset
            guard !stateRanges.contains(where: { $0.contains(offset) || $0.upperBound == offset }),
                  !parsed.file.imports.contains(where: { $0.location.offset == offset }),
                  token.kind != .docComment, !token.isPunctuation("@"),
                  !["public", "package", "internal"].contains(where: token.isWord) || !tokens.startsState(at: token) else { continue }
            let message = "\(describe(token)) is not part of a state and has no place in a .statespec; move it to a Swift file of the target before converting"
            diagnostics.append(Diagnostic(path: path, at: token.location, message))
        }
        if !diagnostics.isEmpty { return .failure(DiagnosticsError(diagnostics)) }
        return .success(edits.apply(to: source))
    }

    private static func convertToSpec(_ member: Member, tokens: ConversionTokens, edits: inout TextEdits) {
        let start: Int
        let keywordWord: String
        let newKeyword: String
        var clauses: [String] = []
        var noCutoff = false
        let body: Body
        switch member {
        case .field(let decl):
            start = decl.location.offset
            keywordWord = "var"
            newKeyword = "var"
            body = Body(text: "", at: decl.location, openBrace: decl.location)
        case .computed(let decl):
            start = decl.location.offset
            keywordWord = "var"
            newKeyword = "computed"
            if let inputs = decl.explicitInputs { clauses.append("from " + inputs.map(\.name).joined(separator: ", ")) }
            noCutoff = decl.noCutoff
            body = decl.body
        case .selector(let decl):
            start = decl.location.offset
            keywordWord = "func"
            newKeyword = "selector"
            if let inputs = decl.explicitInputs { clauses.append("from " + inputs.map(\.name).joined(separator: ", ")) }
            if let capacity = decl.cacheCapacity { clauses.append("cache \(capacity)") }
            body = decl.body
        }
        // The directive comment lines before the member go; what they said moves into the member.
        tokens.directiveLines(before: start).forEach { edits.replace($0, with: "") }
        guard let keyword = tokens.first(after: start, where: { $0.isWord(keywordWord) || $0.isWord("let") }) else { return }
        // `public var` → `var`: the state's access level is the generated API's.
        for modifier in tokens.modifiers(from: start, before: keyword.location.offset) {
            edits.replace(modifier.location.offset..<(tokens.next(after: modifier)?.location.offset ?? modifier.endOffset), with: "")
        }
        edits.replace(keyword.location.offset..<keyword.endOffset, with: (noCutoff ? "@NoCutoff " : "") + newKeyword)
        guard case .field = member else {
            // The body as the generated state reads it (through `.computed`), without a `get { }`.
            guard let outer = tokens.first(after: keyword.location.offset, where: { $0.isPunctuation("{") && $0.location.offset <= body.openBrace.offset }),
                  let close = tokens.matchingBrace(of: outer) else { return }
            let clauseText = clauses.isEmpty ? "" : clauses.joined(separator: " ") + " "
            edits.replace(outer.location.offset..<(close.endOffset), with: clauseText + "{" + body.text + "}")
            return
        }
    }

    // MARK: - Helpers

    private static func errors(in diagnostics: [Diagnostic]) -> DiagnosticsError? {
        let errors = diagnostics.filter { $0.severity == .error }
        return errors.isEmpty ? nil : DiagnosticsError(errors)
    }

    private static func describe(_ token: Token) -> String {
        token.kind == .identifier ? "'\(token.text)'" : "this declaration"
    }
}
