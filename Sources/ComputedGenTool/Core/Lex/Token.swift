/// One lexical token of a spec, or of the Swift code inside a body.
///
/// Comments are not tokens, except `///` doc comments that start a line. A string literal is a
/// single token, whatever its form; the code inside its interpolations is kept in
/// ``interpolations`` so that identifier references can be found there too.
public struct Token: Hashable, Sendable {
    /// What kind of token this is.
    public enum Kind: Hashable, Sendable {
        /// A name, e.g. `todos`, `` `default` ``, `$0` or `_`. Keywords are identifiers too.
        case identifier
        /// A `#` directive or literal such as `#if` or `#file`.
        case poundKeyword
        /// A number literal.
        case number
        /// A string literal of any form: `"…"`, `"""…"""`, `#"…"#`.
        case string
        /// Brackets, `,`, `:`, `;`, `@`, `.`, `->`, `\` and operators.
        case punctuation
        /// A `///` doc comment line; ``Token/text`` is its content.
        case docComment
        /// The end of the input.
        case end
    }

    /// What kind of token this is.
    public var kind: Kind
    /// The token's text: the name without backticks for identifiers, the content after `///`
    /// (and one space) for doc comments, the source text otherwise.
    public var text: String
    /// Whether an identifier was written in backticks.
    public var isEscaped: Bool
    /// Where the token starts.
    public var location: SourceLocation
    /// The UTF-8 offset one past the token's last byte.
    public var endOffset: Int
    /// Whether a line break (or the start of the input) precedes the token.
    public var isAtLineStart: Bool
    /// For string literals: the tokens of each interpolation, each list starting with its `(`
    /// and, when the interpolation is closed, ending with its `)`.
    public var interpolations: [[Token]]
    /// Whether the lexer reported an error for this token (an unterminated string literal).
    public var isMalformed: Bool

    /// Creates a token.
    public init(
        kind: Kind,
        text: String,
        isEscaped: Bool = false,
        location: SourceLocation,
        endOffset: Int,
        isAtLineStart: Bool = false,
        interpolations: [[Token]] = [],
        isMalformed: Bool = false
    ) {
        self.kind = kind
        self.text = text
        self.isEscaped = isEscaped
        self.location = location
        self.endOffset = endOffset
        self.isAtLineStart = isAtLineStart
        self.interpolations = interpolations
        self.isMalformed = isMalformed
    }

    /// Whether this is the punctuation token `text`.
    public func isPunctuation(_ text: String) -> Bool {
        kind == .punctuation && self.text == text
    }

    /// Whether this is the unescaped identifier `word`, e.g. a spec keyword such as `state`.
    public func isWord(_ word: String) -> Bool {
        kind == .identifier && !isEscaped && text == word
    }

    /// The token as an ``Identifier``, or `nil` when it is not an identifier.
    public var identifier: Identifier? {
        kind == .identifier ? Identifier(text, isEscaped: isEscaped, at: location) : nil
    }
}

/// A lexical error: an unterminated string literal or block comment.
public struct LexError: Hashable, Sendable {
    /// Where the offending literal or comment starts.
    public var location: SourceLocation
    /// What is wrong and how to fix it.
    public var message: String
    /// Whether the unterminated construct consumed the rest of the input.
    public var reachesEnd: Bool

    /// Creates a lexical error.
    public init(at location: SourceLocation, _ message: String, reachesEnd: Bool) {
        self.location = location
        self.message = message
        self.reachesEnd = reachesEnd
    }
}
