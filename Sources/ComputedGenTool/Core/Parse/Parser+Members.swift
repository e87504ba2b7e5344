extension Parser {
    // MARK: - Attributes

    /// `@Name` or `@Name(arguments)`, repeated. The runtime's wrappers may be qualified with its
    /// module, `@ComputedRuntime.Edge`, as a Swift file that imports SwiftUI (which declares an
    /// `Edge` of its own) must write them.
    mutating func parseAttributes() throws(ParseFailure) -> [Attribute] {
        var attributes: [Attribute] = []
        while current.isPunctuation("@") {
            let at = current.location
            advance()
            if current.isWord("ComputedRuntime"), peek(1).isPunctuation("."), peek(2).identifier != nil, !peek(1).isAtLineStart {
                advance()  // `ComputedRuntime`
                advance()  // `.`
            }
            guard let name = current.identifier, !startsMember(current), !SwiftKeywords.isReserved(name.name) || name.isEscaped else {
                throw fail("expected an attribute name after '@', e.g. '@Edge'", at: current.location)
            }
            advance()
            var arguments: [Attribute.Argument]?
            if current.isPunctuation("("), !current.isAtLineStart {
                arguments = try parseArguments(of: name)
            }
            attributes.append(Attribute(name: name, arguments: arguments, at: at))
        }
        return attributes
    }

    /// `(label: expression, expression, …)`, each expression captured verbatim.
    private mutating func parseArguments(of attribute: Identifier) throws(ParseFailure) -> [Attribute.Argument] {
        let end = try balancedEnd(from: index, what: "the arguments of '@\(attribute.name)'")
        advance()
        var arguments: [Attribute.Argument] = []
        var argumentStart = index
        var depth = 0
        while index < end {
            if depth == 0, current.isPunctuation(",") {
                arguments.append(try argument(from: argumentStart, to: index, separator: current))
                argumentStart = index + 1
            }
            depth += Self.bracketDelta(of: current)
            advance()
        }
        if argumentStart < end {  // Otherwise `()` or a trailing comma.
            arguments.append(try argument(from: argumentStart, to: end, separator: current))
        }
        advance()  // `)`
        return arguments
    }

    /// One argument made of the tokens `start..<end`; `separator` follows it (for messages).
    private mutating func argument(from start: Int, to end: Int, separator: Token) throws(ParseFailure) -> Attribute.Argument {
        var valueStart = start
        var label: Identifier?
        if end - start >= 2, tokens[start].kind == .identifier, tokens[start + 1].isPunctuation(":") {
            label = tokens[start].identifier
            valueStart = start + 2
        }
        guard valueStart < end else {
            let what = label.map { "after '\($0.name):'" } ?? "before \(describe(separator))"
            throw fail("expected an expression \(what)", at: tokenOrEnd(at: valueStart).location)
        }
        return Attribute.Argument(label: label, value: sourceText(from: valueStart, to: end))
    }

    // MARK: - Fields

    /// `[attributes] var name: Type [= default]`; `let` is reported and read as `var`.
    mutating func parseField(doc: DocComment?, attributes: [Attribute], start: SourceLocation) -> Member? {
        if current.isWord("let") {
            report("state fields are declared with 'var'; replace 'let' with 'var'", at: current.location)
        }
        advance()
        guard let name = current.identifier else {
            report("expected a field name after 'var', e.g. 'var count: Int = 0'", at: current.location)
            skipToNextMember()
            return nil
        }
        advance()
        var field = FieldDecl(doc: doc, attributes: attributes, name: name, type: nil, at: start)
        do throws(ParseFailure) {
            try parseFieldRest(into: &field)
        } catch {
            incompleteMembers.insert(name.location)
            recover(from: error)
        }
        return .field(field)
    }

    private mutating func parseFieldRest(into field: inout FieldDecl) throws(ParseFailure) {
        if current.isPunctuation(":") {
            advance()
            field.type = try parseType()
        } else if !isAtMemberEnd, !current.isPunctuation("=") {
            throw fail("expected ':' and a type after field name '\(field.name.name)', found \(describe(current))", at: current.location)
        }
        if current.isPunctuation("=") {
            let equals = current
            advance()
            field.defaultValue = try parseDefaultValue()
            if field.defaultValue == nil {
                throw fail("expected a default value after '=' for field '\(field.name.name)'", at: equals.location)
            }
        }
        if current.isPunctuation("{") {
            let message = "a field cannot have a body; to derive '\(field.name.name)' from other fields, declare 'computed \(field.name.name): Type { … }'"
            throw fail(message, at: current.location)
        }
        try expectMemberEnd(after: field.name)
    }

    // MARK: - Computeds

    /// `computed name: Type [from a, b] { body }`.
    mutating func parseComputed(doc: DocComment?, in context: MemberContext) -> Member? {
        let start = current.location
        advance()
        guard let name = current.identifier else {
            report("expected a name after 'computed', e.g. 'computed total: Int { … }'", at: current.location)
            skipToNextMember()
            return nil
        }
        advance()
        var decl = ComputedDecl(doc: doc, name: name, type: nil, body: placeholderBody(at: name.location), at: start)
        do throws(ParseFailure) {
            if current.isPunctuation(":") {
                advance()
                decl.type = try parseType()
            } else if !current.isWord("from"), !current.isPunctuation("{") {
                throw fail("expected ':' and a type after computed name '\(name.name)', found \(describe(current))", at: current.location)
            }
            decl.explicitInputs = try parseFromClause()
            decl.body = try parseBody(of: "computed '\(name.name)'", memberStart: start, in: context)
            try expectMemberEnd(after: name)
        } catch {
            incompleteMembers.insert(name.location)
            recover(from: error)
        }
        return .computed(decl)
    }

    // MARK: - Selectors

    /// `selector name(label param: Type, …) -> Type [from a, b] [cache N] { body }`.
    mutating func parseSelector(doc: DocComment?, in context: MemberContext) -> Member? {
        let start = current.location
        advance()
        guard let name = current.identifier else {
            report("expected a name after 'selector', e.g. 'selector byOwner(_ owner: Int) -> [Todo] { … }'", at: current.location)
            skipToNextMember()
            return nil
        }
        advance()
        var decl = SelectorDecl(doc: doc, name: name, returnType: nil, body: placeholderBody(at: name.location), at: start)
        do throws(ParseFailure) {
            decl.parameters = try parseParameters(of: name)
            if current.isPunctuation("->") {
                advance()
                decl.returnType = try parseType()
            } else if !current.isWord("from"), !current.isWord("cache"), !current.isPunctuation("{") {
                throw fail("expected '->' and a return type after the parameters of selector '\(name.name)', found \(describe(current))", at: current.location)
            }
            try parseSelectorClauses(into: &decl)
            decl.body = try parseBody(of: "selector '\(name.name)'", memberStart: start, in: context)
            try expectMemberEnd(after: name)
        } catch {
            incompleteMembers.insert(name.location)
            recover(from: error)
        }
        return .selector(decl)
    }

    /// `(label name: Type, _ name: Type, name: Type)`.
    mutating func parseParameters(of selector: Identifier) throws(ParseFailure) -> [Parameter] {
        guard current.isPunctuation("(") else {
            let message = "expected '(' after selector name '\(selector.name)'; write '\(selector.name)()' for a selector without parameters"
            throw fail(message, at: current.location)
        }
        advance()
        var parameters: [Parameter] = []
        while !current.isPunctuation(")") {
            parameters.append(try parseParameter(of: selector))
            if current.isPunctuation(",") {
                advance()
            } else if !current.isPunctuation(")") {
                throw fail("expected ',' or ')' in the parameters of selector '\(selector.name)', found \(describe(current))", at: current.location)
            }
        }
        advance()
        return parameters
    }

    private mutating func parseParameter(of selector: Identifier) throws(ParseFailure) -> Parameter {
        guard let first = current.identifier else {
            throw fail("expected a parameter name in selector '\(selector.name)', found \(describe(current))", at: current.location)
        }
        advance()
        var label: Identifier?
        var name = first
        if let second = current.identifier {
            label = first
            name = second
            advance()
        }
        if name.name == "_" {
            throw fail("a parameter needs a name; write '_ name: Type' for a parameter without a label", at: name.location)
        }
        var type: SourceText?
        if current.isPunctuation(":") {
            advance()
            type = try parseType()
        }
        return Parameter(label: label, name: name, type: type)
    }

    /// `from a, b` and `cache N`, in either order, each at most once.
    private mutating func parseSelectorClauses(into decl: inout SelectorDecl) throws(ParseFailure) {
        while current.isWord("from") || current.isWord("cache") {
            let clause = current
            let isRepeated = clause.text == "from" ? decl.explicitInputs != nil : decl.cacheCapacity != nil
            if isRepeated {
                throw fail("selector '\(decl.name.name)' has more than one '\(clause.text)' clause; merge them into one", at: clause.location)
            }
            if clause.text == "from" {
                decl.explicitInputs = try parseFromClause()
            } else {
                (decl.cacheCapacity, decl.cacheCapacityLocation) = try parseCacheClause()
            }
        }
    }

    /// `from a, b`, or `nil` when there is no `from`.
    private mutating func parseFromClause() throws(ParseFailure) -> [Identifier]? {
        guard current.isWord("from") else { return nil }
        var names: [Identifier] = []
        repeat {
            let separator = current
            advance()
            guard let name = current.identifier else {
                throw fail("expected the name of a field or computed after '\(separator.text)'", at: current.location)
            }
            names.append(name)
            advance()
        } while current.isPunctuation(",")
        return names
    }

    /// `cache N`, with an optional `-` so that a negative capacity is reported as such.
    private mutating func parseCacheClause() throws(ParseFailure) -> (Int, SourceLocation) {
        advance()
        let location = current.location
        var sign = 1
        if current.isPunctuation("-") {
            sign = -1
            advance()
        }
        let digits = current.text.filter { $0 != "_" }
        guard current.kind == .number, let value = Int(digits) else {
            throw fail("expected a whole number after 'cache', e.g. 'cache 16', found \(describe(current))", at: current.location)
        }
        advance()
        return (sign * value, location)
    }

    // MARK: - Bodies

    /// `{ … }`: the text between the braces, verbatim.
    mutating func parseBody(of owner: String, memberStart: SourceLocation, in context: MemberContext) throws(ParseFailure) -> Body {
        guard current.isPunctuation("{") else {
            throw fail("expected '{' to begin the body of \(owner), found \(describe(current))", at: current.location)
        }
        let open = current
        let openIndex = index
        let unclosedMessage = "unbalanced braces in the body of \(owner): this '{' has no matching '}'; add the missing '}'"
        guard let close = matchingBrace(from: openIndex) else {
            if !endIsExplained(after: open.location.offset), !hasLexError(between: open.location.offset, and: bytes.count) {
                report(unclosedMessage, at: open.location)
            }
            reportedUnexpectedEnd = true
            index = tokens.count
            throw ParseFailure(resumeIndex: tokens.count)
        }
        let closing = tokens[close]
        if !context.stateIsBalanced, closing.isAtLineStart, closing.location.column < memberStart.column {
            // The state lacks a '}' and this body took it: the body is the unclosed one.
            if hasLexError(between: open.location.offset, and: closing.location.offset) {
                throw ParseFailure(resumeIndex: close)  // An unterminated string explains it.
            }
            throw fail(unclosedMessage, at: open.location, resumeAt: close)
        }
        index = close + 1
        checkBrackets(from: openIndex + 1, to: close, in: owner)
        checkConditionalCompilation(from: openIndex + 1, to: close, in: owner)
        let text = self.text(from: open.endOffset, to: closing.location.offset)
        return Body(text: text, at: BodyScanner.location(after: open), openBrace: open.location)
    }

    /// Reports the first unbalanced `(` or `[` (or a closer that closes nothing) among the tokens
    /// `start..<end` of a body, whose braces balance already: Swift would report it past the end
    /// of the body, in the generated file rather than in the spec.
    private mutating func checkBrackets(from start: Int, to end: Int, in owner: String) {
        var open: [Token] = []
        for token in tokens[start..<end] where token.kind == .punctuation {
            switch token.text {
            case "(", "[", "{":
                open.append(token)
            case ")", "]", "}":
                guard let opener = open.last else {
                    report("unexpected '\(token.text)' in the body of \(owner): it closes nothing; remove it", at: token.location)
                    return
                }
                guard Self.closes(token, opener) else {
                    reportUnclosed(opener, in: owner)
                    return
                }
                open.removeLast()
            default:
                break
            }
        }
        if let opener = open.last { reportUnclosed(opener, in: owner) }
    }

    private mutating func reportUnclosed(_ opener: Token, in owner: String) {
        let closer = ["(": ")", "[": "]", "{": "}"][opener.text] ?? ""
        report("unclosed '\(opener.text)' in the body of \(owner); add the missing '\(closer)'", at: opener.location)
    }

    /// Reports `#if` blocks of the tokens `start..<end` (a body) that are not closed by `#endif`
    /// inside the body, and `#else`, `#elseif` or `#endif` outside any: the body is copied into
    /// generated code, where an open `#if` would swallow the rest of the file.
    private mutating func checkConditionalCompilation(from start: Int, to end: Int, in owner: String) {
        var open: [Token] = []
        for token in tokens[start..<end] where token.kind == .poundKeyword {
            switch token.text {
            case "#if":
                open.append(token)
            case "#else", "#elseif", "#endif":
                if open.isEmpty {
                    report("'\(token.text)' without '#if' in the body of \(owner); remove it or add the '#if'", at: token.location)
                } else if token.text == "#endif" {
                    open.removeLast()
                }
            default:
                break
            }
        }
        if let unclosed = open.last {
            report("'#if' without '#endif' in the body of \(owner); add the '#endif' before the body's closing '}'", at: unclosed.location)
        }
    }

    func placeholderBody(at location: SourceLocation) -> Body {
        Body(text: "", at: location, openBrace: location)
    }
}
