import ComputedGenCore

/// Where in a spec a completion was asked for, read from the syntax index and the tokens before
/// the cursor (the text being typed rarely parses).
public enum CompletionContext: Hashable, Sendable {
    /// In the body of a computed value or selector, where its state's fields and computed
    /// values (and a selector's parameters) can be read. The owner is `nil` when the member
    /// could not be read far enough to be indexed (mid-edit).
    case body(state: Int, owner: MemberID?)
    /// After `.` in Swift code, or in a type, a default value or a string: Swift's to complete.
    case swiftCode
    /// In a `from` list of a member of the state.
    case fromList(state: Int)
    /// After `@`, outside Swift code.
    case attributeName(state: Int?)
    /// Between the parentheses of `@Edge(…)`, where a label goes.
    case edgeArgument
    /// Between the parentheses of `@Shared(…)`.
    case sharedStrategy
    /// After the type of a computed value or selector, before its body: `from`, `cache`.
    case memberClause(isSelector: Bool)
    /// Where a member of a state can start.
    case memberStart(state: Int)
    /// Outside any state.
    case topLevel

    /// The context at `offset`, and the offset where the word being typed starts.
    public static func at(_ offset: Int, in document: SpecDocument) -> (context: CompletionContext, wordStart: Int) {
        let bytes = document.lines.bytes
        let offset = min(max(offset, 0), bytes.count)
        var wordStart = offset
        while wordStart > 0, isWordByte(bytes[wordStart - 1]) { wordStart -= 1 }
        let tokens = document.tokens
        let previousIndex = document.tokenIndex(before: wordStart)
        if let previousIndex, tokens[previousIndex].endOffset > wordStart {
            return (.swiftCode, wordStart)  // Inside a string literal (or a doc comment).
        }
        let previous = previousIndex.map { tokens[$0] }
        let index = document.index
        if let span = index.codeSpan(at: wordStart) {
            switch span.kind {
            case .body(let id):
                return (previous?.isPunctuation(".") == true ? .swiftCode : .body(state: id.state, owner: id), wordStart)
            case .attributeArgument:
                return (attributeArgumentContext(before: previousIndex, in: tokens) ?? .swiftCode, wordStart)
            case .type, .defaultValue:
                return (.swiftCode, wordStart)
            }
        }
        let state = index.state(at: wordStart)
        if let attribute = attributeArgumentContext(before: previousIndex, in: tokens) {
            return (attribute, wordStart)
        }
        guard let previousIndex, let previous else { return (.topLevel, wordStart) }
        if let state, let body = unparsedBody(before: previousIndex, in: document, state: state) {
            return (previous.isPunctuation(".") ? .swiftCode : body, wordStart)
        }
        if previous.isPunctuation("@") { return (.attributeName(state: state), wordStart) }
        if state != nil, previous.isPunctuation(":") || previous.isPunctuation("->") || previous.isPunctuation("=") {
            return (.swiftCode, wordStart)  // A type or default value being typed.
        }
        if let state, isInFromList(after: previousIndex, in: tokens) { return (.fromList(state: state), wordStart) }
        guard let state else { return (.topLevel, wordStart) }
        if let clause = memberClauseContext(after: previousIndex, in: tokens) { return (clause, wordStart) }
        return (.memberStart(state: state), wordStart)
    }

    /// Whether a byte can be part of an identifier being typed.
    static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// How far back the token scans go: a member's header is short.
    static let scanLimit = 64

