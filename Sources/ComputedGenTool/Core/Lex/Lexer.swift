/// A hand-written lexer over the UTF-8 bytes of a spec (or of Swift code in a body).
///
/// Lines and columns are 1-based; columns count UTF-8 bytes. White space and comments (`//`,
/// nested `/* */`) are skipped; a `///` comment that starts a line becomes a ``Token/Kind/docComment``
/// token. String literals of every form are read as one token, including the code of their
/// interpolations. Errors (unterminated strings and block comments) are collected in ``errors``
/// and lexing goes on, so one pass reports them all.
public struct Lexer: Sendable {
    let bytes: [UInt8]
    var offset: Int
    var line: Int
    var lineStart: Int
    var sawLineBreak: Bool
    /// How many string interpolations enclose the current position.
    var interpolationDepth = 0
    /// Whether lexing gave up on the rest of the input (interpolations nested too deeply): the
    /// literals that enclose the give-up point are then not reported as unterminated as well.
    var gaveUp = false
    /// The errors found so far, in the order they were found.
    public private(set) var errors: [LexError] = []
    /// How many tokens this lexer has read, counting those read inside string interpolations:
    /// a measure of its work that does not depend on the machine, for the scale tests (lexing
    /// must stay linear in the input).
    public private(set) var tokensRead = 0

    /// How deeply string interpolations may nest (`"\("\(…)")"`). Interpolations are lexed
    /// recursively, so unbounded nesting would exhaust the stack; real code nests a few levels.
    public static let maxInterpolationDepth = 100

    /// Creates a lexer at the start of `source`.
    public init(_ source: String) {
        self.init(bytes: Array(source.utf8), startingAt: 0)
    }

    /// Creates a lexer over `bytes` that starts at byte `offset`, with line and column computed
    /// from the bytes before it.
    public init(bytes: [UInt8], startingAt offset: Int) {
        self.bytes = bytes
        self.offset = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<self.offset where bytes[index] == .newline {
            line += 1
            lineStart = index + 1
        }
        self.line = line
        self.lineStart = lineStart
        self.sawLineBreak = lineStart == self.offset
    }

    /// Lexes all of `source`, without the final ``Token/Kind/end`` token.
    public static func tokenize(_ source: String) -> (tokens: [Token], errors: [LexError]) {
        var lexer = Lexer(source)
        var tokens: [Token] = []
        while true {
            let token = lexer.next()
            if token.kind == .end { break }
            tokens.append(token)
        }
        return (tokens, lexer.errors)
    }

    /// The location of the next byte.
    public var location: SourceLocation {
        SourceLocation(line: line, column: offset - lineStart + 1, offset: offset)
    }

    /// Reads the next token; returns an ``Token/Kind/end`` token at the end of the input.
    public mutating func next() -> Token {
        tokensRead += 1
        skipTrivia()
        let start = location
        let atLineStart = sawLineBreak
        guard let byte = peek() else {
            return Token(kind: .end, text: "", location: start, endOffset: offset, isAtLineStart: atLineStart)
        }
        if atLineStart, isDocCommentStart() {
            return lexDocComment(start: start)
        }
        sawLineBreak = false
        var token = lexToken(startingWith: byte, at: start)
        token.isAtLineStart = atLineStart
        return token
    }

    // MARK: - Tokens

    private mutating func lexToken(startingWith byte: UInt8, at start: SourceLocation) -> Token {
        if isCurlyQuote() { return lexCurlyQuotedString(at: start) }
        if byte.isIdentifierStart { return lexIdentifier(at: start) }
        if byte.isDigit { return lexNumber(at: start) }
        switch byte {
        case .backtick:
            return lexEscapedIdentifier(at: start)
        case .dollar:
            return lexDollarIdentifier(at: start)
        case .quote:
            return lexStringLiteral(at: start, hashes: 0)
        case .apostrophe:
            return lexSingleQuotedString(at: start)
        case .hash:
            return lexHash(at: start)
        case .dot:
            return lexDotOperator(at: start)
        default:
            return lexPunctuation(startingWith: byte, at: start)
        }
    }

    private mutating func lexIdentifier(at start: SourceLocation) -> Token {
        while let byte = peek(), byte.isIdentifierContinue, !isCurlyQuote() { offset += 1 }
        return make(.identifier, from: start)
    }

