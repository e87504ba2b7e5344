import ComputedGenCore

/// Identifies a member of a spec: the index of its state and its index among the state's members.
public struct MemberID: Hashable, Sendable {
    /// The index of the state in ``SpecFile/states``.
    public var state: Int
    /// The index of the member in ``StateDecl/members``.
    public var member: Int
}

/// A member of a spec as the editor features see it: where it is declared, what it reads and
/// what reads it.
///
/// Built from the syntax tree, so it exists while the spec has errors (mid-edit). Inputs follow
/// the checker's rule exactly: the `from` list, or the fields and computed values the body names
/// (a selector's parameters shadow them), each once, in order of first appearance; a name resolves
/// to the first field or computed value declared with it.
public struct MemberSymbol: Hashable, Sendable {
    /// The kinds of members.
    public enum Kind: String, Hashable, Sendable {
        case field
        case computed
        case selector
    }

    /// Which member this is.
    public var id: MemberID
    /// The member's kind.
    public var kind: Kind
    /// The declaration as parsed.
    public var member: Member
    /// The name of the state that declares the member.
    public var stateName: String
    /// The member's name as written.
    public var name: Identifier
    /// The byte range of the name (backticks included).
    public var nameRange: Range<Int>
    /// The byte range of the whole declaration, from its first attribute or keyword to its end.
    public var range: Range<Int>
    /// The fields and computed values the member reads (none for a field).
    public var inputs: [String]
    /// The computed values and selectors that read the member directly, by display name.
    public var readers: [String] = []

    /// The member's doc comment.
    public var doc: DocComment? {
        switch member {
        case .field(let decl): decl.doc
        case .computed(let decl): decl.doc
        case .selector(let decl): decl.doc
        }
    }

    /// The member's type: a field's or computed value's type, a selector's return type.
    public var type: String? {
        switch member {
        case .field(let decl): decl.type?.text
        case .computed(let decl): decl.type?.text
        case .selector(let decl): decl.returnType?.text
        }
    }

    /// Whether the inputs are the member's `from` list rather than inferred from its body.
    public var inputsAreExplicit: Bool {
        switch member {
        case .field: false
        case .computed(let decl): decl.explicitInputs != nil
        case .selector(let decl): decl.explicitInputs != nil
        }
    }

    /// The name callers see: `todos(ownedBy:)` for a selector with parameters, the name otherwise.
    public var displayName: String {
        guard case .selector(let decl) = member, !decl.parameters.isEmpty else { return name.name }
        return name.name + "(" + decl.parameters.map { $0.callLabel + ":" }.joined() + ")"
    }

    /// The body, for computed values and selectors that have one.
    public var body: Body? {
        switch member {
        case .field: nil
        case .computed(let decl): decl.body.openBrace == decl.name.location ? nil : decl.body
        case .selector(let decl): decl.body.openBrace == decl.name.location ? nil : decl.body
        }
    }

    /// The declaration's first line as Swift-like spec text, e.g. `computed visibleCount: Int`.
    public var signature: String {
        switch member {
        case .field(let decl):
            let attributes = decl.attributes.map { attribute in
                "@" + attribute.name.name + (attribute.arguments.map { "(" + $0.map(Self.argumentText).joined(separator: ", ") + ")" } ?? "")
            }
            let type = decl.type.map { ": " + $0.text } ?? ""
            let value = decl.defaultValue.map { " = " + $0.text } ?? ""
            return (attributes + ["var " + decl.name.name + type + value]).joined(separator: " ")
        case .computed(let decl):
            let from = decl.explicitInputs.map { " from " + $0.map(\.name).joined(separator: ", ") } ?? ""
            return "computed " + decl.name.name + (decl.type.map { ": " + $0.text } ?? "") + from
        case .selector(let decl):
            let parameters = decl.parameters.map { parameter in
                (parameter.label.map { $0.name + " " } ?? "") + parameter.name.name + (parameter.type.map { ": " + $0.text } ?? "")
            }
            let result = decl.returnType.map { " -> " + $0.text } ?? ""
            return "selector " + decl.name.name + "(" + parameters.joined(separator: ", ") + ")" + result
        }
    }