    /// `edgeArgument` or `sharedStrategy` when the tokens up to `last` end inside the unclosed
    /// parentheses of `@Edge(` or `@Shared(` (at label position for `@Edge`).
    static func attributeArgumentContext(before last: Int?, in tokens: [Token]) -> CompletionContext? {
        guard let last else { return nil }
        var depth = 0
        var index = last
        while index >= 0, last - index < scanLimit {
            let token = tokens[index]
            if token.kind == .punctuation {
                switch token.text {
                case ")", "]", "}": depth += 1
                case "[", "{":
                    if depth == 0 { return nil }
                    depth -= 1
                case "(":
                    if depth > 0 {
                        depth -= 1
                    } else {
                        guard index >= 2, tokens[index - 2].isPunctuation("@"), tokens[index - 1].kind == .identifier else { return nil }
                        switch tokens[index - 1].text {
                        case "Shared": return .sharedStrategy
                        case "Edge":
                            let atLabel = tokens[last].isPunctuation("(") || tokens[last].isPunctuation(",")
                            return atLabel ? .edgeArgument : .swiftCode
                        default: return nil
                        }
                    }
                default: break
                }
            } else if depth == 0, tokens[index].kind == .identifier, ["var", "computed", "selector", "state"].contains(token.text) {
                return nil
            }
            index -= 1
        }
        return nil
    }

    /// When the tokens up to `last` end inside braces that the parser could not read as a body
    /// (mid-edit): `body` for a computed value's or selector's braces, `swiftCode` for other
    /// braces (a closure in an attribute), `nil` inside the state's own braces.
    static func unparsedBody(before last: Int, in document: SpecDocument, state: Int) -> CompletionContext? {
        let tokens = document.tokens
        let stateStart = document.index.stateRanges[state].lowerBound
        var depth = 0
        var index = last
        while index >= 0, tokens[index].location.offset > stateStart {
            let token = tokens[index]
            if token.isPunctuation("}") {
                depth += 1
            } else if token.isPunctuation("{") {
                if depth == 0 { return owner(ofBrace: index, in: document, state: state) }
                depth -= 1
            }
            index -= 1
        }
        return nil
    }

    /// What the unclosed `{` at `brace` opens: a member's body, other Swift code, or the state.
    private static func owner(ofBrace brace: Int, in document: SpecDocument, state: Int) -> CompletionContext? {
        let tokens = document.tokens
        var index = brace - 1
        while index >= 0, brace - index < scanLimit {
            let token = tokens[index]
            if token.isWord("state") { return nil }
            if token.isWord("var") || token.isWord("let") || token.isPunctuation("{") || token.isPunctuation("}") { return .swiftCode }
            if token.isWord("computed") || token.isWord("selector") {
                let nameOffset = index + 1 < tokens.count ? tokens[index + 1].location.offset : -1
                let owner = document.index.membersByState[state].first { document.index.members[$0]?.name.location.offset == nameOffset }
                return .body(state: state, owner: owner)
            }
            index -= 1
        }
        return .swiftCode
    }

    /// Whether the tokens up to `last` end in `from a, b,` (or `from`).
    static func isInFromList(after last: Int, in tokens: [Token]) -> Bool {
        var index = last
        var expectName = true
        while index >= 0, last - index < scanLimit {
            let token = tokens[index]
            if expectName {
                if token.isWord("from") { return true }
                guard token.isPunctuation(",") || index == last && token.kind == .identifier else { return false }
                if token.kind == .identifier { return false }  // `from a |`: the list may be over.
            } else {
                guard token.kind == .identifier else { return false }
            }
            expectName.toggle()
            index -= 1
        }
        return false
    }

    /// `memberClause` when the tokens up to `last` end in the header of a computed value or
    /// selector, after its type: `computed total: Int |` or `selector f(…) -> T |`.
    static func memberClauseContext(after last: Int, in tokens: [Token]) -> CompletionContext? {
        if tokens[last].isPunctuation(":") || tokens[last].isPunctuation("->") || tokens[last].isPunctuation(",") { return nil }
        var index = last
        while index >= 0, last - index < scanLimit {
            let token = tokens[index]
            if token.isPunctuation("{") || token.isPunctuation("}") || token.isWord("var") || token.isWord("let") || token.isWord("state") {
                return nil
            }
            if token.isWord("computed") || token.isWord("selector") {
                guard tokens[index + 1 ..< last + 1].contains(where: { $0.isPunctuation(":") || $0.isPunctuation("->") }) else { return nil }
                return .memberClause(isSelector: token.text == "selector")
            }
            index -= 1
        }
        return nil
    }
}
