extension Parser {
    /// `[public|package|internal] state Name[: A, B] { members }`. Returns `nil` when the state
    /// has no name or no body (the members of a nameless state are still parsed, for their errors).
    mutating func parseState() -> StateDecl? {
        let doc = takeDoc()
        let start = current.location
        let access = parseAccessLevel()
        advance()  // `state`, or `struct` in the Swift form
        var name: Identifier?
        let conformances: [Identifier]
        do throws(ParseFailure) {
            (name, conformances) = try parseStateHeader()
            if form == .swift, let typeName = name, let stateName = SpecForm.stateName(forSwiftType: typeName.name) {
                name = Identifier(stateName, isEscaped: SwiftKeywords.isReserved(stateName), at: typeName.location)
            }
        } catch {
            skipToTopLevel()
            return nil
        }
        let open = current
        advance()
        let members = parseMembers(ofState: name?.name ?? "", openIndex: index - 1)
        let end = current.location
        if current.isPunctuation("}") {
            advance()
        } else if !endIsExplained(after: open.location.offset) {
            let message = "unbalanced braces: the '{' of state '\(name?.name ?? "")' has no matching '}'; add the missing '}'"
            report(message, at: open.location)
        }
        guard let name else { return nil }
        return StateDecl(doc: doc, access: access, name: name, conformances: conformances, members: members, at: start, end: end)
    }

    private mutating func parseAccessLevel() -> AccessLevel {
        guard current.kind == .identifier, !current.isEscaped, let level = AccessLevel(rawValue: current.text) else {
            return .internal
        }
        advance()
        return level
    }

    /// The name (`nil` when missing, which is reported) and conformances; throws when no `{` follows.
    private mutating func parseStateHeader() throws(ParseFailure) -> (Identifier?, [Identifier]) {
        let name = current.identifier
        if name != nil {
            advance()
        } else {
            report("expected a state name after 'state', e.g. 'state TodoState { … }'", at: current.location)
        }
        var conformances: [Identifier] = []
        if name != nil, current.isPunctuation(":") {
            conformances = try parseConformances()
        }
        guard current.isPunctuation("{") else {
            if name == nil { throw ParseFailure() }
            throw fail("expected '{' to begin the members of state '\(name?.name ?? "")', found \(describe(current))", at: current.location)
        }
        return (name, conformances)
    }

    /// `: A, B.C` after a state's name.
    private mutating func parseConformances() throws(ParseFailure) -> [Identifier] {
        var conformances: [Identifier] = []
        repeat {
            let separator = current
            advance()
            guard var conformance = current.identifier else {
                throw fail("expected a protocol name after '\(separator.text)'", at: current.location)
            }
            advance()
            while current.isPunctuation("."), peek(1).kind == .identifier {
                conformance.name += "." + peek(1).text
                advance()
                advance()
            }
            conformances.append(conformance)
        } while current.isPunctuation(",")
        return conformances
    }

    // MARK: - Members

    /// Parses members up to the `}` that closes the state (left current) or the end of the input.
    mutating func parseMembers(ofState stateName: String, openIndex: Int) -> [Member] {
        let context = MemberContext(
            stateName: stateName,
            stateIsBalanced: matchingBrace(from: openIndex) != nil
        )
        var members: [Member] = []
        while current.kind != .end, !current.isPunctuation("}") {
            if current.isPunctuation(";") {
                advance()
            } else if current.kind == .docComment {
                pendingDoc.append(current.text)
                advance()
            } else {
                let start = index
                if let member = form == .swift ? parseSwiftFormMember(in: context) : parseMember(in: context) {
                    members.append(member)
                }
                // Recovery always moves on: a member that could not be read at all is skipped.
                if index == start { advance() }
            }
        }
        pendingDoc = []
        return members
    }

    /// What starts every member, in both forms: its doc comment, where it starts (which sets the
    /// member's column for recovery) and its attributes; `nil`, recovered from, when an attribute
    /// is malformed.
    mutating func beginMember() -> (doc: DocComment?, start: SourceLocation, attributes: [Attribute])? {
        let doc = takeDoc()
        let start = current.location
        memberColumn = start.column
        do throws(ParseFailure) {
            return (doc, start, try parseAttributes())
        } catch {
            recover(from: error)
            return nil
        }
    }

