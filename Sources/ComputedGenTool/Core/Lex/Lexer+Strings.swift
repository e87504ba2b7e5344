extension Lexer {
    /// Reads a string literal. `start` is where the literal begins (its first `#` for a raw
    /// string); the `#`s have been consumed and `offset` is at the first `"`.
    ///
    /// Handles single-line `"…"`, multi-line `"""…"""` and raw `#"…"#` literals with any number
    /// of `#`, escapes (`\"`, `\\`, `\u{…}`, `\#…` in raw strings) and interpolations, whose code
    /// is lexed as tokens and may hold nested strings and parentheses. A single-line literal
    /// ends at the end of its line, even inside an interpolation (as in Swift): an unterminated
    /// literal is reported and lexing resumes on the next line.
    mutating func lexStringLiteral(at start: SourceLocation, hashes: Int) -> Token {
        let isMultiline = peek() == .quote && peek(at: 1) == .quote && peek(at: 2) == .quote
        offset += isMultiline ? 3 : 1
        var interpolations: [[Token]] = []
        let isTerminated = scanStringContent(multiline: isMultiline, hashes: hashes, interpolations: &interpolations)
        sawLineBreak = false
        var token = make(.string, from: start)
        token.interpolations = interpolations
        if !isTerminated {
            token.isMalformed = true
            if gaveUp { return token }  // The give-up point is reported, not every enclosing literal.
            let delimiter = String(repeating: "\"", count: isMultiline ? 3 : 1) + String(repeating: "#", count: hashes)
            let message = "unterminated string literal; close it with '\(delimiter)'"
            report(LexError(at: start, message, reachesEnd: offset >= bytes.count))
        }
        return token
    }

    /// Scans up to and past the closing delimiter; returns `false` when the literal is unterminated.
    private mutating func scanStringContent(multiline: Bool, hashes: Int, interpolations: inout [[Token]]) -> Bool {
        while let byte = peek() {
            switch byte {
            case .newline:
                guard multiline else { return false }
                consumeNewline()
            case .backslash:
                guard scanEscape(multiline: multiline, hashes: hashes, interpolations: &interpolations) else {
                    return false
                }
            case .quote where isClosingDelimiter(multiline: multiline, hashes: hashes):
                offset += (multiline ? 3 : 1) + hashes
                return true
            default:
                offset += 1
            }
        }
        return false
    }

    private func isClosingDelimiter(multiline: Bool, hashes: Int) -> Bool {
        let quotes = multiline ? 3 : 1
        for distance in 0..<quotes where peek(at: distance) != .quote { return false }
        for distance in quotes..<(quotes + hashes) where peek(at: distance) != .hash { return false }
        return true
    }

    /// Scans an escape at a backslash; returns `false` when the literal turns out unterminated.
    private mutating func scanEscape(multiline: Bool, hashes: Int, interpolations: inout [[Token]]) -> Bool {
        if hashes > 0, !(1...hashes).allSatisfy({ peek(at: $0) == .hash }) {
            offset += 1  // A backslash with too few `#` is literal text in a raw string.
            return true
        }
        offset += 1 + hashes
        guard let next = peek() else { return false }
        switch next {
        case .openParen:
            guard let tokens = lexInterpolation(multiline: multiline) else { return false }
            interpolations.append(tokens)
        case .newline:
            guard multiline else { return false }
            consumeNewline()  // A line continuation.
        case UInt8(ascii: "u") where peek(at: 1) == .openBrace:
            offset += 2
            while let byte = peek(), byte != .closeBrace, byte != .newline, byte != .quote { offset += 1 }
            if peek() == .closeBrace { offset += 1 }
        default:
            offset += 1
        }
        return true
    }

    /// Lexes the code of an interpolation from its `(` to the matching `)`; returns `nil` when the
    /// input ends first or, in a single-line literal, the line ends first (the lexer is then left
    /// at the end of that line).
    ///
    /// The end of the line is found before the token after it is lexed: that token may be a string
    /// with interpolations of its own, and lexing it only to back off would lex every following
    /// line once per line (`"\(` on thousands of lines took seconds).
    private mutating func lexInterpolation(multiline: Bool) -> [Token]? {
        guard interpolationDepth < Self.maxInterpolationDepth else {
            giveUp("string interpolations are nested more than \(Self.maxInterpolationDepth) levels deep; move the inner ones into separate values")
            return nil
        }
        interpolationDepth += 1
        defer { interpolationDepth -= 1 }
        var tokens: [Token] = []
        var depth = 0
        sawLineBreak = false
        while true {
            if !multiline {
                let beforeTrivia = self
                skipTrivia()
                if sawLineBreak {
                    self = beforeTrivia
                    return nil
                }
            }
            let token = next()
            if token.kind == .end { return nil }
            tokens.append(token)
            if token.isPunctuation("(") {
                depth += 1
            } else if token.isPunctuation(")") {
                depth -= 1
                if depth == 0 { return tokens }
            }
        }
    }

    /// Reports `message` at the current location and consumes the rest of the input (keeping
    /// lines counted), for input the lexer cannot go on reading safely.
    private mutating func giveUp(_ message: String) {
        report(LexError(at: location, message, reachesEnd: true))
        gaveUp = true
        while let byte = peek() {
            if byte == .newline { consumeNewline() } else { offset += 1 }
        }
    }
}
