/// What ``SpecParser`` read from a spec.
public struct ParseResult: Hashable, Sendable {
    /// The syntax tree. Members that could be only partly read are included when their name is
    /// known (see ``incompleteMembers``); states without a name are left out.
    public var file: SpecFile
    /// Syntax errors and lexical errors (unterminated strings, unbalanced braces), in source order.
    public var diagnostics: [Diagnostic]
    /// The name locations of members that had a syntax error: checks that would only repeat that
    /// error (a missing type, a body that reads nothing) are skipped for them.
    public var incompleteMembers: Set<SourceLocation>

    /// Creates a parse result.
    public init(file: SpecFile, diagnostics: [Diagnostic], incompleteMembers: Set<SourceLocation> = []) {
        self.file = file
        self.diagnostics = diagnostics
        self.incompleteMembers = incompleteMembers
    }
}

/// Parses specs, in either ``SpecForm``, into ``SpecFile`` syntax trees.
///
/// The parser recovers after an error (it skips to the next member or the end of the state) so
/// that one run reports every error of a file, without follow-on errors.
public enum SpecParser {
    /// Parses the spec `source`, read from `path` (used in diagnostics), in the form its path
    /// names (see ``SpecForm/init(path:)``).
    ///
    /// A Swift-form spec is lowered to the spec language's terms (see ``SwiftFormLowering``):
    /// `TodoStateSpec` becomes `TodoState`, and a body's `child.total` of a nested state's computed
    /// value becomes `child.computed.total`. `context` names the states of the target's other
    /// specs, which a Swift-form spec may nest.
    public static func parse(source: String, path: String, context: SpecContext = SpecContext()) -> ParseResult {
        let form = SpecForm(path: path)
        var parser = Parser(source: source, path: path, form: form)
        var result = parser.parseFile()
        if form == .swift {
            result.file = SwiftFormLowering.lower(result.file, context: context)
        }
        return result
    }
}

/// Thrown inside the parser after a syntax error has been reported, to unwind to the member or
/// top-level loop, which then recovers.
struct ParseFailure: Error {
    /// Where to resume, when the error knows better than the general recovery (after an
    /// unclosed bracket: the first line after it).
    var resumeIndex: Int?
}

/// The parser's state: the tokens of the whole file and a cursor over them.
struct Parser {
    let bytes: [UInt8]
    let path: String
    /// Which language the file is written in.
    let form: SpecForm
    let tokens: [Token]
    let endToken: Token
    let lexErrors: [LexError]
    /// For each `{` and `(` token, the index of its matching `}` or `)` (counting only its own
    /// kind of bracket), or -1; found in one pass, so that states and bodies do not each scan the
    /// rest of the file (a file of unclosed states was quadratic).
    let matchingBracket: [Int]
    /// The offsets of the lexical errors, sorted.
    let lexErrorOffsets: [Int]
    /// The offset of the last lexical error that consumed the rest of the input, or -1.
    let lastReachesEndOffset: Int
    var index = 0
    var diagnostics: [Diagnostic] = []
    var incompleteMembers: Set<SourceLocation> = []
    var pendingDoc: [String] = []
    /// The column where the member being parsed starts.
    var memberColumn = 1
    /// Whether an error already explained why the input ended inside an open brace.
    var reportedUnexpectedEnd = false

    init(source: String, path: String, form: SpecForm = .spec) {
        var lexer = Lexer(source)
        var tokens: [Token] = []
        var token = lexer.next()
        while token.kind != .end {
            tokens.append(token)
            token = lexer.next()
        }
        self.bytes = Array(source.utf8)
        self.path = path
        self.form = form
        self.tokens = tokens
        self.endToken = token
        self.lexErrors = lexer.errors
        self.matchingBracket = Self.matchingBrackets(in: tokens)
        self.lexErrorOffsets = lexer.errors.map(\.location.offset).sorted()
        self.lastReachesEndOffset = lexer.errors.filter(\.reachesEnd).map(\.location.offset).max() ?? -1
    }

