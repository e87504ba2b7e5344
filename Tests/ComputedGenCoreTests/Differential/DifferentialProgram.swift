import ConcurrencyTestSupport

/// A random program for the differential test: a child state nested in a parent state, in one
/// spec file, two, or two modules, with plain, `@Edge` and `@Shared` fields, computed values on fields, on
/// other computed values and on the child's members, derived collections over an
/// `IdentifiedList` (views, a view of a view, a fold, totals and groups per key), and selectors
/// with and without parameters.
///
/// Every value is an expression of a small grammar (integers combined with `&+`, `&-`, `&*`),
/// rendered twice: as the spec's body, and as the oracle's Swift, which evaluates the same
/// expression from the stored fields alone (``DifferentialDriver``). The generated state must
/// agree with the oracle on every read, whatever was written before.
struct DifferentialProgram {
    /// An operand of an expression.
    enum Ref: Hashable {
        case field(String)
        case computed(String)
        case childField(String)
        case childComputed(String)
        case parameter
    }

    /// An integer expression.
    indirect enum Expr {
        case literal(Int)
        case ref(Ref)
        case binary(Expr, String, Expr)

        /// The operands it reads.
        var refs: [Ref] {
            switch self {
            case .literal: []
            case .ref(let ref): [ref]
            case .binary(let lhs, _, let rhs): lhs.refs + rhs.refs
            }
        }

        /// The expression as a spec body writes it.
        var spec: String {
            switch self {
            case .literal(let value): "\(value)"
            case .ref(.field(let name)), .ref(.computed(let name)): name
            case .ref(.childField(let name)): "child.\(name)"
            case .ref(.childComputed(let name)): "child.computed.\(name)"
            case .ref(.parameter): "q"
            case .binary(let lhs, let op, let rhs): "(\(lhs.spec) \(op) \(rhs.spec))"
            }
        }

        /// The expression as the oracle evaluates it from `st`, a value of the state `owner`
        /// (whose oracle is `O_<owner>`; the child's is `O_<child>`).
        func oracle(owner: String, child: String) -> String {
            switch self {
            case .literal(let value): "\(value)"
            case .ref(.field(let name)): "st.\(name)"
            case .ref(.computed(let name)): "O_\(owner).\(name)(st)"
            case .ref(.childField(let name)): "st.child.\(name)"
            case .ref(.childComputed(let name)): "O_\(child).\(name)(st.child)"
            case .ref(.parameter): "q"
            case .binary(let lhs, let op, let rhs):
                "(\(lhs.oracle(owner: owner, child: child)) \(op) \(rhs.oracle(owner: owner, child: child)))"
            }
        }
    }

    /// A computed value or a selector: its name, its body, and whether it takes the parameter `q`.
    struct Value {
        var name: String
        var body: Expr
        var takesParameter = false
    }

    /// One state: its fields by kind, its computed values and selectors.
    struct State {
        var name: String
        var plain: [String] = []
        var edge: String?
        var shared: (name: String, key: String)?
        var computeds: [Value] = []
        var selectors: [Value] = []

        var intFields: [String] {
            plain + (edge.map { [$0] } ?? []) + (shared.map { [$0.name] } ?? [])
        }
    }

    let index: Int
    var child: State
    var parent: State
    /// Whether the parent holds `items: IdentifiedList<DiffItem>` with views and a fold over it,
    /// and `tags: IdentifiedList<DiffTag>` with joins of the items with them.
    var hasList: Bool
    /// The threshold of the list's filter.
    var threshold: Int
    /// Where the child is declared, relative to the parent.
    enum Placement {
        /// Both states in one spec file.
        case oneFile
        /// Each in a spec file of its own, in one module (each file the other's context).
        case twoFiles
        /// The child, `public`, in a module of its own (`DiffChildren`), which the parent imports.
        case twoModules
    }

    /// The module the children of other-module programs are compiled into.
    static let childModule = "DiffChildren"

    var placement: Placement

