/// The Swift form's top level and members (see ``SpecForm/swift``).
///
/// A Swift-form spec is a Swift file: besides its states (`struct …Spec`) it may declare anything,
/// which the parser skips. Inside a state, a stored `var` is a field, a `var` with a body is a
/// computed value, and a `func` is a selector; what the spec language writes as `from`, `cache`
/// and `@NoCutoff` is a `// computedgen:` directive comment on the lines before the member.
extension Parser {
    /// Words that start a member of a Swift struct: the recovery points inside a Swift-form state.
    static let swiftMemberStarts: Set<String> = [
        "var", "let", "func", "init", "deinit", "subscript", "typealias", "associatedtype", "case",
        "struct", "enum", "class", "actor", "protocol", "extension",
        "public", "package", "internal", "private", "fileprivate", "open",
        "static", "mutating", "nonmutating", "lazy", "weak", "unowned", "final", "override",
        "nonisolated", "dynamic", "convenience", "required", "indirect",
    ]

    /// Modifiers a Swift-form member may carry: the generated state's access level is the state's,
    /// so `public var` in a `public struct …Spec` (which the plain type needs) changes nothing.
    private static let ignoredMemberModifiers: Set<String> = ["public", "package", "internal"]

    /// Whether the current line starts a Swift-form state: `[public|package|internal] struct NameSpec`.
    func startsSwiftFormState() -> Bool {
        var look = index
        if ["public", "package", "internal"].contains(where: tokenOrEnd(at: look).isWord) { look += 1 }
        guard tokenOrEnd(at: look).isWord("struct") else { return false }
        let name = tokenOrEnd(at: look + 1)
        return name.kind == .identifier && SpecForm.stateName(forSwiftType: name.text) != nil
    }

    /// Skips a top-level declaration that is not a state (a helper type, a function, an
    /// extension), warning when it extends a state: the generated state would not have its members.
    mutating func skipSwiftTopLevelDeclaration() {
        pendingDoc = []
        var look = index
        while ["public", "package", "internal", "private", "fileprivate"].contains(where: tokenOrEnd(at: look).isWord) { look += 1 }
        let keyword = tokenOrEnd(at: look)
        let extended = tokenOrEnd(at: look + 1)
        if keyword.isWord("extension"), extended.kind == .identifier, let state = SpecForm.stateName(forSwiftType: extended.text) {
            let message = "the generated state '\(state)' does not have the members of an extension of '\(extended.text)'; declare them inside 'struct \(extended.text) { … }', or extend '\(state)' instead"
            diagnostics.append(Diagnostic(.warning, path: path, at: keyword.location, message))
        }
        let start = index
        skipToTopLevel()
        if index == start { advance() }
    }

    /// Parses one member of a Swift-form state, reporting and recovering from its errors.
    mutating func parseSwiftFormMember(in context: MemberContext) -> Member? {
        let directives = readDirectives()
        guard let (doc, start, attributes) = beginMember() else { return nil }
        while current.kind == .identifier, !current.isEscaped, Self.ignoredMemberModifiers.contains(current.text) {
            advance()
        }
        if current.isWord("var") || current.isWord("let") {
            return parseSwiftFormVariable(doc: doc, attributes: attributes, directives: directives, start: start, in: context)
        }
        if current.isWord("func") {
            for attribute in attributes {
                report("'@\(attribute.name.name)' applies only to stored properties; remove it from this function", at: attribute.location)
            }
            return parseSwiftFormFunction(doc: doc, directives: directives, start: start, in: context)
        }
        if !current.isMalformed {
            report(unsupportedMemberMessage(for: current, in: context), at: current.location)
        }
        advance()  // the word that starts the member, which is itself a recovery point
        skipToNextMember()
        return nil
    }

    private func unsupportedMemberMessage(for token: Token, in context: MemberContext) -> String {
        let type = context.stateName + SpecForm.typeSuffix
        switch token.text {
        case "private", "fileprivate":
            return "a member of a state spec is as visible as the state; remove '\(token.text)', or move a helper out of '\(type)'"
        case "static", "class", "init", "subscript", "struct", "enum", "typealias", "mutating", "lazy":
            return "'\(token.text)' members are not part of a state spec: '\(type)' holds stored properties (fields), computed properties and functions (selectors); move this member to an extension of the generated state or to another type"
        default:
            return "expected 'var' or 'func' in state spec '\(type)', found \(describe(token))"
        }
    }

    // MARK: - Fields and computed values

