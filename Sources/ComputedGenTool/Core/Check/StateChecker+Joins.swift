/// Joins (`computed rows: IdentifiedList<Row> { articles.join(feeds, on: \.feedID) { … } }`, see
/// `IncrementalJoins`): a join is a value of its own, whose rows views, sections and folds start
/// from. The forms that would otherwise fail to compile in the generated file, with a message
/// about a query type's members, are reported at the operator, with the form that works:
/// - an operator after the join (`articles.join(…) { … }.sorted(by: \.date)`);
/// - a join after an operator (`articles.filter { … }.join(…)`);
/// - a join declared as another type than an `IdentifiedList` (`ListView<Row>`, `[Row]`).
extension StateChecker {
    mutating func checkJoins() {
        // What a join may start from: the list fields, and the values declared as lists (joins).
        var lists = Set(fieldTypes.filter { DerivedCollectionTypes.isIdentifiedList($0.value) }.keys)
        for computed in computeds where computed.type.map({ DerivedCollectionTypes.isIdentifiedList($0.text) }) == true {
            lists.insert(computed.name.name)
        }
        guard !lists.isEmpty else { return }
        for computed in computeds {
            guard let type = computed.type, let start = Self.chainStart(of: computed.body), lists.contains(start.name) else { continue }
            let operators = Self.chainOperatorTokens(of: computed.body)
            guard let index = operators.firstIndex(where: { $0.isWord("join") || $0.isWord("leftJoin") }) else { continue }
            let name = computed.name.name
            let join = operators[index].text
            let declaration = "'computed rows: IdentifiedList<Row> { \(start.name).\(join)(…) { … } }'"
            if index > 0 {
                let before = operators[index - 1].text
                report("computed '\(name)' calls '\(join)' after '\(before)': a join starts from the list itself; declare the join as a "
                       + "value of its own (\(declaration)) and apply '\(before)' to its rows, in '\(name)' ('rows.\(before)(…)')",
                       at: operators[index].location)
            } else if index + 1 < operators.count {
                let after = operators[index + 1].text
                report("computed '\(name)' chains '\(after)' after '\(join)': a join's rows are a value of their own, which views, "
                       + "sections and folds start from; declare them (\(declaration)) and start '\(name)' from them ('rows.\(after)(…)')",
                       at: operators[index + 1].location)
            } else if !DerivedCollectionTypes.isIdentifiedList(type.text) {
                let isList = DerivedCollectionTypes.isListView(type.text) || DerivedCollectionTypes.isArray(type.text)
                let row = isList ? Self.elementType(ofArray: type.text) : "Row"
                report("computed '\(name)' is a join, whose value is the 'IdentifiedList' of its rows, not a '\(type.text)'; declare "
                       + "'\(name)' as 'IdentifiedList<\(row)>', and start a view of the rows from it in another value "
                       + "('\(name).sorted(…)')", at: type.location)
            }
        }
    }

    /// The operator names of a body's chain, as tokens located in the spec (`filter`, `sorted` in
    /// `articles.filter { … }.sorted(by: \.date)`).
    static func chainOperatorTokens(of body: Body) -> [Token] {
        let (allTokens, errors) = Lexer.tokenize(body.text)
        guard errors.isEmpty else { return [] }
        let tokens = allTokens.filter { $0.kind != .docComment && $0.kind != .end }
        return topLevelDots(in: tokens).compactMap { index in
            guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { return nil }
            var token = tokens[index + 1]
            token.location = IdentifierReferences.relocate(token.location, to: body.location)
            return token
        }
    }
}
