import ComputedGenCore

/// Semantic tokens (`textDocument/semanticTokens/full`), so that every LSP editor colors specs:
/// spec keywords, state and member names (declarations and every read of them), types,
/// attributes, parameters, and in Swift code its keywords, strings, numbers and comments.
public enum SemanticTokensFeature {
    /// The token types, in legend order.
    public static let tokenTypes = [
        "keyword", "type", "struct", "property", "function", "parameter", "decorator", "string", "number", "comment", "namespace",
    ]
    /// The token modifiers, in legend order (bit 0 first).
    public static let tokenModifiers = ["declaration", "documentation", "readonly"]

    /// The legend the server declares in `initialize`.
    public static var legend: JSONValue {
        ["tokenTypes": .array(tokenTypes.map { .string($0) }), "tokenModifiers": .array(tokenModifiers.map { .string($0) })]
    }

    /// A token's type and modifiers, as legend indices and bits.
    public struct Style: Hashable, Sendable {
        public var type: Int
        public var modifiers: Int

        init(_ type: String, _ modifiers: String...) {
            self.type = tokenTypes.firstIndex(of: type) ?? 0
            self.modifiers = modifiers.reduce(0) { bits, name in bits | (1 << (tokenModifiers.firstIndex(of: name) ?? 0)) }
        }
    }

    /// One classified span of bytes, possibly over several lines.
    public struct Span: Hashable, Sendable {
        public var range: Range<Int>
        public var style: Style
    }

    /// The spec words that are keywords outside Swift code.
    static let specKeywords: Set<String> = ["state", "var", "let", "computed", "selector", "from", "cache", "import", "public", "internal", "package"]

    /// `{"data": [...]}`: the tokens of `document`, relative-encoded as LSP asks.
    public static func full(_ document: SpecDocument) -> JSONValue {
        ["data": .array(encode(spans(of: document), lines: document.lines).map { .int($0) })]
    }

    /// The classified spans of `document`, in order.
    public static func spans(of document: SpecDocument) -> [Span] {
        let styles = namedStyles(in: document)
        let index = document.index
        let tokens = document.tokens
        let bytes = document.lines.bytes
        var spans: [Span] = []
        var spanCursor = 0
        var previousEnd = 0
        var tokenIndex = 0
        while tokenIndex < tokens.count {
            let token = tokens[tokenIndex]
            addComments(in: previousEnd..<token.location.offset, of: bytes, to: &spans)
            previousEnd = max(previousEnd, token.endOffset)
            let start = token.location.offset
            let range = start..<max(start, token.endOffset)
            while spanCursor < index.codeSpans.count, index.codeSpans[spanCursor].range.upperBound <= start { spanCursor += 1 }
            let codeSpan = spanCursor < index.codeSpans.count && index.codeSpans[spanCursor].range.contains(start) ? index.codeSpans[spanCursor] : nil
            tokenIndex += 1
            switch token.kind {
            case .docComment: spans.append(Span(range: range, style: Style("comment", "documentation")))
            case .string: spans.append(Span(range: range, style: Style("string")))
            case .number: spans.append(Span(range: range, style: Style("number")))
            case .punctuation where token.text == "@" && codeSpan == nil:
                // `@Name` as one decorator token.
                if tokenIndex < tokens.count, tokens[tokenIndex].kind == .identifier, tokens[tokenIndex].location.offset == token.endOffset {
                    spans.append(Span(range: start..<tokens[tokenIndex].endOffset, style: Style("decorator")))
                    previousEnd = tokens[tokenIndex].endOffset
                    tokenIndex += 1
                }
            case .identifier:
                if let style = styles[start] {
                    spans.append(Span(range: range, style: style))
                } else if let codeSpan {
                    if !token.isEscaped, SwiftKeywords.isReserved(token.text) {
                        spans.append(Span(range: range, style: Style("keyword")))
                    } else if codeSpan.kind == .type {
                        spans.append(Span(range: range, style: Style("type")))
                    }
                } else if !token.isEscaped, specKeywords.contains(token.text) {
                    spans.append(Span(range: range, style: Style("keyword")))
                }
            default:
                break
            }
        }
        addComments(in: previousEnd..<bytes.count, of: bytes, to: &spans)
        return spans
    }

