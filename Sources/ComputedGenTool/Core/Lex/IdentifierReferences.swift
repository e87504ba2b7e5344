/// Lists the names a body's code refers to, for input inference.
///
/// A reference is an identifier in code, including code inside string interpolations, that is
/// not a member access (after `.`, as in `$0.todos` or `\.done`), not an unescaped keyword, not a
/// `$0`-style or `$`-prefixed name, not `_`, not an attribute name (after `@`) and not an argument
/// label (after `(` or `,` and directly before `:`). String contents and comments are never
/// references.
public enum IdentifierReferences {
    /// The references in `tokens`, in source order, with repetitions.
    public static func list(in tokens: [Token]) -> [Identifier] {
        var references: [Identifier] = []
        collect(in: tokens, into: &references)
        return references
    }

    /// The references in the Swift code `code`, whose first byte is at `origin`.
    public static func list(inCode code: String, at origin: SourceLocation = SourceLocation(line: 1, column: 1, offset: 0)) -> [Identifier] {
        list(in: Lexer.tokenize(code).tokens).map { reference in
            var moved = reference
            moved.location = relocate(reference.location, to: origin)
            return moved
        }
    }

    /// The references in a body, with locations in the spec file.
    public static func list(in body: Body) -> [Identifier] {
        list(inCode: body.text, at: body.location)
    }

    /// Each reference in a body with the member names written directly after it:
    /// `shelf.computed.total` gives `shelf` with `["computed", "total"]`, a bare `shelf` gives `[]`.
    /// Used to make a computed depend on the members of a nested state it reads, not all of it.
    public static func listWithMembers(in body: Body) -> [(reference: Identifier, members: [String])] {
        var references: [(reference: Identifier, members: [String])] = []
        collectWithMembers(in: Lexer.tokenize(body.text).tokens, into: &references)
        return references
    }

    private static func collectWithMembers(in tokens: [Token], into references: inout [(reference: Identifier, members: [String])]) {
        for (index, token) in tokens.enumerated() {
            if token.kind == .string {
                for interpolation in token.interpolations { collectWithMembers(in: interpolation, into: &references) }
                continue
            }
            let previous = index > 0 ? tokens[index - 1] : nil
            let following = index + 1 < tokens.count ? tokens[index + 1] : nil
            guard isReference(token, after: previous, before: following), let identifier = token.identifier else { continue }
            var members: [String] = []
            var next = index + 1
            while next + 1 < tokens.count, tokens[next].isPunctuation("."), tokens[next + 1].kind == .identifier,
                  let member = tokens[next + 1].identifier {
                members.append(member.name)
                next += 2
            }
            references.append((identifier, members))
        }
    }

    /// Moves `location`, measured from the start of a fragment, into the file where the fragment
    /// starts at `origin`.
    static func relocate(_ location: SourceLocation, to origin: SourceLocation) -> SourceLocation {
        SourceLocation(
            line: origin.line + location.line - 1,
            column: location.line == 1 ? origin.column + location.column - 1 : location.column,
            offset: origin.offset + location.offset
        )
    }

    private static func collect(in tokens: [Token], into references: inout [Identifier]) {
        for (index, token) in tokens.enumerated() {
            if token.kind == .string {
                for interpolation in token.interpolations { collect(in: interpolation, into: &references) }
                continue
            }
            let previous = index > 0 ? tokens[index - 1] : nil
            let following = index + 1 < tokens.count ? tokens[index + 1] : nil
            if isReference(token, after: previous, before: following), let identifier = token.identifier {
                references.append(identifier)
            }
        }
    }

    private static func isReference(_ token: Token, after previous: Token?, before following: Token?) -> Bool {
        guard token.kind == .identifier, token.text != "_", !token.text.hasPrefix("$") else { return false }
        if !token.isEscaped && SwiftKeywords.isReserved(token.text) { return false }
        if let previous, previous.isPunctuation(".") || previous.isPunctuation("@") { return false }
        let isLabel = (previous?.isPunctuation("(") == true || previous?.isPunctuation(",") == true)
            && following?.isPunctuation(":") == true
        return !isLabel
    }
}
