/// What the `// computedgen:` comments before a Swift-form member say: the spec language's
/// `from a, b`, `cache N` and `@NoCutoff`, which Swift has no syntax for.
///
/// ```swift
/// // computedgen: from todos
/// var doneCount: Int { todos.count(where: \.done) }
///
/// // computedgen: cache 32
/// func todos(ownedBy owner: Int) -> [Todo] { todos.filter { $0.owner == owner } }
///
/// // computedgen: noCutoff
/// var snapshot: Snapshot { Snapshot(todos) }
/// ```
///
/// Several directives may share a line, separated by `;`, or each have a line of its own.
struct SwiftFormDirectives {
    enum Kind: String {
        case from
        case cache
        case noCutoff
    }

    /// The names after `from`, when there is a `from`.
    var from: [Identifier]?
    /// The capacity after `cache`, and where it is.
    var cache: (capacity: Int, location: SourceLocation)?
    /// Where `noCutoff` is written.
    var noCutoff: SourceLocation?
    /// Where each directive's word is, in order.
    var written: [(kind: Kind, location: SourceLocation)] = []

    /// Reports each directive that does not apply to the member (`cache` on a computed property,
    /// any directive on a field).
    func reportMisuse(for member: String, allowing allowed: Set<Kind>, into parser: inout Parser) {
        for (kind, location) in written where !allowed.contains(kind) {
            let applies = switch kind {
            case .from: "computed properties and functions"
            case .cache: "functions (selectors)"
            case .noCutoff: "computed properties"
            }
            parser.report("'\(kind.rawValue)' applies only to \(applies); remove it from the directive before \(member)", at: location)
        }
    }
}

extension Parser {
    /// Reads the `// computedgen:` comments between the previous member (or the state's `{`) and
    /// the current token, reporting what they get wrong.
    mutating func readDirectives() -> SwiftFormDirectives {
        var previous = index - 1
        while previous >= 0, tokens[previous].kind == .docComment { previous -= 1 }
        let regionStart = previous >= 0 ? tokens[previous].endOffset : 0
        let regionEnd = current.location.offset
        var directives = SwiftFormDirectives()
        var lineStart = regionStart
        while lineStart < regionEnd {
            var lineEnd = lineStart
            while lineEnd < regionEnd, bytes[lineEnd] != .newline { lineEnd += 1 }
            if let start = directiveStart(from: lineStart, to: lineEnd) {
                readDirectiveLine(from: start, to: lineEnd, into: &directives)
            }
            lineStart = lineEnd + 1
        }
        return directives
    }

    /// The offset after `computedgen:` when the bytes `start..<end` are a directive comment line.
    private func directiveStart(from start: Int, to end: Int) -> Int? {
        var offset = start
        while offset < end, bytes[offset] == .space || bytes[offset] == .tab { offset += 1 }
        guard offset + 2 < end, bytes[offset] == .slash, bytes[offset + 1] == .slash, bytes[offset + 2] != .slash else { return nil }
        offset += 2
        while offset < end, bytes[offset] == .space || bytes[offset] == .tab { offset += 1 }
        let prefix = Array(SpecForm.directivePrefix.utf8)
        guard end - offset >= prefix.count, Array(bytes[offset..<(offset + prefix.count)]) == prefix else { return nil }
        return offset + prefix.count
    }

    /// Reads the directives `from a, b; cache N; noCutoff` of one comment line.
    private mutating func readDirectiveLine(from start: Int, to end: Int, into directives: inout SwiftFormDirectives) {
        var lexer = Lexer(bytes: bytes, startingAt: start)
        var words: [Token] = []
        while true {
            let token = lexer.next()
            if token.kind == .end || token.location.offset >= end { break }
            words.append(token)
        }
        var clauses: [[Token]] = [[]]
        for word in words {
            if word.isPunctuation(";") { clauses.append([]) } else { clauses[clauses.count - 1].append(word) }
        }
        for clause in clauses where !clause.isEmpty {
            readDirective(clause, into: &directives)
        }
    }

    private mutating func readDirective(_ clause: [Token], into directives: inout SwiftFormDirectives) {
        let word = clause[0]
        let usage = "write 'from a, b', 'cache N' or 'noCutoff'"
        guard word.kind == .identifier, let kind = SwiftFormDirectives.Kind(rawValue: word.text) else {
            report("unknown ComputedGen directive \(describe(word)); \(usage)", at: word.location)
            return
        }
        if directives.written.contains(where: { $0.kind == kind }) {
            report("duplicate '\(kind.rawValue)' directive; merge them into one", at: word.location)
            return
        }
        directives.written.append((kind, word.location))
        switch kind {
        case .from:
            var names: [Identifier] = []
            var expectName = true
            for token in clause.dropFirst() {
                if expectName, let name = token.identifier {
                    names.append(name)
                } else if !expectName, token.isPunctuation(",") {
                    // The next name follows.
                } else {
                    report("expected \(expectName ? "the name of a field or computed value" : "',' between names") in 'from', found \(describe(token))", at: token.location)
                    return
                }
                expectName.toggle()
            }
            if expectName {
                report("expected the name of a field or computed value after '\(clause.last?.text ?? "from")'", at: clause.last?.location ?? word.location)
                return
            }
            directives.from = names
        case .cache:
            let rest = Array(clause.dropFirst())
            let sign = rest.first?.isPunctuation("-") == true ? -1 : 1
            let number = sign < 0 ? rest.dropFirst().first : rest.first
            guard let number, number.kind == .number, let value = Int(number.text.filter { $0 != "_" }), rest.count == (sign < 0 ? 2 : 1) else {
                report("expected a whole number after 'cache', e.g. 'cache 16'", at: rest.first?.location ?? word.location)
                return
            }
            directives.cache = (sign * value, rest[0].location)
        case .noCutoff:
            if let extra = clause.dropFirst().first {
                report("'noCutoff' takes nothing after it; found \(describe(extra))", at: extra.location)
            }
            directives.noCutoff = word.location
        }
    }
}
