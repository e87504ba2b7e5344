/// Computed values that join an `IdentifiedList` with the related values its elements refer to,
/// maintained incrementally: `computed rows: IdentifiedList<TimelineRow> { articles.join(feeds,
/// on: \.feedID) { article, feed in TimelineRow(article, feed) } }`. The runtime's `JoinQuery`
/// follows the changes of both sides, and views, groups, sections and folds of the rows
/// (`rows.sorted(by: \.date)`) follow the rows' changes as they follow a list field's.
///
/// Recognised by the declared type (an `IdentifiedList<…>`) and the body's form, conservatively:
/// the whole body (after an optional `return`) is one call, `join` or `leftJoin`, on a name that
/// is a list (an `IdentifiedList` field, or another join value). Anything else declared as an
/// `IdentifiedList` is an ordinary computed value, recomputed in full.
public enum IncrementalJoins {
    /// What a recognised join reads: the list whose elements the rows are made from, and the
    /// other side, when the join's first argument is a plain name (`feeds`); nil otherwise, in
    /// which case the other side's moves evaluate the join in full.
    public struct Join: Hashable, Sendable {
        /// The list the chain starts from (`articles`).
        public var list: String
        /// The name the join looks related values up in (`feeds`), when it is one.
        public var other: String?

        /// A join of `list` with `other`.
        public init(list: String, other: String?) {
            self.list = list
            self.other = other
        }
    }

    /// The join `body` makes, when `type` spells an `IdentifiedList` and the body is a call of
    /// `join` or `leftJoin` on one of `lists`.
    public static func join(inBody body: String, type: String, lists: Set<String>) -> Join? {
        guard DerivedCollectionTypes.isIdentifiedList(type), !lists.isEmpty else { return nil }
        let (allTokens, errors) = Lexer.tokenize(body)
        guard errors.isEmpty else { return nil }
        let tokens = allTokens.filter { $0.kind != .docComment && $0.kind != .end }
        var index = tokens.first?.isWord("return") == true ? 1 : 0
        guard index + 3 < tokens.count, tokens[index].kind == .identifier, !tokens[index].text.hasPrefix("$"),
              lists.contains(tokens[index].text), tokens[index + 1].isPunctuation("."),
              tokens[index + 2].isWord("join") || tokens[index + 2].isWord("leftJoin"), !tokens[index + 2].isEscaped,
              tokens[index + 3].isPunctuation("(")
        else { return nil }
        let list = tokens[index].text
        let open = index + 3
        guard let close = IncrementalFolds.closing(tokens, from: open) else { return nil }
        index = close + 1
        if index < tokens.count, tokens[index].isPunctuation("{") {
            guard let end = IncrementalFolds.closing(tokens, from: index) else { return nil }
            index = end + 1
        }
        guard index == tokens.count else { return nil }
        var other: String? = nil
        if open + 2 < close, tokens[open + 1].kind == .identifier, !tokens[open + 1].text.hasPrefix("$"),
           tokens[open + 2].isPunctuation(",") {
            other = tokens[open + 1].text
        }
        return Join(list: list, other: other)
    }
}

extension CheckedComputed {
    /// Whether the value is declared as an `IdentifiedList` (a join, when its body is one).
    public var isIdentifiedList: Bool {
        DerivedCollectionTypes.isIdentifiedList(type)
    }
}