    private static func argumentText(_ argument: Attribute.Argument) -> String {
        (argument.label.map { $0.name + ": " } ?? "") + argument.value.text
    }
}

/// A place in the spec that names a member: its declaration, a `from` list entry or a reference
/// in a body.
public struct Occurrence: Hashable, Sendable {
    /// How the member is named there.
    public enum Role: Hashable, Sendable {
        case declaration
        case fromList
        case bodyReference
    }

    /// The byte range of the name (backticks included).
    public var range: Range<Int>
    /// The member named.
    public var target: MemberID
    /// How it is named.
    public var role: Role
}

/// Where Swift code sits in a spec: bodies, default values, types and attribute arguments.
public struct CodeSpan: Hashable, Sendable {
    /// What the code is.
    public enum Kind: Hashable, Sendable {
        /// The body of a computed value or selector.
        case body(MemberID)
        /// A field's default value.
        case defaultValue
        /// A type (of a field, computed value, selector or parameter).
        case type
        /// The arguments of an attribute.
        case attributeArgument
    }

    /// The byte range of the code.
    public var range: Range<Int>
    /// What the code is.
    public var kind: Kind
}

/// The members of a spec, the places that name them and where its Swift code is.
public struct SpecIndex: Sendable {
    /// The syntax tree the index was built from.
    public let file: SpecFile
    /// Every member, by id.
    public internal(set) var members: [MemberID: MemberSymbol] = [:]
    /// The members of each state, in source order.
    public internal(set) var membersByState: [[MemberID]] = []
    /// Every occurrence of a member name, sorted by position.
    public internal(set) var occurrences: [Occurrence] = []
    /// The Swift code spans, sorted by position.
    public internal(set) var codeSpans: [CodeSpan] = []
    /// Each state's byte range, from its first keyword to its closing `}`.
    public internal(set) var stateRanges: [Range<Int>] = []

    /// Indexes `file`.
    public init(file: SpecFile) {
        self.file = file
        for (stateIndex, state) in file.states.enumerated() {
            index(state, at: stateIndex)
        }
        occurrences.sort { $0.range.lowerBound < $1.range.lowerBound }
        codeSpans.sort { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The occurrence whose name contains `offset` (or ends right at it, where a cursor after
    /// the last letter of a name still points at that name).
    public func occurrence(at offset: Int) -> Occurrence? {
        let candidates = occurrences.lazy.filter { $0.range.contains(offset) || $0.range.upperBound == offset }
        return candidates.first { $0.range.contains(offset) } ?? candidates.first
    }

    /// Every occurrence of `member`, in source order.
    public func occurrences(of member: MemberID) -> [Occurrence] {
        occurrences.filter { $0.target == member }
    }

    /// The Swift code span containing `offset`. A cursor right after a body's last character
    /// (before its `}`) is in the body; right after a type or value, it is not.
    public func codeSpan(at offset: Int) -> CodeSpan? {
        codeSpans.last { span in
            guard case .body = span.kind else { return span.range.contains(offset) }
            return span.range.lowerBound <= offset && offset <= span.range.upperBound
        }
    }

    /// The index of the state whose braces contain `offset`.
    public func state(at offset: Int) -> Int? {
        stateRanges.firstIndex { $0.contains(offset) }
    }

    /// The fields and computed values of a state, each name once (the first declaration).
    public func inputCandidates(ofState state: Int) -> [MemberSymbol] {
        var seen: Set<String> = []
        return membersByState[state].compactMap { members[$0] }
            .filter { $0.kind != .selector && seen.insert($0.name.name).inserted }
    }

    /// The byte length of an identifier as written.
    static func length(of name: Identifier) -> Int {
        name.name.utf8.count + (name.isEscaped ? 2 : 0)
    }

    static func range(of name: Identifier) -> Range<Int> {
        name.location.offset..<(name.location.offset + length(of: name))
    }

    static func range(of text: SourceText) -> Range<Int> {
        text.location.offset..<(text.location.offset + text.text.utf8.count)
    }
}
