extension Parser {
    // MARK: - Types

    /// Words after which a type goes on with another identifier (`some View`, `async throws`).
    private static let typePrefixWords: Set<String> = [
        "some", "any", "inout", "borrowing", "consuming", "sending", "each", "repeat", "isolated",
        "__owned", "__shared",
    ]
    /// Words that may follow a complete type inside a function type.
    private static let typeEffectWords: Set<String> = ["async", "throws", "rethrows"]

    /// Reads Swift type syntax up to where the type ends at bracket depth 0: `=`, `{`, `}`, `;`,
    /// `,`, `:`, an unmatched closing bracket, the end of the line, or a word that cannot go on
    /// a type (such as `from` or `cache`). Returns `nil` when there is no type at all.
    mutating func parseType() throws(ParseFailure) -> SourceText? {
        let start = index
        var openers: [Int] = []
        var angles = 0
        while current.kind != .end {
            let token = current
            // A quote typed into a type (`Str'ing`): Swift reads a literal from it to the next
            // quote or the line's end, swallowing the body's brace; said here, in the type's terms.
            let isSingleQuote = token.text.hasPrefix("'")
            if !isSingleQuote, openers.isEmpty, endsType(token, isFirst: index == start, angles: angles) { break }
            if let opener = openers.last, startsNextMember(token) { throw unclosed(opener, in: "a type", resumeAt: index) }
            if token.kind == .string || isSingleQuote {
                // No Swift type holds a literal; in generated code one would run on past the type.
                var resume = index + 1
                while resume < tokens.count, !tokens[resume].isAtLineStart { resume += 1 }
                let what = isSingleQuote ? "a single quote" : "a string literal"
                throw fail("a type cannot contain \(what); check the type's spelling", at: token.location, resumeAt: resume)
            }
            if Self.bracketDelta(of: token) > 0 {
                openers.append(index)
            } else if Self.bracketDelta(of: token) < 0 {
                guard let opener = openers.last else { break }
                guard Self.closes(token, tokens[opener]) else { throw unclosed(opener, in: "a type") }
                openers.removeLast()
            } else if token.isPunctuation("<") {
                angles += 1
            } else if token.isPunctuation(">") {
                angles = max(0, angles - 1)
            }
            advance()
        }
        if let opener = openers.last { throw unclosed(opener, in: "a type") }
        return start < index ? sourceText(from: start, to: index) : nil
    }

    private func endsType(_ token: Token, isFirst: Bool, angles: Int) -> Bool {
        if isFirst, token.isWord("from") { return true }  // `computed x: from a { … }`: no type.
        if token.isAtLineStart {
            let previous = tokenOrEnd(at: index - 1)
            if isFirst ? (startsMember(token) || token.isPunctuation("}")) : !previous.isPunctuation("->") {
                return true
            }
        }
        switch token.kind {
        case .string, .number, .docComment, .end:
            return true
        case .identifier:
            return !isFirst && angles == 0 && !Self.typeEffectWords.contains(token.text) && endsTypeOperand(tokens[index - 1])
        case .poundKeyword:
            return false
        case .punctuation:
            if token.isPunctuation(";") || token.isPunctuation("}") { return true }
            return angles == 0 && ["=", "{", ",", ":"].contains(where: token.isPunctuation)
        }
    }

    /// Whether `token` can end a complete type, so that an identifier after it starts something else.
    private func endsTypeOperand(_ token: Token) -> Bool {
        if token.kind == .identifier { return token.isEscaped || !Self.typePrefixWords.contains(token.text) }
        return [")", "]", ">", "?", "!"].contains(where: token.isPunctuation)
    }

    // MARK: - Expressions

    /// Reads a default value: a Swift expression up to the end of the line, `;` or an unmatched
    /// closing bracket, going on over lines while brackets are open. `nil` when it is empty.
    mutating func parseDefaultValue() throws(ParseFailure) -> SourceText? {
        let start = index
        var openers: [Int] = []
        while current.kind != .end {
            let token = current
            if openers.isEmpty {
                if token.isAtLineStart, index > start || startsMember(token) || token.isPunctuation("}") { break }
                if token.isPunctuation(";") { break }
            } else if startsNextMember(token) {
                throw unclosed(openers[openers.count - 1], in: "a default value", resumeAt: index)
            }
            if Self.bracketDelta(of: token) > 0 {
                openers.append(index)
            } else if Self.bracketDelta(of: token) < 0 {
                guard let opener = openers.last else { break }
                guard Self.closes(token, tokens[opener]) else { throw unclosed(opener, in: "a default value") }
                openers.removeLast()
            }
            advance()
        }
        if let opener = openers.last { throw unclosed(opener, in: "a default value") }
        return start < index ? sourceText(from: start, to: index) : nil
    }

    /// The index of the bracket that closes the one at `openIndex`; reports an unclosed bracket
    /// (described as being in `what`) otherwise.
    mutating func balancedEnd(from openIndex: Int, what: String) throws(ParseFailure) -> Int {
        var openers: [Int] = []
        for look in openIndex..<tokens.count {
            let token = tokens[look]
            if let opener = openers.last, startsNextMember(token) { throw unclosed(opener, in: what, resumeAt: look) }
            if Self.bracketDelta(of: token) > 0 {
                openers.append(look)
            } else if Self.bracketDelta(of: token) < 0 {
                guard let opener = openers.last, Self.closes(token, tokens[opener]) else {
                    throw unclosed(openers.last ?? openIndex, in: what)
                }
                openers.removeLast()
                if openers.isEmpty { return look }
            }
        }
        throw unclosed(openers.last ?? openIndex, in: what)
    }

    // MARK: - Helpers

    /// Whether `token` starts a member at the indentation of the member being parsed (or less):
    /// a sign that a bracket before it was left open.
    private func startsNextMember(_ token: Token) -> Bool {
        token.isAtLineStart && token.location.column <= memberColumn && startsMember(token)
    }

    /// Reports the bracket at `openerIndex` as unclosed; parsing resumes at `resumeIndex`, or by
    /// default on the line after the bracket.
    private mutating func unclosed(_ openerIndex: Int, in what: String, resumeAt resumeIndex: Int? = nil) -> ParseFailure {
        let opener = tokens[openerIndex]
        var resume = openerIndex + 1
        while resume < tokens.count, !tokens[resume].isAtLineStart { resume += 1 }
        if let resumeIndex { resume = resumeIndex }
        let closer = ["(": ")", "[": "]", "{": "}"][opener.text] ?? ""
        if endIsExplained(after: opener.location.offset) { return ParseFailure(resumeIndex: resume) }
        return fail("unclosed '\(opener.text)' in \(what); add the missing '\(closer)'", at: opener.location, resumeAt: resume)
    }

    static func closes(_ closer: Token, _ opener: Token) -> Bool {
        switch opener.text {
        case "(": closer.text == ")"
        case "[": closer.text == "]"
        default: closer.text == "}"
        }
    }

    /// The source text of the tokens `start..<end`.
    func sourceText(from start: Int, to end: Int) -> SourceText {
        let first = tokens[start]
        return SourceText(text(from: first.location.offset, to: tokens[end - 1].endOffset), at: first.location)
    }
}