    /// See ``matchingBracket``.
    private static func matchingBrackets(in tokens: [Token]) -> [Int] {
        var matches = Array(repeating: -1, count: tokens.count)
        var braces: [Int] = []
        var parens: [Int] = []
        for (index, token) in tokens.enumerated() where token.kind == .punctuation {
            switch token.text {
            case "{": braces.append(index)
            case "}": if let open = braces.popLast() { matches[open] = index }
            case "(": parens.append(index)
            case ")": if let open = parens.popLast() { matches[open] = index }
            default: break
            }
        }
        return matches
    }

    /// The index of the `}` that matches the `{` at `openIndex`, counting only braces.
    func matchingBrace(from openIndex: Int) -> Int? {
        let match = matchingBracket[openIndex]
        return match >= 0 ? match : nil
    }

    mutating func parseFile() -> ParseResult {
        // Generated code maps each body to the spec with `#sourceLocation`; one in the spec would
        // point compile errors at the wrong place (or at the generated file).
        for token in tokens where token.kind == .poundKeyword && token.text == "#sourceLocation" {
            report("'#sourceLocation' cannot appear in a spec: the generated code maps bodies to the spec with its own; remove it", at: token.location)
        }
        var file = SpecFile(path: path)
        var parsedAState = false
        while current.kind != .end {
            if current.kind == .docComment {
                pendingDoc.append(current.text)
                advance()
            } else if let importIndex = importKeywordIndex() {
                pendingDoc = []
                file.imports.append(parseImport(keywordIndex: importIndex))
            } else if startsState() {
                if let state = parseState() { file.states.append(state) }
                parsedAState = true
            } else if form == .swift {
                skipSwiftTopLevelDeclaration()
            } else {
                reportUnexpectedTopLevel(current, afterState: parsedAState)
                skipToTopLevel()
            }
        }
        // One error per place: where the parser explained a lexical slip in its context (a quote
        // in a type), the lexer's own message for it would say the same thing again.
        let explained = Set(diagnostics.map(\.location))
        var all = diagnostics + lexErrors.filter { !explained.contains($0.location) }.map { Diagnostic(path: path, at: $0.location, $0.message) }
        all.sort { $0.location < $1.location }
        return ParseResult(file: file, diagnostics: all, incompleteMembers: incompleteMembers)
    }

    // MARK: - Imports

    /// The index of `import` when the current line is an import (`@attr`s and an access level may
    /// come first), or `nil`.
    func importKeywordIndex() -> Int? {
        var look = index
        while look < tokens.count {
            let token = tokens[look]
            if token.isWord("import") { return look }
            if token.isPunctuation("@"), look + 1 < tokens.count, tokens[look + 1].kind == .identifier {
                look += 2
                if look < tokens.count, tokens[look].isPunctuation("("), let close = matchingParen(from: look) {
                    look = close + 1
                }
            } else if ["public", "package", "internal", "private", "fileprivate"].contains(where: token.isWord) {
                look += 1
            } else {
                return nil
            }
        }
        return nil
    }

    mutating func parseImport(keywordIndex: Int) -> ImportDecl {
        let first = current
        var last = first
        advance()
        while current.kind != .end, !current.isAtLineStart, !current.isPunctuation(";") {
            last = current
            advance()
        }
        let module = importedModule(after: keywordIndex, before: index)
        if module.isEmpty {
            let after = keywordIndex + 1 < index ? tokens[keywordIndex + 1] : tokenOrEnd(at: keywordIndex + 1)
            report("expected a module name after 'import', e.g. 'import Foundation'", at: after.location)
        }
        let text = self.text(from: first.location.offset, to: last.endOffset)
        return ImportDecl(text: text, module: module, at: first.location)
    }