    private mutating func lexEscapedIdentifier(at start: SourceLocation) -> Token {
        var end = offset + 1
        guard end < bytes.count, bytes[end].isIdentifierStart else {
            offset += 1
            return make(.punctuation, from: start)
        }
        while end < bytes.count, bytes[end].isIdentifierContinue { end += 1 }
        guard end < bytes.count, bytes[end] == .backtick else {
            offset += 1
            return make(.punctuation, from: start)
        }
        let name = text(from: start.offset + 1, to: end)
        offset = end + 1
        return Token(kind: .identifier, text: name, isEscaped: true, location: start, endOffset: offset)
    }

    private mutating func lexDollarIdentifier(at start: SourceLocation) -> Token {
        offset += 1
        while let byte = peek(), byte.isIdentifierContinue { offset += 1 }
        return make(offset - start.offset > 1 ? .identifier : .punctuation, from: start)
    }

    private mutating func lexNumber(at start: SourceLocation) -> Token {
        while let byte = peek() {
            if byte.isIdentifierContinue {
                offset += 1
                if (byte | 0x20) == UInt8(ascii: "e") || (byte | 0x20) == UInt8(ascii: "p"),
                   let sign = peek(), sign == .plus || sign == .minus,
                   let digit = peek(at: 1), digit.isDigit {
                    offset += 1
                }
            } else if byte == .dot, let digit = peek(at: 1), digit.isDigit {
                offset += 1
            } else {
                break
            }
        }
        return make(.number, from: start)
    }

    /// `#"…"#` raw strings, `#if`-style directives, or a lone `#`.
    private mutating func lexHash(at start: SourceLocation) -> Token {
        var hashes = 0
        while peek(at: hashes) == .hash { hashes += 1 }
        if peek(at: hashes) == .quote {
            offset += hashes
            return lexStringLiteral(at: start, hashes: hashes)
        }
        offset += 1
        if hashes == 1, let byte = peek(), byte.isIdentifierStart {
            while let byte = peek(), byte.isIdentifierContinue { offset += 1 }
            return make(.poundKeyword, from: start)
        }
        return make(.punctuation, from: start)
    }

    /// `.`, or an operator that starts with a dot such as `...` or `..<`.
    private mutating func lexDotOperator(at start: SourceLocation) -> Token {
        offset += 1
        if peek() == .dot {
            while let byte = peek(), byte == .dot || byte.isOperatorCharacter || byte == .less || byte == .greater {
                offset += 1
            }
        }
        return make(.punctuation, from: start)
    }

    /// Brackets and separators are single tokens; `->` is one token; `<`, `>`, `?` and `!` are
    /// always single (so `Set<Array<Int>>` and `Int?=nil` split as types need); other operator
    /// characters are read greedily.
    private mutating func lexPunctuation(startingWith byte: UInt8, at start: SourceLocation) -> Token {
        offset += 1
        if byte == .minus, peek() == .greater {
            offset += 1
        } else if byte.isOperatorCharacter {
            while let next = peek(), next.isOperatorCharacter, !isCommentStart() { offset += 1 }
        }
        return make(.punctuation, from: start)
    }

    /// The message for a curly quote outside a string literal, as Swift words it.
    public static let curlyQuoteMessage = "unicode curly quote found, replace with '\"'"

    /// Whether the next bytes are a curly double quote (`“` U+201C or `”` U+201D), which Swift
    /// rejects outside string literals.
    func isCurlyQuote() -> Bool {
        peek() == 0xE2 && peek(at: 1) == 0x80 && (peek(at: 2) == 0x9C || peek(at: 2) == 0x9D)
    }

    /// `“text”` (a string typed with curly quotes, as text editors and chat clients substitute):
    /// each curly quote is reported here, once, before Swift sees it (SwiftPM would print Swift's
    /// lexer errors twice, from its module and object jobs). Read, as Swift does, as a string
    /// literal up to the next curly or straight quote on the line, so braces inside it do not count.
    private mutating func lexCurlyQuotedString(at start: SourceLocation) -> Token {
        report(LexError(at: start, Self.curlyQuoteMessage, reachesEnd: false))
        offset += 3
        while let byte = peek(), byte != .newline {
            if isCurlyQuote() {
                report(LexError(at: location, Self.curlyQuoteMessage, reachesEnd: false))
                offset += 3
                break
            }
            offset += 1
            if byte == .quote { break }
        }
        var token = make(.string, from: start)
        token.isMalformed = true
        return token
    }

