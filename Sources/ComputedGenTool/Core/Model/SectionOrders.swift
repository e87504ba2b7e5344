/// Where a body orders a grouped list's keys (`articles.grouped(by: \.feedID).sortedKeys { … }`),
/// and which inputs the order reads: a computed value declared as a `ListSections<…>` sorts only
/// its keys again when just those moved, and follows the list's changes in its groups.
///
/// Found in the body's tokens: each `.sortedKeys` call, the member written before it, and the
/// references inside its arguments and trailing closure.
public enum SectionOrders {
    /// One `.sortedKeys` call in a body.
    public struct Call: Hashable, Sendable {
        /// Where `sortedKeys` is written, in the spec file.
        public var location: SourceLocation
        /// The member called just before (`grouped` in `….grouped(by: \.feed).sortedKeys()`),
        /// or nil when `sortedKeys` is not called on a call's result.
        public var previousMember: String?
        /// The names the order's arguments and trailing closure refer to.
        public var orderReferences: Set<String>
        /// The names the rest of the body refers to.
        public var otherReferences: Set<String>
        /// How many times the rest of the body refers to each of those names.
        public var otherReferenceCounts: [String: Int]
        /// The first name the body refers to (the chain's list, in `articles.filter { … }…`).
        public var firstReference: String?
    }

    /// The `.sortedKeys` calls of `body`, in order.
    public static func calls(in body: Body) -> [Call] {
        let (allTokens, errors) = Lexer.tokenize(body.text)
        guard errors.isEmpty else { return [] }
        let tokens = allTokens.filter { $0.kind != .docComment && $0.kind != .end }
        let references = IdentifierReferences.list(in: tokens)
        var calls: [Call] = []
        for index in tokens.indices where index > 0 && tokens[index].kind == .identifier && tokens[index].text == "sortedKeys"
            && !tokens[index].isEscaped && tokens[index - 1].isPunctuation(".") {
            var end = index + 1
            if end < tokens.count, tokens[end].isPunctuation("("), let close = IncrementalFolds.closing(tokens, from: end) { end = close + 1 }
            if end < tokens.count, tokens[end].isPunctuation("{"), let close = IncrementalFolds.closing(tokens, from: end) { end = close + 1 }
            let range = (end > index + 1 ? tokens[index + 1].location.offset : tokens[index].endOffset)..<(tokens[end - 1].endOffset)
            let inOrder = references.filter { range.contains($0.location.offset) }
            let outside = references.filter { !range.contains($0.location.offset) }
            calls.append(Call(location: IdentifierReferences.relocate(tokens[index].location, to: body.location),
                              previousMember: previousMember(tokens, before: index - 1),
                              orderReferences: Set(inOrder.map(\.name)), otherReferences: Set(outside.map(\.name)),
                              otherReferenceCounts: outside.reduce(into: [:]) { $0[$1.name, default: 0] += 1 },
                              firstReference: references.first?.name))
        }
        return calls
    }

    /// The member whose call ends just before the `.` at `dot`: `grouped` in `grouped(by: …)`,
    /// `grouped { … }` or `grouped(by: …) { … }`.
    static func previousMember(_ tokens: [Token], before dot: Int) -> String? {
        var index = dot - 1
        for bracket in ["}", ")"] where index >= 0 && tokens[index].isPunctuation(bracket) {
            guard let open = opening(tokens, from: index) else { return nil }
            index = open - 1
        }
        guard index >= 1, tokens[index].kind == .identifier, tokens[index - 1].isPunctuation(".") else { return nil }
        return tokens[index].text
    }

    /// The index of the bracket that opens the one at `close`, or nil.
    static func opening(_ tokens: [Token], from close: Int) -> Int? {
        var depth = 0
        for index in stride(from: close, through: 0, by: -1) where tokens[index].kind == .punctuation {
            switch tokens[index].text {
            case ")", "]", "}": depth += 1
            case "(", "[", "{":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }
}

extension CheckedComputed {
    /// Whether the value is a `ListSections`: groups of a list in an order of their keys.
    public var isListSections: Bool {
        DerivedCollectionTypes.isListSections(type)
    }

    /// The inputs only the key order of a `ListSections` reads (a name table), and the list it
    /// sections when the order reads it too, by name: when only those move, the groups follow the
    /// list and the keys are sorted again. Empty for any other value.
    public var keyOrderInputs: [String] {
        guard isListSections, let call = SectionOrders.calls(in: decl.body).last else { return [] }
        return inputs.map(\.name).filter { name in
            call.orderReferences.contains(name) && (!call.otherReferences.contains(name) || name == call.firstReference)
        }
    }
}
