/// The rules a declared name must follow, and their messages.
enum NameRules {
    /// Names that generated code declares on every state.
    static let reservedMemberNames: [String: String] = [
        "computed": "the generated 'state.computed' accessor",
        "Extended": "the generated type behind 'state.computed'",
        "Selectors": "the generated namespace of selector functions",
        "CodingKeys": "the generated coding keys",
    ]

    /// The problem with using `name` unescaped, when it is a reserved Swift keyword.
    static func keywordProblem(_ name: Identifier) -> String? {
        guard !name.isEscaped, SwiftKeywords.isReserved(name.name) else { return nil }
        return "'\(name.name)' is a Swift keyword; write it in backticks ('`\(name.name)`') to use it as a name"
    }

    /// The problem with `name` as the name of a state member, when it collides with generated code.
    static func reservedProblem(_ name: Identifier) -> String? {
        if let use = reservedMemberNames[name.name] {
            return "'\(name.name)' is reserved for \(use); choose another name"
        }
        if name.name.hasPrefix("_") {
            return "'\(name.name)' starts with '_', which is reserved for generated storage; choose a name without the leading '_'"
        }
        if name.name.hasPrefix("$") {
            return "'\(name.name)' starts with '$', which is reserved for generated projections such as 'state.$field'; choose another name"
        }
        return nil
    }

    /// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
    static func suggestion(for name: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(name, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, name.count / 3) && best.1 < name.count ? best.0 : nil
    }

    /// The Levenshtein distance between two strings, by characters.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        var previous = Array(0...right.count)
        for (i, leftCharacter) in left.enumerated() {
            var row = [i + 1]
            for (j, rightCharacter) in right.enumerated() {
                let substitution = previous[j] + (leftCharacter == rightCharacter ? 0 : 1)
                row.append(Swift.min(substitution, previous[j + 1] + 1, row[j] + 1))
            }
            previous = row
        }
        return previous[right.count]
    }
}