    /// `var name: Type = default` (a field) or `var name: Type { body }` (a computed value).
    private mutating func parseSwiftFormVariable(
        doc: DocComment?, attributes: [Attribute], directives: SwiftFormDirectives, start: SourceLocation, in context: MemberContext
    ) -> Member? {
        let keyword = current
        guard let name = peek(1).identifier else {
            advance()
            report("expected a property name after '\(keyword.text)', e.g. 'var count: Int = 0'", at: current.location)
            skipToNextMember()
            return nil
        }
        // Whether a body follows the type: a computed value rather than a field.
        var look = index + 2
        var isComputed = false
        if tokenOrEnd(at: look).isPunctuation(":") {
            look += 1
            var depth = 0
            while look < tokens.count {
                let token = tokens[look]
                if depth == 0, token.isPunctuation("=") || token.isPunctuation(";") || token.isPunctuation("}") { break }
                if depth == 0, token.isPunctuation("{") { isComputed = true; break }
                if depth == 0, token.isAtLineStart, look > index + 3, !tokens[look - 1].isPunctuation("->") { break }
                depth = max(0, depth + Self.bracketDelta(of: token) + (token.isPunctuation("<") ? 1 : token.isPunctuation(">") ? -1 : 0))
                look += 1
            }
        }
        guard isComputed else {
            directives.reportMisuse(for: "field '\(name.name)'", allowing: [], into: &self)
            return parseField(doc: doc, attributes: attributes, start: start)
        }
        for attribute in attributes {
            report("'@\(attribute.name.name)' applies only to stored properties; remove it from computed property '\(name.name)'", at: attribute.location)
        }
        if keyword.isWord("let") {
            report("a computed property is declared with 'var'; replace 'let' with 'var'", at: keyword.location)
        }
        advance()  // `var`
        advance()  // the name
        var decl = ComputedDecl(doc: doc, name: name, type: nil, body: placeholderBody(at: name.location), at: start)
        directives.reportMisuse(for: "computed property '\(name.name)'", allowing: [.from, .noCutoff], into: &self)
        decl.explicitInputs = directives.from
        decl.noCutoff = directives.noCutoff != nil
        do throws(ParseFailure) {
            advance()  // `:`
            decl.type = try parseType()
            decl.body = try parseSwiftFormBody(of: "computed property '\(name.name)'", memberStart: start, in: context)
            decl.body.text = Self.withoutEvaluated(decl.body.text)
            try expectMemberEnd(after: name)
        } catch {
            incompleteMembers.insert(name.location)
            recover(from: error)
        }
        return .computed(decl)
    }

    /// A computed property's body: `{ … }`, or `{ get { … } }` (whose inner body is the one read).
    private mutating func parseSwiftFormBody(of owner: String, memberStart: SourceLocation, in context: MemberContext) throws(ParseFailure) -> Body {
        guard current.isPunctuation("{"), let close = matchingBrace(from: index) else {
            return try parseBody(of: owner, memberStart: memberStart, in: context)
        }
        let accessor = peek(1)
        guard accessor.isWord("get") || accessor.isWord("set") || accessor.isWord("_read") || accessor.isWord("_modify"),
              peek(2).isPunctuation("{"), let inner = matchingBrace(from: index + 2) else {
            return try parseBody(of: owner, memberStart: memberStart, in: context)
        }
        guard accessor.isWord("get"), inner + 1 == close else {
            let settable = tokens[index..<close].first { $0.isWord("set") || $0.isWord("_modify") }
            throw fail("\(owner) is read-only in the generated state: give it a body or a single 'get'", at: (settable ?? accessor).location, resumeAt: close + 1)
        }
        advance()  // the outer `{`
        advance()  // `get`
        let body = try parseBody(of: owner, memberStart: memberStart, in: context)
        advance()  // the outer `}`
        return body
    }

    /// A derived collection's body without the `.evaluated()` that ends it in the plain type
    /// (which evaluates the query there; the generated state evaluates it incrementally).
    static func withoutEvaluated(_ body: String) -> String {
        let tokens = Lexer.tokenize(body).tokens
        let count = tokens.count
        guard count >= 5, tokens[count - 4].isPunctuation("."), tokens[count - 3].isWord("evaluated"),
              tokens[count - 2].isPunctuation("("), tokens[count - 1].isPunctuation(")") else { return body }
        let bytes = Array(body.utf8)
        return String(decoding: bytes[..<tokens[count - 4].location.offset] + bytes[tokens[count - 1].endOffset...], as: UTF8.self)
    }

    // MARK: - Selectors

    /// `func name(label param: Type, …) -> Type { body }`.
    private mutating func parseSwiftFormFunction(
        doc: DocComment?, directives: SwiftFormDirectives, start: SourceLocation, in context: MemberContext
    ) -> Member? {
        advance()  // `func`
        guard let name = current.identifier else {
            report("expected a function name after 'func'", at: current.location)
            skipToNextMember()
            return nil
        }
        advance()
        var decl = SelectorDecl(doc: doc, name: name, returnType: nil, body: placeholderBody(at: name.location), at: start)
        directives.reportMisuse(for: "function '\(name.name)'", allowing: [.from, .cache], into: &self)
        decl.explicitInputs = directives.from
        decl.cacheCapacity = directives.cache?.capacity
        decl.cacheCapacityLocation = directives.cache?.location
        do throws(ParseFailure) {
            if current.isPunctuation("<") {
                throw fail("a selector cannot be generic; give function '\(name.name)' concrete parameter types", at: current.location)
            }
            decl.parameters = try parseParameters(of: name)
            if let effect = [current, peek(1)].first(where: { ["async", "throws", "rethrows"].contains(where: $0.isWord) }), !current.isPunctuation("{") {
                throw fail("a selector cannot be '\(effect.text)': its value is memoized; return a value that holds the outcome (a 'Result')", at: effect.location)
            }
            guard current.isPunctuation("->") else {
                throw fail("function '\(name.name)' of a state spec is a selector and returns a value: add '-> Type' before its body", at: current.location)
            }
            advance()
            decl.returnType = try parseType()
            decl.body = try parseBody(of: "function '\(name.name)'", memberStart: start, in: context)
            try expectMemberEnd(after: name)
        } catch {
            incompleteMembers.insert(name.location)
            recover(from: error)
        }
        return .selector(decl)
    }
}
