/// A derived collection whose chain starts from another derived collection value of the state
/// (`unreadTimeline: ListView<Article> { timeline.filter { !$0.isRead } }` where `timeline` is a
/// `ListView`): the runtime follows the edits an `IdentifiedList` records, and a view records
/// none, so the body would build an `Array` and fail to compile with a message about a protocol
/// conformance that names neither value. Reported at the reference, naming the value, why, and
/// the two forms that work.
extension StateChecker {
    mutating func checkViewChains() {
        var derived: [String: (kind: String, body: Body)] = [:]
        for computed in computeds {
            guard let kind = computed.type.flatMap({ Self.derivedCollectionKind($0.text) }) else { continue }
            derived[computed.name.name] = (kind, computed.body)
        }
        guard !derived.isEmpty else { return }
        for computed in computeds {
            guard let type = computed.type, Self.derivedCollectionKind(type.text) != nil,
                  let start = Self.chainStart(of: computed.body), let source = derived[start.name], start.name != computed.name.name
            else { continue }
            let name = computed.name.name
            let list = Self.chainStart(of: source.body).map { "'\($0.name)'" } ?? "its list"
            let ordinary = DerivedCollectionTypes.isListView(type.text)
                ? "'[\(Self.elementType(ofArray: type.text))]'" : "an ordinary type (such as a dictionary of arrays)"
            report("computed '\(name)' starts its chain from '\(start.name)', a '\(source.kind)' value: a view is the result of "
                   + "a query, not a list that records its edits, so a chain from it is not maintained incrementally; start "
                   + "from the list '\(start.name)' is built from (\(list), with '\(start.name)''s operators first), or declare "
                   + "'\(name)' as \(ordinary) to recompute it in full after each change of '\(start.name)'",
                   at: start.location)
        }
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
