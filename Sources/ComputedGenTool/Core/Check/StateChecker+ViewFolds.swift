/// A count, sum or reversible fold of a `ListView` value, which the runtime cannot follow per
/// change.
///
/// `computed starredUnread: Int { unread.count(where: { $0.isStarred }) }` is valid Swift, and
/// right, but it is an ordinary memoized value: after each change of `unread` it walks every
/// element of the view again (O(n)). The same fold written over the list the view is built from,
/// with the view's filters first, is a fold of an `IdentifiedList`, updated per changed element
/// (a count, a sum or a reversible fold does not depend on the view's order). The checker says so
/// with a warning at the reference, giving that form when the view is a plain chain on a list.
///
/// Not reported: the view's own `count` (`unread.count` is the view's size, O(1)), and folds of a
/// view cut by `prefix` (at most its length, a constant).
extension StateChecker {
    mutating func checkFoldsOfViews() {
        var views: [String: Body] = [:]
        for computed in computeds where computed.type.map({ DerivedCollectionTypes.isListView($0.text) }) ?? false {
            views[computed.name.name] = computed.body
        }
        guard !views.isEmpty else { return }
        for computed in computeds {
            guard let type = computed.type, Self.derivedCollectionKind(type.text) == nil,
                  let start = Self.chainStart(of: computed.body), let view = views[start.name],
                  IncrementalFolds.foldedList(inBody: computed.body.text, lists: [start.name], type: type.text) != nil,
                  !Self.chainOperators(of: view).contains("prefix")
            else { continue }
            let name = computed.name.name
            let form = Self.foldOfList(view: view, fold: computed.body, views: views)
                .map { "'\($0)'" } ?? "the fold of the list '\(start.name)' is built from, with '\(start.name)''s filters first,"
            let message = "computed '\(name)' folds the 'ListView' value '\(start.name)', which is recomputed in full (every "
                + "element of '\(start.name)') after each change of it; \(form) is updated per changed element instead "
                + "(a view's order does not change a count or a sum)"
            warn(message, at: start.location)
        }
    }

    /// The fold of the view's list, when the view is a chain on a name whose operators are
    /// `filter`, `map` and `sorted` (`messages.filter { … }.count(where: …)` for a fold of
    /// `messages.filter { … }.sorted(by: \.date)`): the view's text without its sorts, then the
    /// fold's operators, each as written (on one line). A view chained from another view is
    /// followed to its list the same way.
    static func foldOfList(view: Body, fold: Body, views: [String: Body]) -> String? {
        guard let foldSegments = chainSegments(of: fold.text), var kept = listChain(of: view, views: views, depth: 0) else { return nil }
        kept += foldSegments.operators.map(\.text)
        return kept.map(oneLine).joined()
    }

    /// The list a view's chain starts from, and its operators other than sorts, as written;
    /// nil when the chain holds another operator or does not end at a list in a few steps.
    private static func listChain(of view: Body, views: [String: Body], depth: Int) -> [String]? {
        guard depth < 8, let segments = chainSegments(of: view.text),
              segments.operators.allSatisfy({ ["filter", "map", "sorted"].contains($0.name) })
        else { return nil }
        let kept = segments.operators.filter { $0.name != "sorted" }.map(\.text)
        guard let upstream = views[segments.start] else { return [segments.start] + kept }
        return listChain(of: upstream, views: views, depth: depth + 1).map { $0 + kept }
    }

    /// `text` on one line: each line trimmed, joined by a space.
    private static func oneLine(_ text: String) -> String {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        return text.split(whereSeparator: \.isNewline)
            .map { line in String(line.drop(while: isBlank).reversed().drop(while: isBlank).reversed()) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// A body's chain split at its top-level dots: the name it starts from, and each operator
    /// with its text (`.filter { … }`); nil when the body is not a chain on a name.
    private static func chainSegments(of text: String) -> (start: String, operators: [(name: String, text: String)])? {
        let (allTokens, errors) = Lexer.tokenize(text)
        guard errors.isEmpty else { return nil }
        let tokens = allTokens.filter { $0.kind != .docComment && $0.kind != .end }
        let first = tokens.first?.isWord("return") == true ? 1 : 0
        guard first < tokens.count, tokens[first].kind == .identifier else { return nil }
        let utf8 = Array(text.utf8)
        func slice(_ from: Int, _ to: Int) -> String { String(decoding: utf8[from..<to], as: UTF8.self) }
        let dots = topLevelDots(in: tokens).map { (index: $0, offset: tokens[$0].location.offset) }
        guard dots.allSatisfy({ $0.index + 1 < tokens.count && tokens[$0.index + 1].kind == .identifier }) else { return nil }
        guard let firstDot = dots.first, firstDot.index == first + 1 else { return nil }
        let end = tokens.last.map(\.endOffset) ?? utf8.count
        var operators: [(name: String, text: String)] = []
        for (position, dot) in dots.enumerated() {
            let next = position + 1 < dots.count ? dots[position + 1].offset : end
            operators.append((tokens[dot.index + 1].text, slice(dot.offset, next)))
        }
        return (tokens[first].text, operators)
    }
}