    init(index: Int, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        self.index = index
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
        func literal() -> Int { Int.random(in: -9...9, using: &generator) }

        var child = State(name: "D\(index)Child")
        child.plain = (0..<Int.random(in: 1...3, using: &generator)).map { "a\($0)" }
        if chance(50) { child.edge = "e" }
        if chance(75) { child.shared = ("s", "diff.\(index).s") }
        var parent = State(name: "D\(index)Parent")
        parent.plain = (0..<Int.random(in: 1...2, using: &generator)).map { "b\($0)" }
        if chance(40) { parent.shared = ("t", "diff.\(index).t") }

        /// A random expression over `operands`, at most `depth` operators deep.
        func expression(_ operands: [Ref], depth: Int) -> Expr {
            if depth == 0 || chance(30) {
                return operands.isEmpty || chance(15) ? .literal(literal()) : .ref(operands.randomElement(using: &generator)!)
            }
            let op = ["&+", "&-", "&*"].randomElement(using: &generator)!
            // `&*` by a literal keeps values readable; by an operand it is still exact.
            let rhs = op == "&*" && chance(70) ? Expr.literal(literal()) : expression(operands, depth: depth - 1)
            return .binary(expression(operands, depth: depth - 1), op, rhs)
        }

        /// An expression that reads at least one operand: a computed value has inputs.
        func reading(_ operands: [Ref]) -> Expr {
            let body = expression(operands, depth: 2)
            return body.refs.isEmpty ? .binary(body, "&+", .ref(operands.randomElement(using: &generator)!)) : body
        }

        // The child's values: over its fields and its earlier values.
        for number in 0..<Int.random(in: 1...3, using: &generator) {
            let operands = child.intFields.map(Ref.field) + child.computeds.map { .computed($0.name) }
            child.computeds.append(Value(name: "c\(number)", body: reading(operands)))
        }
        if chance(60) {
            let operands = child.intFields.map(Ref.field) + child.computeds.map { .computed($0.name) } + [.parameter]
            child.selectors.append(Value(name: "cs0", body: .binary(.ref(.parameter), "&+", expression(operands, depth: 2)), takesParameter: true))
        }

        // Every placement in any three programs in a row.
        let placement = [Placement.oneFile, .twoFiles, .twoModules][index % 3]
        // The parent's values: over its fields, the child's fields and values, its earlier values.
        let childOperands = child.intFields.map(Ref.childField) + child.computeds.map { .childComputed($0.name) }
        // The limit the spec language doc states: another module's state read by its @Shared
        // field's path only is not followed by computed values (the generator cannot see that
        // module); read through `.computed` it is. Selectors key on the stamps at run time.
        let computedChildOperands = placement == .twoModules
            ? childOperands.filter { $0 != .childField(child.shared?.name ?? "") }
            : childOperands
        for number in 0..<Int.random(in: 1...3, using: &generator) {
            let operands = parent.intFields.map(Ref.field) + computedChildOperands + parent.computeds.map { .computed($0.name) }
            parent.computeds.append(Value(name: "p\(number)", body: reading(operands)))
        }
        // Selectors over the child's values (the class of stale reads the test was written for),
        // with a parameter and without.
        let selectorOperands = parent.intFields.map(Ref.field) + childOperands + parent.computeds.map { .computed($0.name) }
        parent.selectors.append(Value(
            name: "ps0",
            body: .binary(.binary(.ref(.parameter), "&*", .literal(3)), "&+", expression(selectorOperands, depth: 2)),
            takesParameter: true
        ))
        if chance(60) {
            parent.selectors.append(Value(name: "ps1", body: expression(selectorOperands, depth: 2)))
        }
        self.child = child
        self.parent = parent
        hasList = chance(50)
        threshold = Int.random(in: 0...20, using: &generator)
        self.placement = placement
    }

    // MARK: The specs

    /// The spec files, with the module each belongs to: the child's and the parent's, or both in
    /// one.
    var specs: [(name: String, text: String, module: String)] {
        switch placement {
        case .oneFile:
            let text = Self.spec(of: child, extra: []) + "\n" + Self.spec(of: parent, extra: parentExtras)
            return [("D\(index).statespec", text, "Differential")]
        case .twoFiles:
            return [
                ("D\(index)Child.statespec", Self.spec(of: child, extra: []), "Differential"),
                ("D\(index)Parent.statespec", Self.spec(of: parent, extra: parentExtras), "Differential"),
            ]
        case .twoModules:
            return [
                ("D\(index)Child.statespec", Self.spec(of: child, extra: [], access: "public "), Self.childModule),
                ("D\(index)Parent.statespec", "import \(Self.childModule)\n\n" + Self.spec(of: parent, extra: parentExtras), "Differential"),
            ]
        }
    }

    /// The parent's child field and list members, before its own values.
    private var parentExtras: [String] {
        var lines = ["  var child: \(child.name) = \(child.name)()"]
        if hasList {
            lines += [
                "  var items: IdentifiedList<DiffItem> = []",
                "  computed big: ListView<DiffItem> { items.filter { $0.v > \(threshold) } }",
                "  computed bigCount: Int { items.count(where: { $0.v > \(threshold) }) }",
                "  computed ordered: ListView<DiffItem> { items.sorted(by: { ($0.v, $0.id) < ($1.v, $1.id) }) }",
                "  computed bigOrdered: ListView<DiffItem> { big.sorted(by: { ($0.v, $0.id) > ($1.v, $1.id) }) }",
                "  computed perKey: KeyedTotals<Int, Int> { items.count(by: \\.k) }",
                "  computed groups: ListGroups<Int, DiffItem> { items.sorted(by: { ($0.v, $0.id) < ($1.v, $1.id) }).grouped(by: \\.k) }",
                // Joins: the items with the tag their key refers to, followed on both sides.
                "  var tags: IdentifiedList<DiffTag> = []",
                "  computed tagged: IdentifiedList<DiffRow> { items.join(tags, on: \\.k) { DiffRow(item: $0, tag: $1) } }",
                "  computed allTagged: IdentifiedList<DiffRow> { items.leftJoin(tags, on: \\.k) { DiffRow(item: $0, tag: $1) } }",
                "  computed taggedOrdered: ListView<DiffRow> { tagged.sorted(by: { ($0.label, $0.id) < ($1.label, $1.id) }) }",
                "  computed taggedCount: Int { tagged.count(where: { $0.label > 2 }) }",
            ]
        }
        return lines
    }

    private static func spec(of state: State, extra: [String], access: String = "") -> String {
        var lines = ["\(access)state \(state.name): Equatable, Codable {"]
        lines += extra
        lines += state.plain.map { "  var \($0): Int = 0" }
        // Edge middleware: writes above 10 are clamped (the oracle reads the stored, clamped value).
        if let edge = state.edge { lines.append("  @Edge(onSet: { $0 = min($0, 10) }) var \(edge): Int = 0") }
        if let shared = state.shared { lines.append("  @Shared(.inMemory(\"\(shared.key)\")) var \(shared.name): Int = 0") }
        lines += state.computeds.map { "  computed \($0.name): Int { \($0.body.spec) }" }
        lines += state.selectors.map { value in
            value.takesParameter
                ? "  selector \(value.name)(_ q: Int) -> Int { \(value.body.spec) }"
                : "  selector \(value.name)() -> Int { \(value.body.spec) }"
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The program as a reader sees it, for a failure's report.
    var description: String {
        specs.map { "// \($0.name)\n\($0.text)" }.joined(separator: "\n")
    }
}
