/// The spec types of derived collections: a computed value declared as a `ListView<…>` is
/// maintained incrementally by the runtime (its body builds a query over an `IdentifiedList`
/// field, which the runtime evaluates by following the list's changes).
///
/// Recognised by how the spec spells the type, as written or qualified with the runtime's module
/// (`ListView<Message>`, `ComputedRuntime.ListView<Message>`); a typealias of one is an ordinary
/// computed value.
public enum DerivedCollectionTypes {
    /// Whether a type spells the runtime's `ListView<…>`.
    public static func isListView(_ type: String) -> Bool {
        isGeneric(type, named: "ListView")
    }

    /// Whether a type spells the runtime's `ListGroups<…>` (a query's result grouped by a key).
    public static func isListGroups(_ type: String) -> Bool {
        isGeneric(type, named: "ListGroups")
    }

    /// Whether a type spells the runtime's `ListSections<…>` (groups in an order of their keys).
    public static func isListSections(_ type: String) -> Bool {
        isGeneric(type, named: "ListSections")
    }

    /// Whether a type spells the runtime's `KeyedTotals<…>` (a fold per key).
    public static func isKeyedTotals(_ type: String) -> Bool {
        isGeneric(type, named: "KeyedTotals")
    }

    /// Whether a type spells the runtime's `IdentifiedList<…>`.
    public static func isIdentifiedList(_ type: String) -> Bool {
        isGeneric(type, named: "IdentifiedList")
    }

    /// Whether a type spells an array: `[T]` (not a dictionary `[K: V]`) or `Array<T>`.
    public static func isArray(_ type: String) -> Bool {
        let type = compact(type)
        if type.hasPrefix("Array<") || type.hasPrefix("Swift.Array<") { return type.hasSuffix(">") }
        guard type.hasPrefix("["), type.hasSuffix("]") else { return false }
        var depth = 0
        for character in type.dropFirst().dropLast() {
            switch character {
            case "[", "<", "(": depth += 1
            case "]", ">", ")": depth -= 1
            case ":" where depth == 0: return false
            default: break
            }
        }
        return true
    }

    /// `type` without spaces, tabs or line breaks.
    static func compact(_ type: String) -> String {
        // Most types have no whitespace: a byte scan, not a Unicode property lookup per character.
        guard type.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x80 }) else { return type }
        return String(type.filter { !$0.isWhitespace })
    }

    private static func isGeneric(_ type: String, named name: String) -> Bool {
        let type = compact(type).utf8
        guard type.last == UInt8(ascii: ">") else { return false }
        func starts(with prefix: String) -> Bool {
            type.starts(with: prefix.utf8) && type.dropFirst(prefix.utf8.count).first == UInt8(ascii: "<")
        }
        return starts(with: name) || starts(with: NameRules.runtimeModuleName + "." + name)
    }
}

extension CheckedComputed {
    /// Whether the value is a `ListView`, `ListGroups` or `ListSections`, maintained
    /// incrementally.
    public var isIncrementalList: Bool {
        DerivedCollectionTypes.isListView(type) || isListGroups || isListSections
    }

    /// Whether the value is a `ListGroups`: groups of a list, maintained incrementally.
    public var isListGroups: Bool {
        DerivedCollectionTypes.isListGroups(type)
    }
}

/// Computed values that fold an `IdentifiedList` field into one value, maintained incrementally:
/// a count or a sum after one edit costs O(changes), without bringing a sorted view up to date.
///
/// Recognised by the body's tokens, conservatively: the whole body (after an optional `return`)
/// is one chain on a list field, `.filter`s and `.map`s (or `.query` first), ending in a fold:
///
/// - `messages.count(where: { … })`, `messages.count { … }` (also after `.filter`/`.map`);
/// - `messages.filter { … }.count`, a count after at least one operator;
/// - `messages.sum(of: \.size)`, `messages.sum { … }`;
/// - `messages.count(by: \.folder)`, `messages.sum(of: \.size, by: \.folder)`: a total per key,
///   declared as a `KeyedTotals<Key, Value>`;
/// - `messages.reduce(0, adding: +, removing: -, { … })`, a fold whose steps can be undone.
///
/// Anything else (`messages.count(where: …) + 1`, `messages.count`, a fold of an array) is an
/// ordinary computed value, recomputed in full. The body of a recognised fold is compiled as the
/// runtime's fold query (`ListFoldQuery`, or `KeyedFoldQuery` for a total per key), whose `count(where:)`, `count`, `sum(of:)` and
/// `reduce(_:adding:removing:_:)` give what `Array`'s `count(where:)`, `count` and the same sum
/// give.
public enum IncrementalFolds {
    /// The list field that `body` folds, when the body is a recognised fold of one of `lists`
    /// (the names of the `IdentifiedList` fields it reads) whose kind matches the declared
    /// `type` when one is given: a total per key only for a `KeyedTotals<…>`, any other fold only
    /// for another type. A body and type that do not match (a misspelled `KeyedTotals`) are an
    /// ordinary computed value, so that Swift reports the mismatch at the spec's type, once.
    public static func foldedList(inBody body: String, lists: Set<String>, type: String? = nil) -> String? {
        guard let (list, isKeyed) = fold(inBody: body, lists: lists) else { return nil }
        if let type, DerivedCollectionTypes.isKeyedTotals(type) != isKeyed { return nil }
        return list
    }

