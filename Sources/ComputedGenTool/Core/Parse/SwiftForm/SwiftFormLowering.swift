/// Turns a Swift-form ``SpecFile`` into the spec language's terms, so that the checks and emitters
/// read one model.
///
/// The Swift form is written against the plain types, the spec language against the generated
/// ones. Two things differ:
/// - **Type names.** A plain state's type is `ShelfSpec`, the generated one `Shelf`: every
///   `…Spec` that names a state (of this file or of the target's other specs) is renamed, in
///   types, default values, attribute arguments and bodies.
/// - **Nested states' computed values.** A plain parent reads its child's computed value as
///   `shelf.total`; the generated parent reads `shelf.computed.total`. In bodies, a path that
///   starts at a field holding a state and reaches a computed value of that state gets
///   `.computed` before the value, at any depth (`library.shelf.total` →
///   `library.shelf.computed.total`).
///
/// Lines are kept, so `#sourceLocation` still points at the line the user wrote; a column on a
/// line that was rewritten may be off by the length of what was inserted.
public enum SwiftFormLowering {
    /// Lowers every state of `file`; `context` knows the states of the target's other specs.
    public static func lower(_ file: SpecFile, context: SpecContext) -> SpecFile {
        var known = context.states
        for state in file.states {
            known[state.name.name] = StateShape(of: state, renaming: Set(file.states.map(\.name.name)).union(context.states.keys))
        }
        let renamer = Renamer(stateNames: Set(known.keys))
        var file = file
        for stateIndex in file.states.indices {
            let shape = known[file.states[stateIndex].name.name] ?? StateShape()
            for memberIndex in file.states[stateIndex].members.indices {
                file.states[stateIndex].members[memberIndex] = lower(
                    file.states[stateIndex].members[memberIndex], in: shape, known: known, renamer: renamer
                )
            }
        }
        return file
    }

    private static func lower(_ member: Member, in shape: StateShape, known: [String: StateShape], renamer: Renamer) -> Member {
        switch member {
        case .field(var decl):
            decl.type = decl.type.map(renamer.rename)
            decl.defaultValue = decl.defaultValue.map(renamer.rename)
            for index in decl.attributes.indices {
                decl.attributes[index].arguments = decl.attributes[index].arguments?.map {
                    Attribute.Argument(label: $0.label, value: renamer.rename($0.value))
                }
            }
            return .field(decl)
        case .computed(var decl):
            decl.type = decl.type.map(renamer.rename)
            decl.body.text = readThroughComputed(withoutSelf(renamer.rename(decl.body.text), members: shape.members), in: shape, known: known)
            return .computed(decl)
        case .selector(var decl):
            decl.returnType = decl.returnType.map(renamer.rename)
            for index in decl.parameters.indices {
                decl.parameters[index].type = decl.parameters[index].type.map(renamer.rename)
            }
            decl.body.text = readThroughComputed(withoutSelf(renamer.rename(decl.body.text), members: shape.members), in: shape, known: known)
            return .selector(decl)
        }
    }

    /// `body` with each `self.` before one of the state's fields or computed values blanked out
    /// (`self.items` reads `     items`, so every column stays where it was written): the plain
    /// type is a struct, where `self.items` is ordinary Swift, and the generated body is a function
    /// of its inputs, which reads `items`. A `self` used otherwise (passed whole, captured) is kept,
    /// and reported as in the spec language.
    static func withoutSelf(_ body: String, members: Set<String>) -> String {
        guard body.contains("self") else { return body }
        var edits = TextEdits()
        for run in Renamer.tokenRuns(of: body) {
            for index in run.indices where run[index].isWord("self") && index + 2 < run.count {
                let isMemberPath = index == 0 || !run[index - 1].isPunctuation(".")
                guard isMemberPath, run[index + 1].isPunctuation("."), run[index + 2].kind == .identifier,
                      members.contains(run[index + 2].text) else { continue }
                edits.replace(run[index].location.offset..<run[index + 1].endOffset, with: "     ")
            }
        }
        return edits.apply(to: body)
    }

    /// `body` with `.computed` inserted before each nested state's computed value it reads.
    static func readThroughComputed(_ body: String, in shape: StateShape, known: [String: StateShape]) -> String {
        guard !shape.nestedFields.isEmpty else { return body }
        var edits = TextEdits()
        for run in Renamer.tokenRuns(of: body) {
            for (index, token) in run.enumerated() where token.kind == .identifier {
                guard startsPath(at: index, in: run), var type = shape.nestedFields[token.text] else { continue }
                var look = index
                while look + 2 < run.count, run[look + 1].isPunctuation("."), run[look + 2].kind == .identifier,
                      let child = known[type] {
                    let member = run[look + 2]
                    if child.computedValues.contains(member.text) {
                        edits.insert("computed.", at: member.location.offset)
                        break
                    }
                    guard let next = child.nestedFields[member.text] else { break }
                    type = next
                    look += 2
                }
            }
        }
        return edits.apply(to: body)
    }

