/// A spec that passed every check: what the emitter consumes.
public struct CheckedSpec: Hashable, Sendable {
    /// The syntax tree the checks ran over.
    public var file: SpecFile
    /// One checked state per declared state, in source order.
    public var states: [CheckedState]

    /// Creates a checked spec.
    public init(file: SpecFile, states: [CheckedState]) {
        self.file = file
        self.states = states
    }
}

/// What a computed or selector reads: a field or another computed of the same state.
public enum Input: Hashable, Sendable {
    case field(String)
    case computed(String)

    /// The name of the field or computed.
    public var name: String {
        switch self {
        case .field(let name), .computed(let name): name
        }
    }
}

/// How a field is stored.
public enum FieldKind: Hashable, Sendable {
    /// A plain stored value with a version stamp.
    case plain
    /// `@Edge`, with its middleware arguments verbatim (`assert:`, `onSet:`, `middleware:`).
    case edge(arguments: [Attribute.Argument])
    /// `@Shared(strategy)`, with the strategy expression verbatim, e.g. `.inMemory("session")`.
    case shared(strategy: SourceText)
}

/// A field that passed the checks.
public struct CheckedField: Hashable, Sendable {
    /// The declaration.
    public var decl: FieldDecl
    /// How the field is stored.
    public var kind: FieldKind
    /// The field's type (present: a missing type is an error).
    public var type: String
    /// The computeds that must be invalidated when this field is written, transitively, in
    /// topological order (a computed comes after every computed it reads).
    public var dependents: [String]
    /// Whether the field holds a nested generated state with `@Shared` values (see
    /// `NestedShared`): computed values over it also key their cache on those values' versions,
    /// since other holders can change them without writing the field.
    public var holdsNestedShared = false

    /// Creates a checked field.
    public init(decl: FieldDecl, kind: FieldKind, type: String, dependents: [String]) {
        self.decl = decl
        self.kind = kind
        self.type = type
        self.dependents = dependents
    }

    /// The field's name.
    public var name: String { decl.name.name }

    /// Whether the field is `@Edge`.
    public var isEdge: Bool {
        if case .edge = kind { return true }
        return false
    }

    /// Whether the field is `@Shared`.
    public var isShared: Bool {
        if case .shared = kind { return true }
        return false
    }
}

/// A computed that passed the checks.
public struct CheckedComputed: Hashable, Sendable {
    /// The declaration.
    public var decl: ComputedDecl
    /// The value's type.
    public var type: String
    /// What the body reads, in the order of the body function's parameters: explicit inputs in
    /// the order written, inferred inputs in order of first appearance.
    public var inputs: [Input]
    /// Whether `inputs` came from a `from` clause.
    public var inputsAreExplicit: Bool
    /// For field inputs read only through members (`shelf.computed.total`), the member paths
    /// (`"computed.total"`): the value depends on those members' versions, not the whole field's.
    public var memberPaths: [String: [String]]

    /// Creates a checked computed.
    public init(decl: ComputedDecl, type: String, inputs: [Input], inputsAreExplicit: Bool, memberPaths: [String: [String]] = [:]) {
        self.decl = decl
        self.type = type
        self.inputs = inputs
        self.inputsAreExplicit = inputsAreExplicit
        self.memberPaths = memberPaths
    }

    /// The computed's name.
    public var name: String { decl.name.name }
}

/// A selector that passed the checks.
public struct CheckedSelector: Hashable, Sendable {
    /// The declaration.
    public var decl: SelectorDecl
    /// The return type.
    public var returnType: String
    /// What the body reads besides its parameters, in the body function's parameter order.
    public var inputs: [Input]
    /// Whether `inputs` came from a `from` clause.
    public var inputsAreExplicit: Bool

    /// Creates a checked selector.
    public init(decl: SelectorDecl, returnType: String, inputs: [Input], inputsAreExplicit: Bool) {
        self.decl = decl
        self.returnType = returnType
        self.inputs = inputs
        self.inputsAreExplicit = inputsAreExplicit
    }

    /// The selector's base name.
    public var name: String { decl.name.name }
}

/// A state that passed the checks.
public struct CheckedState: Hashable, Sendable {
    /// The declaration.
    public var decl: StateDecl
    /// The fields in source order.
    public var fields: [CheckedField]
    /// The computeds in topological order: each after every computed it reads (ties keep
    /// source order).
    public var computeds: [CheckedComputed]
    /// The selectors in source order.
    public var selectors: [CheckedSelector]

    /// Creates a checked state.
    public init(decl: StateDecl, fields: [CheckedField], computeds: [CheckedComputed], selectors: [CheckedSelector]) {
        self.decl = decl
        self.fields = fields
        self.computeds = computeds
        self.selectors = selectors
    }

    /// The type name.
    public var name: String { decl.name.name }

    /// Whether the spec lists `conformance` after the state's name.
    public func conforms(to conformance: String) -> Bool {
        decl.conformances.contains { $0.name == conformance }
    }
}
