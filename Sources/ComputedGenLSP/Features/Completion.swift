import ComputedGenCore

/// Completion (`textDocument/completion`): the state's members in bodies and `from` lists, with
/// their types and doc comments; the spec's keywords; attributes and their arguments.
///
/// In Swift code that is not a member of the state (after `.`, in types and default values) the
/// list is empty: that completion is Swift's.
public enum CompletionFeature {
    /// LSP `CompletionItemKind`s.
    enum Kind {
        static let function = 3
        static let field = 5
        static let variable = 6
        static let property = 10
        static let enumMember = 20
        static let keyword = 14
        static let snippet = 15
    }

    /// One candidate before it becomes JSON.
    struct Candidate {
        var label: String
        var kind: Int
        var detail: String?
        var documentation: String?
        /// The text inserted, as a snippet (`$1`) or plain text.
        var snippet: String?
        var plain: String?
        /// Whether the item replaces the `@` or `.` typed just before the word.
        var replacesPunctuation = false
    }

    /// The completion items at `offset`, with snippets and Markdown documentation when the
    /// client reads them.
    public static func items(in document: SpecDocument, at offset: Int, formats: ClientFormats) -> JSONValue {
        let snippets = formats.snippets
        let (context, wordStart) = CompletionContext.at(offset, in: document)
        let candidates = self.candidates(for: context, in: document)
        let cursor = min(max(offset, wordStart), document.lines.bytes.count)
        let bytes = document.lines.bytes
        let punctuationStart = wordStart > 0 && (bytes[wordStart - 1] == UInt8(ascii: "@") || bytes[wordStart - 1] == UInt8(ascii: ".")) ? wordStart - 1 : wordStart
        return .array(candidates.enumerated().map { position, candidate in
            var item: [String: JSONValue] = ["label": .string(candidate.label), "kind": .int(candidate.kind)]
            if let detail = candidate.detail { item["detail"] = .string(detail) }
            if let documentation = candidate.documentation { item["documentation"] = Markup.content(documentation, asMarkdown: formats.completionMarkdown) }
            let text = snippets ? candidate.snippet ?? candidate.plain ?? candidate.label : candidate.plain ?? candidate.label
            let start = candidate.replacesPunctuation ? punctuationStart : wordStart
            item["textEdit"] = ["range": document.lines.range(from: start, to: cursor).json, "newText": .string(text)]
            // The filter text matches what the edit's range holds: the label, without its `@` or
            // `.` when none was typed.
            let typedPunctuation = start < wordStart
            item["filterText"] = .string(candidate.replacesPunctuation && !typedPunctuation ? String(candidate.label.drop { $0 == "@" || $0 == "." }) : candidate.label)
            if snippets, candidate.snippet != nil { item["insertTextFormat"] = 2 }
            item["sortText"] = .string(String(repeating: "0", count: max(0, 5 - String(position).count)) + String(position))
            return .object(item)
        })
    }

