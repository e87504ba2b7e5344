import ComputedGenCore

/// Hover (`textDocument/hover`) over a member's name anywhere in the spec: its declaration, its
/// doc comment, what it reads and what reads it, and how the generated code keeps it up to date.
public enum HoverFeature {
    /// The hover of the member named at `offset`, or of the attribute there; `nil` elsewhere.
    /// Markdown when the client reads it, plain text otherwise.
    public static func hover(in document: SpecDocument, at offset: Int, markdown asMarkdown: Bool) -> JSONValue? {
        if let occurrence = document.index.occurrence(at: offset), let member = document.index.members[occurrence.target] {
            let range = document.lines.range(from: occurrence.range.lowerBound, to: occurrence.range.upperBound)
            return ["contents": Markup.content(markdown(for: member, in: document), asMarkdown: asMarkdown), "range": range.json]
        }
        if let (text, range) = attributeHover(in: document, at: offset) {
            return ["contents": Markup.content(text, asMarkdown: asMarkdown), "range": range.json]
        }
        return nil
    }

    /// The hover text of a member.
    public static func markdown(for member: MemberSymbol, in document: SpecDocument) -> String {
        var sections = ["```swift\n" + member.signature + "\n```"]
        if let doc = member.doc { sections.append(doc.lines.joined(separator: "\n")) }
        var facts: [String] = []
        switch member.kind {
        case .field:
            facts.append(fieldStorage(member))
            facts.append(member.readers.isEmpty ? "Read by no computed value or selector." : "Read by \(list(member.readers)).")
        case .computed:
            facts.append(readsSentence(member) + (member.readers.isEmpty ? "." : "; read by \(list(member.readers))."))
            facts.append(upkeep(of: member, in: document))
        case .selector:
            facts.append(readsSentence(member) + ", memoized per argument" + cacheSentence(member) + ".")
        }
        sections.append(facts.joined(separator: "\n\n"))
        return sections.joined(separator: "\n\n---\n\n")
    }

    /// "Recomputed when `todos`, `filter` or `query` changes".
    static func readsSentence(_ member: MemberSymbol) -> String {
        let how = member.kind == .selector ? "Reevaluated" : "Recomputed"
        guard !member.inputs.isEmpty else { return "Reads no field or computed value" }
        let from = member.inputsAreExplicit ? " (its `from` list)" : ""
        return "\(how) when \(list(member.inputs, conjunction: "or")) changes\(from)"
    }

    static func cacheSentence(_ member: MemberSymbol) -> String {
        guard case .selector(let decl) = member.member, !decl.parameters.isEmpty else { return "" }
        return decl.cacheCapacity.map { " (the last \($0) arguments)" } ?? " (the last 256 arguments, the runtime's default)"
    }

    /// How a field is stored, from its attributes.
    static func fieldStorage(_ member: MemberSymbol) -> String {
        guard case .field(let decl) = member.member else { return "" }
        let names = decl.attributes.map(\.name.name)
        if names.contains("Shared") {
            return "Shared: one value for every state and store that holds it (and its storage); a change through any holder counts as a change here."
        }
        if names.contains("Edge") {
            return "An `@Edge` field: every write is a new version (`$\(member.name.name).version`), no `Equatable` needed."
        }
        return "A stored field: an assignment of an equal value is no change."
    }

    /// Whether a computed value is maintained incrementally or in full, and why.
    static func upkeep(of member: MemberSymbol, in document: SpecDocument) -> String {
        guard let state = document.checkedState(named: member.stateName), let freshness = state.freshness(ofComputed: member.name.name) else {
            return "How it is kept up to date is shown once the spec has no errors."
        }
        switch freshness.strategy {
        case .memoized:
            return "Recomputed in full, on the first read after a change: " + fullReason(member, state: state)
        case .listView, .listGroups, .listSections, .fold, .join:
            let what: String
            switch freshness.strategy {
            case .listView: what = "a `ListView`"
            case .listGroups: what = "a `ListGroups`"
            case .listSections: what = "a `ListSections`"
            case .fold(let list): what = "a fold (count, sum or reversible reduce) of `\(list)`"
            case .join: what = "a join, whose rows follow both of its sides"
            case .memoized: what = ""
            }
            if freshness.readsShared {
                return "It is \(what), but it reads a `@Shared` value, which other holders can change: "
                    + "its query is evaluated in full on each recomputation. " + freshness.summary
            }
            return freshness.summary + " It is \(what): after an edit of the list it costs the changed elements, not the whole list."
        }
    }

    /// Why a computed value is not maintained incrementally.
    static func fullReason(_ member: MemberSymbol, state: CheckedState) -> String {
        let lists = state.fields.filter { member.inputs.contains($0.name) && DerivedCollectionTypes.isIdentifiedList($0.type) }
        if lists.isEmpty {
            return "it reads no `IdentifiedList` field, so there are no list changes to follow."
        }
        return "its type is not a `ListView` and its body is not a recognised fold of `\(lists[0].name)` "
            + "(`count(where:)`, `filter { … }.count`, `sum(of:)`, `reduce(_:adding:removing:_:)`)."
    }

    /// `a`, `a` or `b`, `a`, `b` or `c` (names in code voice).
    static func list(_ names: [String], conjunction: String = "and") -> String {
        let quoted = names.map { "`\($0)`" }
        guard let last = quoted.last else { return "nothing" }
        return quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    // MARK: - Attributes

    static let attributeDocs: [String: String] = [
        "Edge": "`@Edge`: a versioned field, as in Verge. Every write is a new version (`$name.version`); no `Equatable` needed. Arguments: `assert:` (a check run on each write), `onSet:` (adjusts the new value), `middleware:` (a list of both).",
        "Shared": "`@Shared(strategy)`: one value shared by every state that holds it. Strategies: `.inMemory(\"key\")`, `.fileStorage(\"file.json\")` or `.fileStorage(url)`, `.appStorage(\"key\")` (UserDefaults). Needs a default value.",
        "NoCutoff": "`@NoCutoff`: every recomputation of this computed value counts as a change, even when the new value `==` the cached one.",
    ]

    /// The hover of the attribute name at `offset` (the `@` or the name).
    static func attributeHover(in document: SpecDocument, at offset: Int) -> (String, LSPRange)? {
        guard let index = document.tokenIndex(before: offset + 1) else { return nil }
        let tokens = document.tokens
        var at = index
        if tokens[at].kind == .identifier, at > 0 { at -= 1 }
        guard tokens[at].isPunctuation("@"), at + 1 < tokens.count, tokens[at + 1].kind == .identifier,
            tokens[at + 1].endOffset >= offset, document.index.codeSpan(at: tokens[at].location.offset) == nil,
            let text = attributeDocs[tokens[at + 1].text]
        else { return nil }
        return (text, document.lines.range(from: tokens[at].location.offset, to: tokens[at + 1].endOffset))
    }
}