    /// Parses one member, reporting and recovering from its errors.
    private mutating func parseMember(in context: MemberContext) -> Member? {
        guard let (doc, start, attributes) = beginMember() else { return nil }
        if current.isWord("var") || current.isWord("let") {
            return parseField(doc: doc, attributes: attributes, start: start)
        }
        let isComputed = current.isWord("computed")
        guard isComputed || current.isWord("selector") else {
            if !current.isMalformed {
                let message = "expected 'var', 'computed' or 'selector' in state '\(context.stateName)', found \(describe(current))"
                report(message, at: current.location)
            }
            skipToNextMember()
            return nil
        }
        var noCutoff = false
        for attribute in attributes {
            if isComputed, attribute.name.name == "NoCutoff" {
                if let argument = attribute.arguments?.first {
                    report("'@NoCutoff' takes no arguments; write '@NoCutoff computed …'", at: argument.label?.location ?? argument.value.location)
                } else if noCutoff {
                    report("duplicate attribute '@NoCutoff'; remove one of them", at: attribute.location)
                }
                noCutoff = true
                continue
            }
            let allowed = isComputed ? "; a computed value takes only '@NoCutoff'" : ""
            let message = "'@\(attribute.name.name)' applies only to fields\(allowed); remove it from this \(current.text)"
            report(message, at: attribute.location)
        }
        guard isComputed else { return parseSelector(doc: doc, in: context) }
        guard case .computed(var decl)? = parseComputed(doc: doc, in: context) else { return nil }
        decl.noCutoff = noCutoff
        return .computed(decl)
    }

    /// Checks that a member is followed by a line break, `;` or `}`.
    mutating func expectMemberEnd(after name: Identifier) throws(ParseFailure) {
        guard !isAtMemberEnd else { return }
        let message = "unexpected \(describe(current)) after member '\(name.name)'; put each member on its own line or separate members with ';'"
        throw fail(message, at: current.location)
    }

    // MARK: - Doc comments

    mutating func takeDoc() -> DocComment? {
        defer { pendingDoc = [] }
        return pendingDoc.isEmpty ? nil : DocComment(lines: pendingDoc)
    }

    // MARK: - Recovery

    /// Resumes after a failure: where the failure says, or at the next member.
    mutating func recover(from failure: ParseFailure) {
        if let resume = failure.resumeIndex {
            index = resume
        } else {
            skipToNextMember()
        }
    }

    /// Skips to the next member keyword at the start of a line, past a `;`, or to the `}` that
    /// closes the state, balancing brackets on the way. Stays put when already there.
    mutating func skipToNextMember() {
        var depth = 0
        while current.kind != .end {
            let token = current
            if depth == 0 {
                if token.isPunctuation("}") { return }
                if token.isAtLineStart, startsMember(token) { return }
            }
            advance()
            if token.isPunctuation(";"), depth == 0 { return }
            depth = max(0, depth + Self.bracketDelta(of: token))
        }
    }

    /// Skips to the next `import` or `state` at the start of a line, balancing brackets. Stays put
    /// when already there.
    mutating func skipToTopLevel() {
        var depth = 0
        while current.kind != .end {
            if depth == 0, current.isAtLineStart, importKeywordIndex() != nil || startsState() { return }
            depth = max(0, depth + Self.bracketDelta(of: current))
            advance()
        }
    }

    func startsMember(_ token: Token) -> Bool {
        if token.kind == .docComment || token.isPunctuation("@") { return true }
        switch form {
        case .spec: return ["var", "let", "computed", "selector"].contains(where: token.isWord)
        case .swift: return Self.swiftMemberStarts.contains(where: token.isWord)
        }
    }

    static func bracketDelta(of token: Token) -> Int {
        guard token.kind == .punctuation else { return 0 }
        switch token.text {
        case "(", "[", "{": return 1
        case ")", "]", "}": return -1
        default: return 0
        }
    }
}

/// What member parsing needs to know about the enclosing state.
struct MemberContext {
    /// The state's name, for messages.
    var stateName: String
    /// Whether the state's `{` has a matching `}` in the file. When it does not, a body whose
    /// closing brace is less indented than the member is taken to be the unclosed one.
    var stateIsBalanced: Bool
}