    /// The list `body` folds, and whether the fold is a total per key (`count(by:)`,
    /// `sum(of:by:)`).
    private static func fold(inBody body: String, lists: Set<String>) -> (list: String, isKeyed: Bool)? {
        guard !lists.isEmpty else { return nil }
        let (allTokens, errors) = Lexer.tokenize(body)
        guard errors.isEmpty else { return nil }
        let tokens = allTokens.filter { $0.kind != .docComment }
        var index = tokens.first?.isWord("return") == true ? 1 : 0
        guard index < tokens.count, tokens[index].kind == .identifier, !tokens[index].text.hasPrefix("$"),
              lists.contains(tokens[index].text)
        else { return nil }
        let list = tokens[index].text
        index += 1
        var operators = 0
        while index < tokens.count {
            guard tokens[index].isPunctuation("."), index + 1 < tokens.count, tokens[index + 1].kind == .identifier,
                  !tokens[index + 1].isEscaped
            else { return nil }
            let member = tokens[index + 1].text
            index += 2
            var labels: [String]? = nil
            if index < tokens.count, tokens[index].isPunctuation("(") {
                guard let end = closing(tokens, from: index) else { return nil }
                labels = topLevelLabels(tokens, in: index..<end)
                index = end + 1
            }
            var hasTrailingClosure = false
            if index < tokens.count, tokens[index].isPunctuation("{") {
                guard let end = closing(tokens, from: index) else { return nil }
                hasTrailingClosure = true
                index = end + 1
            }
            let isLast = index == tokens.count
            switch member {
            case "query" where operators == 0 && labels == nil && !hasTrailingClosure && !isLast,
                 "filter" where (labels != nil || hasTrailingClosure) && !isLast,
                 "map" where (labels != nil || hasTrailingClosure) && !isLast:
                operators += 1
            case "count" where isLast:
                if hasTrailingClosure { return labels == nil || labels == [] ? (list, false) : nil }
                if labels == ["by"] { return (list, true) }
                if labels?.first == "where" { return (list, false) }
                return operators > 0 && (labels == nil || labels == []) ? (list, false) : nil
            case "sum" where isLast:
                if hasTrailingClosure { return labels == nil || labels == [] ? (list, false) : nil }
                return labels?.first == "of" ? (list, labels?.contains("by") ?? false) : nil
            case "reduce" where isLast:
                guard let labels, labels.contains("adding"), labels.contains("removing") else { return nil }
                return (list, false)
            default:
                return nil
            }
        }
        return nil
    }

    /// The index of the bracket that closes the one at `open` (`(`, `[` or `{`), or nil.
    static func closing(_ tokens: [Token], from open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count where tokens[index].kind == .punctuation {
            switch tokens[index].text {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// The argument labels of the call whose parentheses span `range` (from `(` to before `)`),
    /// in order: the identifiers directly after `(` or a top-level `,` and before `:`.
    private static func topLevelLabels(_ tokens: [Token], in range: Range<Int>) -> [String] {
        var labels: [String] = []
        var depth = 0
        for index in range where tokens[index].kind == .punctuation {
            switch tokens[index].text {
            case "(", "[", "{":
                depth += 1
                if depth == 1, index + 2 < range.upperBound + 1, tokens[index + 1].kind == .identifier, tokens[index + 2].isPunctuation(":") {
                    labels.append(tokens[index + 1].text)
                }
            case ")", "]", "}": depth -= 1
            case "," where depth == 1:
                if index + 2 < range.upperBound + 1, tokens[index + 1].kind == .identifier, tokens[index + 2].isPunctuation(":") {
                    labels.append(tokens[index + 1].text)
                }
            default: break
            }
        }
        return labels
    }
}
