/// A derived collection whose chain starts from another derived collection value of the state.
///
/// A `ListView` chained from another `ListView` value (`unread: ListView<Article> {
/// timeline.filter { !$0.isRead } }`) is maintained incrementally: the runtime follows the
/// upstream view's changes (`ListViewQuery`). The forms that are not are reported at the
/// reference, naming the value, why, and the forms that work:
/// - a chain from a `ListGroups` or `ListSections` value (groups record no element changes a
///   chain could follow);
/// - groups or sections of a view (`timeline.grouped(by: …)`: only `filter`, `sorted`, `map` and
///   `prefix` follow a view);
/// - a chain from a view that is mapped or cut by a prefix (its pipeline keeps no record of its
///   changes: an element pushed out of a prefix is not an edited one).
extension StateChecker {
    mutating func checkViewChains() {
        var derived: [String: (kind: String, body: Body)] = [:]
        for computed in computeds {
            guard let kind = computed.type.flatMap({ Self.derivedCollectionKind($0.text) }) else { continue }
            derived[computed.name.name] = (kind, computed.body)
        }
        guard !derived.isEmpty else { return }
        for computed in computeds {
            guard let type = computed.type, let kind = Self.derivedCollectionKind(type.text),
                  let start = Self.chainStart(of: computed.body), let source = derived[start.name], start.name != computed.name.name
            else { continue }
            let name = computed.name.name
            let list = Self.chainStart(of: source.body).map { "'\($0.name)'" } ?? "its list"
            let ordinary = DerivedCollectionTypes.isListView(type.text)
                ? "'[\(Self.elementType(ofArray: type.text))]'" : "an ordinary type (such as a dictionary of arrays)"
            let why: String
            var fixes: [String] = []
            if source.kind != "ListView" {
                why = "a '\(source.kind)' value: groups are the result of a query, not a list that records its edits, so a chain "
                    + "from them is not maintained incrementally"
            } else if kind != "ListView" {
                why = "a 'ListView' value, into a '\(kind)': a chain from a view is maintained incrementally up to a 'ListView' "
                    + "('filter', 'sorted', 'map', 'prefix'), not grouped"
            } else if let cut = Self.chainOperators(of: source.body).first(where: { $0 == "prefix" || $0 == "map" }) {
                why = "a 'ListView' value \(cut == "prefix" ? "cut by 'prefix'" : "transformed by 'map'"): such a view keeps no "
                    + "record of its changes, so a chain from it is not maintained incrementally"
                fixes.append("chain from a view without '\(cut)' (and apply '\(cut)' last, in '\(name)')")
            } else {
                continue
            }
            fixes.append("start from the list '\(start.name)' is built from (\(list), with '\(start.name)''s operators first)")
            report("computed '\(name)' starts its chain from '\(start.name)', \(why); \(fixes.joined(separator: ", ")), or declare "
                   + "'\(name)' as \(ordinary) to recompute it in full after each change of '\(start.name)'",
                   at: start.location)
        }
    }

    /// The operators of a body's chain, in order (`["filter", "sorted"]` for
    /// `articles.filter { … }.sorted(by: \.date)`): the names after a `.` outside any bracket.
    static func chainOperators(of body: Body) -> [String] {
        chainOperatorTokens(of: body).map(\.text)
    }

    /// The indices of the `.` tokens outside any bracket: where a chain's operators start.
    static func topLevelDots(in tokens: [Token]) -> [Int] {
        var dots: [Int] = []
        var depth = 0
        for (index, token) in tokens.enumerated() {
            if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("{") {
                depth += 1
            } else if token.isPunctuation(")") || token.isPunctuation("]") || token.isPunctuation("}") {
                depth -= 1
            } else if depth == 0, token.isPunctuation(".") {
                dots.append(index)
            }
        }
        return dots
    }

    /// `ListView`, `ListGroups` or `ListSections` when `type` spells one, nil otherwise.
    static func derivedCollectionKind(_ type: String) -> String? {
        if DerivedCollectionTypes.isListView(type) { return "ListView" }
        if DerivedCollectionTypes.isListGroups(type) { return "ListGroups" }
        if DerivedCollectionTypes.isListSections(type) { return "ListSections" }
        return nil
    }

    /// The name a body's chain starts from (`timeline` in `return timeline.filter { … }`), with
    /// its location in the spec, or nil when the body is not a chain on a name.
    static func chainStart(of body: Body) -> Identifier? {
        let (allTokens, errors) = Lexer.tokenize(body.text)
        guard errors.isEmpty else { return nil }
        let tokens = allTokens.filter { $0.kind != .docComment && $0.kind != .end }
        let index = tokens.first?.isWord("return") == true ? 1 : 0
        guard index + 1 < tokens.count, tokens[index].kind == .identifier, !tokens[index].text.hasPrefix("$"),
              tokens[index + 1].isPunctuation("."), let identifier = tokens[index].identifier
        else { return nil }
        var located = identifier
        located.location = IdentifierReferences.relocate(identifier.location, to: body.location)
        return located
    }
}