    /// The styles of the names the index knows, by offset: states, conformances, members,
    /// parameters, imports.
    static func namedStyles(in document: SpecDocument) -> [Int: Style] {
        let index = document.index
        var styles: [Int: Style] = [:]
        for occurrence in index.occurrences {
            guard let member = index.members[occurrence.target] else { continue }
            let isDeclaration = occurrence.role == .declaration
            switch (member.kind, isDeclaration) {
            case (.selector, _): styles[occurrence.range.lowerBound] = Style("function", "declaration")
            case (.field, true): styles[occurrence.range.lowerBound] = Style("property", "declaration")
            case (.field, false): styles[occurrence.range.lowerBound] = Style("property")
            case (.computed, true): styles[occurrence.range.lowerBound] = Style("property", "declaration", "readonly")
            case (.computed, false): styles[occurrence.range.lowerBound] = Style("property", "readonly")
            }
        }
        for state in index.file.states {
            styles[state.name.location.offset] = Style("struct", "declaration")
            for conformance in state.conformances { styles[conformance.location.offset] = Style("type") }
            for case .selector(let decl) in state.members {
                for parameter in decl.parameters {
                    if let label = parameter.label { styles[label.location.offset] = Style("parameter") }
                    styles[parameter.name.location.offset] = Style("parameter", "declaration")
                }
                guard decl.body.openBrace != decl.name.location else { continue }
                let names = Set(decl.parameters.map(\.name.name))
                for reference in IdentifierReferences.list(in: decl.body) where names.contains(reference.name) {
                    styles[reference.location.offset] = Style("parameter")
                }
            }
        }
        for declaration in index.file.imports {
            // The module path's first name: the line's last identifiers are the path.
            let moduleStart = declaration.text.utf8.count - declaration.module.utf8.count
            if moduleStart >= 0 { styles[declaration.location.offset + moduleStart] = Style("namespace") }
        }
        return styles
    }

    /// Appends the `//` and `/* */` comments in `gap` (white space and comments between tokens).
    static func addComments(in gap: Range<Int>, of bytes: [UInt8], to spans: inout [Span]) {
        var offset = gap.lowerBound
        let end = min(gap.upperBound, bytes.count)
        while offset + 1 < end {
            if bytes[offset] == UInt8(ascii: "/"), bytes[offset + 1] == UInt8(ascii: "/") {
                var stop = offset
                while stop < end, bytes[stop] != 0x0A, bytes[stop] != 0x0D { stop += 1 }
                spans.append(Span(range: offset..<stop, style: Style("comment")))
                offset = stop
            } else if bytes[offset] == UInt8(ascii: "/"), bytes[offset + 1] == UInt8(ascii: "*") {
                var depth = 0
                var stop = offset
                while stop < end {
                    if stop + 1 < end, bytes[stop] == UInt8(ascii: "/"), bytes[stop + 1] == UInt8(ascii: "*") {
                        depth += 1
                        stop += 2
                    } else if stop + 1 < end, bytes[stop] == UInt8(ascii: "*"), bytes[stop + 1] == UInt8(ascii: "/") {
                        depth -= 1
                        stop += 2
                        if depth == 0 { break }
                    } else {
                        stop += 1
                    }
                }
                spans.append(Span(range: offset..<stop, style: Style("comment")))
                offset = stop
            } else {
                offset += 1
            }
        }
    }

    /// The LSP encoding: five integers per token (line delta, start delta, length, type,
    /// modifiers), in UTF-16 units, each span cut at line ends (no multi-line tokens).
    public static func encode(_ spans: [Span], lines: LineTable) -> [Int] {
        var data: [Int] = []
        data.reserveCapacity(spans.count * 5)
        var previousLine = 0
        var previousCharacter = 0
        for span in spans where !span.range.isEmpty {
            var line = lines.line(ofOffset: span.range.lowerBound)
            var start = span.range.lowerBound
            while start < span.range.upperBound, line < lines.lineStarts.count {
                let end = min(span.range.upperBound, lines.contentEnd(ofLine: line))
                if end > start {
                    let from = lines.position(ofOffset: start)
                    let length = lines.position(ofOffset: end).character - from.character
                    let deltaLine = from.line - previousLine
                    data += [deltaLine, deltaLine == 0 ? from.character - previousCharacter : from.character, length, span.style.type, span.style.modifiers]
                    previousLine = from.line
                    previousCharacter = from.character
                }
                line += 1
                guard line < lines.lineStarts.count else { break }
                start = max(start, lines.lineStarts[line])
            }
        }
        return data
    }
}