    /// Whether the identifier at `index` starts a member path of the state: not after a `.`
    /// (unless after `self.`), and not an argument label.
    private static func startsPath(at index: Int, in run: [Token]) -> Bool {
        guard index > 0, run[index - 1].isPunctuation(".") else { return true }
        return index >= 2 && run[index - 2].isWord("self") && (index < 3 || !run[index - 3].isPunctuation("."))
    }
}

/// What a body needs to know of a state to read through it: which fields hold states, and which
/// members are computed values.
public struct StateShape: Hashable, Sendable {
    /// The fields whose type is a state, and that state's name.
    public var nestedFields: [String: String] = [:]
    /// The names of the computed values.
    public var computedValues: Set<String> = []
    /// The names of the fields and the computed values: what a body may read as `self.name`.
    public var members: Set<String> = []

    /// An empty shape.
    public init() {}

    /// The shape of `state`, whose field types may name states by their plain (`…Spec`) names;
    /// `stateNames` are the names of all known states.
    init(of state: StateDecl, renaming stateNames: Set<String>) {
        let renamer = Renamer(stateNames: stateNames)
        for member in state.members {
            switch member {
            case .field(let field):
                let type = field.type.map { renamer.rename($0).text.trimmingWhitespace() } ?? ""
                if stateNames.contains(type) { nestedFields[field.name.name] = type }
                members.insert(field.name.name)
            case .computed(let computed):
                computedValues.insert(computed.name.name)
                members.insert(computed.name.name)
            case .selector:
                break
            }
        }
    }
}

/// Renames plain state types (`ShelfSpec`) to the generated ones (`Shelf`) in Swift code.
struct Renamer {
    /// The generated names of the known states.
    var stateNames: Set<String>

    func rename(_ text: SourceText) -> SourceText {
        SourceText(rename(text.text), at: text.location)
    }

    func rename(_ text: String) -> String {
        guard text.contains(SpecForm.typeSuffix) else { return text }
        var edits = TextEdits()
        for run in Self.tokenRuns(of: text) {
            for token in run where token.kind == .identifier && !token.isEscaped {
                if let state = SpecForm.stateName(forSwiftType: token.text), stateNames.contains(state) {
                    edits.replace(token.location.offset..<token.endOffset, with: Self.spelling(of: state))
                }
            }
        }
        return edits.apply(to: text)
    }

    /// `name` as Swift code spells it: in backticks when it is a keyword (`ProtocolSpec` → `` `Protocol` ``).
    static func spelling(of name: String) -> String {
        SwiftKeywords.isReserved(name) ? "`\(name)`" : name
    }

    /// The tokens of `text`, as runs that can be read in order: the top level, then the code of
    /// each string interpolation (at any depth) on its own.
    static func tokenRuns(of text: String) -> [[Token]] {
        var runs: [[Token]] = [Lexer.tokenize(text).tokens]
        var next = 0
        while next < runs.count {
            for token in runs[next] where token.kind == .string {
                runs += token.interpolations
            }
            next += 1
        }
        return runs
    }
}

/// Replacements at UTF-8 offsets of one text, applied together.
struct TextEdits {
    private var edits: [(range: Range<Int>, text: String)] = []

    mutating func replace(_ range: Range<Int>, with text: String) {
        edits.append((range, text))
    }

    mutating func insert(_ text: String, at offset: Int) {
        edits.append((offset..<offset, text))
    }

    var isEmpty: Bool { edits.isEmpty }

    /// `text` with the edits made; edits are applied from the last to the first, and an edit that
    /// overlaps one after it is dropped.
    func apply(to text: String) -> String {
        guard !edits.isEmpty else { return text }
        var bytes = Array(text.utf8)
        var limit = Int.max
        for edit in edits.sorted(by: { ($0.range.lowerBound, $0.range.upperBound) > ($1.range.lowerBound, $1.range.upperBound) }) {
            guard edit.range.upperBound <= limit else { continue }
            bytes.replaceSubrange(edit.range, with: Array(edit.text.utf8))
            limit = edit.range.lowerBound
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
