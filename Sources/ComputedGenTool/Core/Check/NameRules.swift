/// The rules a declared name must follow, and their messages.
enum NameRules {
    /// Names that generated code declares on every state.
    static let reservedMemberNames: [String: String] = [
        "computed": "the generated 'state.computed' accessor",
        "Extended": "the generated type behind 'state.computed'",
        "Selectors": "the generated namespace of selector functions",
        "CodingKeys": "the generated coding keys",
        "customMirror": "the generated 'CustomReflectable' conformance that 'print' and 'dump' use",
        "hashValue": "'Hashable', which a member of that name would answer for the generated 'hash(into:)'",
    ]

    /// The runtime's module name. Generated code qualifies every runtime name with it
    /// (`ComputedRuntime.Edge`, see `RuntimeNames`), so a member or state of this name would hide
    /// the module and break every qualified name after it. Members named like runtime types
    /// (`Edge`, `Selector`, `Memo`) are fine: qualified names cannot be hidden by them.
    static let runtimeModuleName = "ComputedRuntime"

    /// Module names that generated code qualifies with: the runtime's, and the standard library's
    /// (`Swift.Hasher`, `Swift.Mirror`, so that a member named `Hasher` cannot hide the type).
    static let qualifyingModuleNames: Set<String> = [runtimeModuleName, "Swift"]

    /// The problem with `name` as the name of a state, when generated code needs it for itself.
    static func stateNameProblem(_ name: Identifier) -> String? {
        guard qualifyingModuleNames.contains(name.name) else { return nil }
        return "'\(name.name)' is reserved: generated code names the module '\(name.name)', which a state of that name would hide; choose another name"
    }

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
        if qualifyingModuleNames.contains(name.name) {
            return "'\(name.name)' is reserved: generated code names the module '\(name.name)', which a member of that name would hide; choose another name"
        }
        if name.name.hasPrefix("_") {
            return "'\(name.name)' starts with '_', which is reserved for generated storage; choose a name without the leading '_'"
        }
        if name.name.hasPrefix("$") {
            return "'\(name.name)' starts with '$', which is reserved for generated projections such as 'state.$field'; choose another name"
        }
        return nil
    }

    /// The problem with `name` when Swift would not accept it as an identifier. The lexer reads
    /// any non-ASCII character into a name, as Swift reads Unicode names, but Swift allows only
    /// some (no U+FFFD, no-break spaces, operator symbols such as `×`, or a combining mark first).
    static func characterProblem(_ name: Identifier) -> String? {
        var isFirst = true
        for scalar in name.name.unicodeScalars {
            defer { isFirst = false }
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            if !isIdentifierContinuation(scalar) {
                return "'\(name.name)' is not a valid Swift name: Swift does not allow \(code) in names; use letters, digits and '_'"
            }
            if isFirst, !isIdentifierStart(scalar) {
                return "'\(name.name)' is not a valid Swift name: it cannot start with \(code); start it with a letter or '_'"
            }
        }
        return nil
    }

    /// Whether Swift accepts `scalar` in an identifier after its first character (the ranges of
    /// the Swift lexer, from N1518 Annex X.1).
    static func isIdentifierContinuation(_ scalar: Unicode.Scalar) -> Bool {
        let c = scalar.value
        if c < 0x80 {
            let byte = UInt8(c)
            return byte.isIdentifierContinue
        }
        let ranges: [ClosedRange<UInt32>] = [
            0x00A8...0x00A8, 0x00AA...0x00AA, 0x00AD...0x00AD, 0x00AF...0x00AF, 0x00B2...0x00B5, 0x00B7...0x00BA,
            0x00BC...0x00BE, 0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x00FF, 0x0100...0x167F, 0x1681...0x180D,
            0x180F...0x1FFF, 0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F,
            0x2070...0x218F, 0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007,
            0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE44,
            0xFE47...0xFFF8,
        ]
        if ranges.contains(where: { $0.contains(c) }) { return true }
        // U+10000 to U+EFFFD, except the last two code points of each plane.
        return c >= 0x10000 && c <= 0xEFFFD && (c & 0xFFFF) <= 0xFFFD
    }

    /// Whether Swift accepts `scalar` as the first character of an identifier (N1518 Annex X.2
    /// rules out combining marks).
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        let c = scalar.value
        if c < 0x80 { return UInt8(c).isIdentifierStart }
        let combining: [ClosedRange<UInt32>] = [0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F]
        return isIdentifierContinuation(scalar) && !combining.contains { $0.contains(c) }
    }

    /// Names longer than this get no suggestion: the edit distance costs the product of the two
    /// lengths, and nobody mistypes a name that long.
    static let maxSuggestedNameLength = 128

    /// How much edit-distance work (character pairs compared) the suggestions for one state may
    /// take: plenty for every typo of a real spec, while a file of thousands of unknown names
    /// against thousands of members (quadratic, tens of seconds) gets its later hints dropped.
    static let suggestionBudget = 1_000_000

    /// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
    static func suggestion(for name: String, among candidates: [String]) -> String? {
        var budget = Int.max
        return suggestion(for: name, among: candidates, budget: &budget)
    }

    /// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo
    /// and `budget` (in character pairs compared, spent here) suffices to find it; `nil` otherwise.
    static func suggestion(for name: String, among candidates: [String], budget: inout Int) -> String? {
        let length = name.count
        guard length <= maxSuggestedNameLength else { return nil }
        let limit = max(2, length / 3)
        var scored: [(String, Int)] = []
        for candidate in candidates {
            // Each candidate costs a little to look at, and its edit distance the product of
            // the two lengths.
            budget -= 1
            guard budget >= 0 else {
                budget = 0
                return nil
            }
            // The distance is at least the difference in length, so candidates whose length
            // differs by more than `limit` can never be suggested. (`utf8.count` is O(1) and
            // never less than the number of characters.)
            guard candidate.utf8.count >= length - limit else { continue }
            let candidateLength = candidate.count
            guard abs(candidateLength - length) <= limit else { continue }
            budget -= length * candidateLength
            guard budget >= 0 else {
                budget = 0
                return nil  // Out of budget: the best candidate may be among those not compared.
            }
            scored.append((candidate, editDistance(name, candidate)))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= limit && best.1 < length ? best.0 : nil
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

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