    /// The message for a `'…'` literal, as Swift words it.
    public static let singleQuoteMessage = "single-quoted string literal found, use '\"'"

    /// `'text'`: Swift has no single-quoted literals, but its lexer reads one as a string up to
    /// the next `'` on the line (or the line's end), so a brace inside it closes nothing. Reported
    /// here, at the quote, once; read the same way, so that a body's braces are matched as
    /// Swift will match them and the generated file keeps its structure.
    private mutating func lexSingleQuotedString(at start: SourceLocation) -> Token {
        report(LexError(at: start, Self.singleQuoteMessage, reachesEnd: false))
        offset += 1
        while let byte = peek(), byte != .newline, byte != .carriageReturn {
            offset += 1
            if byte == .backslash, let next = peek(), next != .newline, next != .carriageReturn {
                offset += 1
            } else if byte == .apostrophe {
                break
            }
        }
        var token = make(.string, from: start)
        token.isMalformed = true
        return token
    }

    private mutating func lexDocComment(start: SourceLocation) -> Token {
        offset += 3
        if peek() == .space { offset += 1 }
        let contentStart = offset
        while let byte = peek(), byte != .newline { offset += 1 }
        var content = text(from: contentStart, to: offset)
        if content.hasSuffix("\r") { content.removeLast() }
        return Token(kind: .docComment, text: content, location: start, endOffset: offset, isAtLineStart: true)
    }

    // MARK: - Trivia

    mutating func skipTrivia() {
        while let byte = peek() {
            switch byte {
            case .space, .tab, .carriageReturn, 0x0B, 0x0C:
                offset += 1
            case .newline:
                consumeNewline()
            case .slash where peek(at: 1) == .slash:
                if sawLineBreak, isDocCommentStart() { return }
                skipLineComment()
            case .slash where peek(at: 1) == .star:
                skipBlockComment()
            default:
                return
            }
        }
    }

    private func isDocCommentStart() -> Bool {
        peek() == .slash && peek(at: 1) == .slash && peek(at: 2) == .slash && peek(at: 3) != .slash
    }

    private func isCommentStart() -> Bool {
        peek() == .slash && (peek(at: 1) == .slash || peek(at: 1) == .star)
    }

    private mutating func skipLineComment() {
        while let byte = peek(), byte != .newline { offset += 1 }
    }

    private mutating func skipBlockComment() {
        let start = location
        offset += 2
        var depth = 1
        while depth > 0 {
            guard let byte = peek() else {
                errors.append(LexError(at: start, "unterminated '/*' comment; close it with '*/'", reachesEnd: true))
                return
            }
            if byte == .slash, peek(at: 1) == .star {
                depth += 1
                offset += 2
            } else if byte == .star, peek(at: 1) == .slash {
                depth -= 1
                offset += 2
            } else if byte == .newline {
                consumeNewline()
            } else {
                offset += 1
            }
        }
    }

    // MARK: - Helpers shared with string lexing

    mutating func consumeNewline() {
        offset += 1
        line += 1
        lineStart = offset
        sawLineBreak = true
    }

    func peek(at distance: Int = 0) -> UInt8? {
        let index = offset + distance
        return index < bytes.count ? bytes[index] : nil
    }

    func text(from start: Int, to end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    func make(_ kind: Token.Kind, from start: SourceLocation) -> Token {
        Token(kind: kind, text: text(from: start.offset, to: offset), location: start, endOffset: offset)
    }

    mutating func report(_ error: LexError) {
        errors.append(error)
    }
}

extension UInt8 {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let star = UInt8(ascii: "*")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let hash = UInt8(ascii: "#")
    static let dot = UInt8(ascii: ".")
    static let dollar = UInt8(ascii: "$")
    static let backtick = UInt8(ascii: "`")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let less = UInt8(ascii: "<")
    static let greater = UInt8(ascii: ">")
    static let openParen = UInt8(ascii: "(")
    static let closeParen = UInt8(ascii: ")")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// Letters, `_`, and any byte of a non-ASCII scalar (Swift allows Unicode identifiers).
    var isIdentifierStart: Bool {
        (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z")
            || self == UInt8(ascii: "_") || self >= 0x80
    }

    var isIdentifierContinue: Bool { isIdentifierStart || isDigit }

    /// Operator characters read greedily (`<`, `>`, `?`, `!` and `.` are handled separately).
    var isOperatorCharacter: Bool {
        switch self {
        case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"),
             UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "|"),
             UInt8(ascii: "^"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