    static func candidates(for context: CompletionContext, in document: SpecDocument) -> [Candidate] {
        let index = document.index
        switch context {
        case .swiftCode:
            return []
        case .body(let state, let id):
            var result: [Candidate] = []
            if let id, let owner = index.members[id], case .selector(let decl) = owner.member {
                result += decl.parameters.map { parameter in
                    Candidate(label: parameter.name.name, kind: Kind.variable, detail: parameter.type?.text,
                              documentation: "Parameter of selector `\(owner.displayName)`.")
                }
            }
            return result + index.inputCandidates(ofState: state).filter { $0.id != id }.map(memberCandidate)
        case .fromList(let state):
            return index.inputCandidates(ofState: state).map(memberCandidate)
        case .attributeName(let state):
            return attributeCandidates(inState: state != nil)
        case .edgeArgument:
            return [
                Candidate(label: "assert:", kind: Kind.keyword, detail: "(Value) -> Bool", documentation: "Checked on every write (in debug builds).",
                          snippet: "assert: { ${1:\\$0 >= 0} }", plain: "assert: "),
                Candidate(label: "onSet:", kind: Kind.keyword, detail: "(inout Value) -> Void", documentation: "Adjusts each new value before it is stored.",
                          snippet: "onSet: { ${1:\\$0 = \\$0} }", plain: "onSet: "),
                Candidate(label: "middleware:", kind: Kind.keyword, detail: "[EdgeMiddleware<Value>]", documentation: "A list of `assert` and `onSet` steps, applied in order.",
                          snippet: "middleware: [$1]", plain: "middleware: "),
            ]
        case .sharedStrategy:
            return [
                Candidate(label: ".inMemory", kind: Kind.enumMember, detail: "(String) -> SharedStrategy", documentation: "Shared in memory under a key, for the life of the process.",
                          snippet: ".inMemory(\"${1:key}\")", plain: ".inMemory(\"key\")", replacesPunctuation: true),
                Candidate(label: ".fileStorage", kind: Kind.enumMember, detail: "(String or URL) -> SharedStrategy",
                          documentation: "Saved as JSON to a file (atomic writes; a corrupt file is kept aside and reported). A relative path is in the app's Application Support directory.",
                          snippet: ".fileStorage(\"${1:file.json}\")", plain: ".fileStorage(\"file.json\")", replacesPunctuation: true),
                Candidate(label: ".appStorage", kind: Kind.enumMember, detail: "(String) -> SharedStrategy", documentation: "Stored in `UserDefaults` under a key.",
                          snippet: ".appStorage(\"${1:key}\")", plain: ".appStorage(\"key\")", replacesPunctuation: true),
            ]
        case .memberClause(let isSelector):
            var result = [Candidate(label: "from", kind: Kind.keyword, documentation: "Names the inputs instead of inferring them from the body: `from a, b`.")]
            if isSelector {
                result.append(Candidate(label: "cache", kind: Kind.keyword, documentation: "The per-argument cache capacity: `cache 16` (default 256)."))
            }
            return result
        case .memberStart:
            return [
                Candidate(label: "var", kind: Kind.keyword, documentation: "A stored field: `var name: Type = default`.", snippet: "var ${1:name}: ${2:Type} = ${3:value}"),
                Candidate(label: "computed", kind: Kind.keyword, documentation: "A memoized derived value: `computed name: Type { body }`.",
                          snippet: "computed ${1:name}: ${2:Type} {\n\t$0\n}"),
                Candidate(label: "selector", kind: Kind.keyword, documentation: "A memoized function of the state: `selector name(_ arg: T) -> Type { body }`.",
                          snippet: "selector ${1:name}(${2:_ arg: Int}) -> ${3:Type} {\n\t$0\n}"),
            ] + attributeCandidates(inState: true)
        case .topLevel:
            return [
                Candidate(label: "state", kind: Kind.keyword, documentation: "Declares a state: `state Name { members }`.", snippet: "state ${1:Name} {\n\t$0\n}"),
                Candidate(label: "import", kind: Kind.keyword, documentation: "An import copied into the generated file.", snippet: "import ${1:Foundation}"),
                Candidate(label: "public", kind: Kind.keyword, documentation: "Makes the generated state and its API public."),
            ]
        }
    }

    static func memberCandidate(_ member: MemberSymbol) -> Candidate {
        var documentation = [String]()
        if let doc = member.doc { documentation.append(doc.lines.joined(separator: "\n")) }
        documentation.append("```swift\n" + member.signature + "\n```")
        return Candidate(
            label: member.name.name,
            kind: member.kind == .field ? Kind.field : Kind.property,
            detail: member.type,
            documentation: documentation.joined(separator: "\n\n"),
            plain: member.name.isEscaped ? "`\(member.name.name)`" : member.name.name
        )
    }

    static func attributeCandidates(inState: Bool) -> [Candidate] {
        guard inState else { return [] }
        return [
            Candidate(label: "@Edge", kind: Kind.keyword, detail: "versioned field", documentation: HoverFeature.attributeDocs["Edge"],
                      plain: "@Edge", replacesPunctuation: true),
            Candidate(label: "@Edge(assert:)", kind: Kind.snippet, detail: "versioned field with a check", documentation: HoverFeature.attributeDocs["Edge"],
                      snippet: "@Edge(assert: { ${1:\\$0 >= 0} })", plain: "@Edge(assert: { $0 >= 0 })", replacesPunctuation: true),
            Candidate(label: "@Edge(onSet:)", kind: Kind.snippet, detail: "versioned field that adjusts each value", documentation: HoverFeature.attributeDocs["Edge"],
                      snippet: "@Edge(onSet: { ${1:\\$0 = min(\\$0, 99)} })", plain: "@Edge(onSet: { $0 = min($0, 99) })", replacesPunctuation: true),
            Candidate(label: "@Shared(.inMemory)", kind: Kind.snippet, detail: "shared in memory", documentation: HoverFeature.attributeDocs["Shared"],
                      snippet: "@Shared(.inMemory(\"${1:key}\"))", plain: "@Shared(.inMemory(\"key\"))", replacesPunctuation: true),
            Candidate(label: "@Shared(.fileStorage)", kind: Kind.snippet, detail: "shared, saved to a file", documentation: HoverFeature.attributeDocs["Shared"],
                      snippet: "@Shared(.fileStorage(\"${1:file.json}\"))", plain: "@Shared(.fileStorage(\"file.json\"))", replacesPunctuation: true),
            Candidate(label: "@Shared(.appStorage)", kind: Kind.snippet, detail: "shared, in UserDefaults", documentation: HoverFeature.attributeDocs["Shared"],
                      snippet: "@Shared(.appStorage(\"${1:key}\"))", plain: "@Shared(.appStorage(\"key\"))", replacesPunctuation: true),
            Candidate(label: "@NoCutoff", kind: Kind.keyword, detail: "computed values", documentation: HoverFeature.attributeDocs["NoCutoff"],
                      plain: "@NoCutoff", replacesPunctuation: true),
        ]
    }
}
