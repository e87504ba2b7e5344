/// Checks of what a body reads that Swift would reject with a message about generated code
/// (`instance member 'query' of type 'S' cannot be used on instance of nested type
/// 'S._ComputedBodies'`): `self`, and with `from`, a field or computed the list omits.
///
/// A body is compiled as a static function whose parameters are exactly its inputs, nested in the
/// state, so any unqualified use of a member's name that the body does not bind itself names the
/// state's instance member and fails to compile.
extension StateChecker {
    /// Reports `self` in `body`, and, when `explicit` (the resolved `from` list) is given, every
    /// field or computed that the body reads but the list omits.
    ///
    /// - Parameters:
    ///   - body: The body to check.
    ///   - owner: How messages name the member, e.g. `computed 'total'`.
    ///   - explicit: The names written after `from`, or `nil` for inferred inputs.
    ///   - parameters: A selector's parameter names, which the body may read.
    mutating func checkReads(of body: Body, owner: String, explicit: [Identifier]?, parameters: Set<String>) {
        let tokens = Lexer.tokenize(body.text).tokens
        for use in Self.selfUses(in: tokens) {
            let replacement = use.member.map { "write '\($0)' instead of 'self.\($0)'" } ?? "remove 'self'"
            let message = "'self' cannot be used in the body of \(owner): a body is a function of its inputs, not a method of the state; \(replacement)"
            report(message, at: IdentifierReferences.relocate(use.location, to: body.location))
        }
        guard let explicit else { return }
        let listed = Set(explicit.map(\.name))
        // An unknown name in `from` is already reported (often a misspelling of what the body reads).
        guard listed.allSatisfy({ inputsByName[$0] != nil }) else { return }
        let bound = Self.boundNames(in: tokens).union(parameters)
        var missing: [Identifier] = []
        for reference in IdentifierReferences.list(in: body)
        where inputsByName[reference.name] != nil && !listed.contains(reference.name) && !bound.contains(reference.name) {
            if !missing.contains(where: { $0.name == reference.name }) { missing.append(reference) }
        }
        guard !missing.isEmpty else { return }
        var seen: Set<String> = []
        let fixed = (explicit + missing).filter { seen.insert($0.name).inserted }.map(Self.spelling).joined(separator: ", ")
        for name in missing {
            let message = "'\(name.name)' is read by the body of \(owner) but not listed in 'from'; add it: 'from \(fixed)'"
            report(message, at: name.location)
        }
    }

    /// Whether `body` uses `self` (so that "reads no field or computed" would only repeat that error).
    static func usesSelf(_ body: Body) -> Bool {
        !selfUses(in: Lexer.tokenize(body.text).tokens).isEmpty
    }

    private static func spelling(_ name: Identifier) -> String {
        name.isEscaped ? "`\(name.name)`" : name.name
    }

    /// Each `self` in code (not `.self`, not `` `self` ``), with the member written after it, in
    /// source order; locations are relative to the tokens' fragment.
    private static func selfUses(in tokens: [Token]) -> [(location: SourceLocation, member: String?)] {
        var uses: [(location: SourceLocation, member: String?)] = []
        for (index, token) in tokens.enumerated() {
            if token.kind == .string {
                for interpolation in token.interpolations { uses += selfUses(in: interpolation) }
                continue
            }
            guard token.isWord("self"), !(index > 0 && tokens[index - 1].isPunctuation(".")) else { continue }
            var member: String?
            if index + 2 < tokens.count, tokens[index + 1].isPunctuation("."), tokens[index + 2].kind == .identifier {
                member = spelling(tokens[index + 2].identifier!)
            }
            uses.append((token.location, member))
        }
        return uses
    }

    /// Every name the body may bind itself, anywhere (not scope-aware, so it errs on the side of
    /// reporting nothing): after `let`, `var` and `func` (with what follows in parentheses, for
    /// tuple and enum-case patterns and parameter lists), before `in` back to the `{` or `for` that
    /// opens the closure's parameters or the loop's pattern, and `error` in a `catch` block.
    static func boundNames(in tokens: [Token]) -> Set<String> {
        var names: Set<String> = []
        for (index, token) in tokens.enumerated() {
            if token.kind == .string {
                for interpolation in token.interpolations { names.formUnion(boundNames(in: interpolation)) }
            } else if token.isWord("let") || token.isWord("var") || token.isWord("func") {
                names.formUnion(patternNames(in: tokens, after: index))
            } else if token.isWord("in") {
                var start = index - 1
                while start >= 0, !tokens[start].isPunctuation("{"), !tokens[start].isWord("for"), !tokens[start].isPunctuation("}") {
                    if let name = tokens[start].identifier?.name { names.insert(name) }
                    start -= 1
                }
            } else if token.isWord("catch") {
                names.insert("error")
            }
        }
        return names
    }

    /// The identifier after `tokens[index]`, or, when a pattern follows (`(a, b)`, `.some(x)`),
    /// every identifier up to its closing parenthesis.
    private static func patternNames(in tokens: [Token], after index: Int) -> Set<String> {
        var names: Set<String> = []
        var cursor = index + 1
        var depth = 0
        while cursor < tokens.count {
            let token = tokens[cursor]
            if token.isPunctuation("(") {
                depth += 1
            } else if token.isPunctuation(")") {
                depth -= 1
                if depth <= 0 { break }
            } else if let name = token.identifier?.name {
                names.insert(name)
                if depth == 0, !(cursor + 1 < tokens.count && (tokens[cursor + 1].isPunctuation("(") || tokens[cursor + 1].isPunctuation("."))) { break }
            } else if depth == 0, !token.isPunctuation(".") {
                break
            }
            cursor += 1
        }
        return names
    }
}
