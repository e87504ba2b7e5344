/// What ``BodyScanner`` found for one body.
public struct BodyScan: Hashable, Sendable {
    /// The body, or `nil` when its `{` has no matching `}`.
    public var body: Body?
    /// Where the matching `}` is, when there is one.
    public var closeBrace: SourceLocation?
    /// The tokens between the braces.
    public var tokens: [Token]
    /// Lexical errors inside the body, then the unclosed brace if any. An unclosed brace is not
    /// reported when an unterminated string or comment already consumed the rest of the input.
    public var errors: [LexError]

    /// Creates a scan result.
    public init(body: Body?, closeBrace: SourceLocation?, tokens: [Token], errors: [LexError]) {
        self.body = body
        self.closeBrace = closeBrace
        self.tokens = tokens
        self.errors = errors
    }
}

/// Finds the `}` that closes a body by balancing braces, skipping string literals of every form
/// (their interpolations included), comments and escapes.
public enum BodyScanner {
    /// The message reported for a `{` without a matching `}`.
    public static let unclosedBraceMessage = "unbalanced braces: this '{' has no matching '}'; add the missing '}'"

    /// Scans the body whose `{` is at UTF-8 byte `openBraceOffset` of `source`.
    ///
    /// - Precondition: the byte at `openBraceOffset` is `{`.
    public static func scan(_ source: String, openBraceAt openBraceOffset: Int) -> BodyScan {
        let bytes = Array(source.utf8)
        precondition(openBraceOffset < bytes.count && bytes[openBraceOffset] == .openBrace, "no '{' at offset")
        var lexer = Lexer(bytes: bytes, startingAt: openBraceOffset)
        let open = lexer.next()
        var tokens: [Token] = []
        var depth = 1
        while true {
            let token = lexer.next()
            if token.kind == .end { break }
            depth += braceDelta(of: token)
            if depth == 0 {
                let text = String(decoding: bytes[(open.endOffset)..<token.location.offset], as: UTF8.self)
                let body = Body(text: text, at: location(after: open), openBrace: open.location)
                return BodyScan(body: body, closeBrace: token.location, tokens: tokens, errors: lexer.errors)
            }
            tokens.append(token)
        }
        var errors = lexer.errors
        if !errors.contains(where: \.reachesEnd) {
            errors.append(LexError(at: open.location, unclosedBraceMessage, reachesEnd: true))
        }
        return BodyScan(body: nil, closeBrace: nil, tokens: tokens, errors: errors)
    }

    /// The index of the `}` that matches the `{` at `openIndex` of `tokens`, or `nil`.
    public static func matchingBrace(in tokens: [Token], from openIndex: Int) -> Int? {
        var depth = 0
        for index in openIndex..<tokens.count {
            depth += braceDelta(of: tokens[index])
            if depth == 0 { return index }
        }
        return nil
    }

    /// The location of the byte after a one-byte token such as `{`.
    static func location(after token: Token) -> SourceLocation {
        SourceLocation(line: token.location.line, column: token.location.column + 1, offset: token.location.offset + 1)
    }

    private static func braceDelta(of token: Token) -> Int {
        if token.isPunctuation("{") { return 1 }
        if token.isPunctuation("}") { return -1 }
        return 0
    }
}