    /// The dotted module path between `import` (and an optional kind such as `struct`) and `end`.
    func importedModule(after keywordIndex: Int, before end: Int) -> String {
        let kinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        var look = keywordIndex + 1
        if look < end, tokens[look].kind == .identifier, kinds.contains(tokens[look].text) { look += 1 }
        var parts: [String] = []
        while look < end, tokens[look].kind == .identifier {
            parts.append(tokens[look].text)
            guard look + 1 < end, tokens[look + 1].isPunctuation(".") else { break }
            look += 2
        }
        return parts.joined(separator: ".")
    }

    // MARK: - Top level

    func startsState() -> Bool {
        if form == .swift { return startsSwiftFormState() }
        if current.isWord("state") { return true }
        let isAccess = ["public", "package", "internal"].contains(where: current.isWord)
        return isAccess && peek(1).isWord("state")
    }

    mutating func reportUnexpectedTopLevel(_ token: Token, afterState: Bool) {
        if token.isMalformed { return }  // The lexer reported it.
        if token.isPunctuation("}") {
            report("extraneous '}' at top level; remove it or check the braces above", at: token.location)
            return
        }
        let memberWords = ["var", "computed", "selector"]
        let looksLikeMember = memberWords.contains(where: token.isWord) || token.isPunctuation("@")
        let hint = afterState && looksLikeMember ? " (is there an extra '}' above that closes the state early?)" : ""
        report("expected 'import' or 'state' at top level, found \(describe(token))\(hint)", at: token.location)
    }

    // MARK: - Cursor

    var current: Token { tokenOrEnd(at: index) }

    func peek(_ distance: Int) -> Token { tokenOrEnd(at: index + distance) }

    func tokenOrEnd(at position: Int) -> Token {
        position < tokens.count ? tokens[position] : endToken
    }

    mutating func advance() {
        if index < tokens.count { index += 1 }
    }

    /// Whether the current token ends a member: `;`, `}`, the end, or a token on a new line.
    var isAtMemberEnd: Bool {
        current.kind == .end || current.isAtLineStart || current.isPunctuation(";") || current.isPunctuation("}")
    }

    func text(from start: Int, to end: Int) -> String {
        String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    /// The index of the `)` matching the `(` at `openIndex`, counting only parentheses.
    func matchingParen(from openIndex: Int) -> Int? {
        let match = matchingBracket[openIndex]
        return match >= 0 ? match : nil
    }

    // MARK: - Diagnostics

    mutating func report(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(path: path, at: location, message))
    }

    /// Reports an error and returns the failure to throw.
    mutating func fail(_ message: String, at location: SourceLocation, resumeAt resumeIndex: Int? = nil) -> ParseFailure {
        report(message, at: location)
        return ParseFailure(resumeIndex: resumeIndex)
    }

    /// Whether the input ending inside a brace opened at `offset` is already explained by an
    /// earlier error (an unterminated string or comment that ran to the end, or an unclosed body).
    func endIsExplained(after offset: Int) -> Bool {
        reportedUnexpectedEnd || lastReachesEndOffset > offset
    }

    /// Whether a lexical error (such as an unterminated string, which may hide a `}`) lies
    /// between the offsets `start` and `end`.
    func hasLexError(between start: Int, and end: Int) -> Bool {
        // The first error after `start`, by binary search.
        var low = 0
        var high = lexErrorOffsets.count
        while low < high {
            let middle = (low + high) / 2
            if lexErrorOffsets[middle] <= start { low = middle + 1 } else { high = middle }
        }
        return low < lexErrorOffsets.count && lexErrorOffsets[low] < end
    }

    /// A short description of a token for messages, e.g. `'var'` or `end of file`.
    func describe(_ token: Token) -> String {
        switch token.kind {
        case .end: "end of file"
        case .string: "a string literal"
        case .docComment: "a doc comment"
        case .identifier where token.isEscaped: "'`\(token.text)`'"
        default: "'\(token.text)'"
        }
    }
}
