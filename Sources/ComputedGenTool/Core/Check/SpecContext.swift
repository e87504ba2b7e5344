/// What the generator knows of the other spec files of the target while it generates one spec.
///
/// Each spec is generated on its own (one build command per spec), but a state can nest a state
/// of another spec file. When that state holds `@Shared` values, which other holders change
/// without a write to the parent's field, the parent's values over it must key their caches on
/// those values' versions (see `NestedShared`). The plugin therefore hands every spec the others
/// of its target (`ComputedGenTool generate … --context <spec>`), and the generator works out
/// which of their states hold `@Shared` values.
public struct SpecContext: Sendable, Equatable {
    /// The states, declared in the context's specs, that hold `@Shared` values, themselves or
    /// through the states nested in them (in any of the specs).
    public var sharedHolders: Set<String>
    /// The shape of each state the context's specs declare, by its generated name: what a
    /// Swift-form spec that nests one of them needs to read through it (see ``SwiftFormLowering``).
    public var states: [String: StateShape]

    /// A context that knows the given states hold `@Shared` values, and the given states' shapes.
    public init(sharedHolders: Set<String> = [], states: [String: StateShape] = [:]) {
        self.sharedHolders = sharedHolders
        self.states = states
    }

    /// The context of a target's specs: each parsed and checked, and their nesting worked out over
    /// all of them together. A spec that does not check contributes nothing (its own command
    /// reports its errors).
    ///
    /// - Complexity: one parse and check per spec, and a second parse of each Swift-form spec
    ///   (whose types name other specs' states by their plain names until all names are known).
    public init(specs: [(source: String, path: String)]) {
        let parsed = specs.map { SpecParser.parse(source: $0.source, path: $0.path) }
        let names = Set(parsed.flatMap { $0.file.states.map(\.name.name) })
        var shapes: [String: StateShape] = [:]
        for state in parsed.flatMap(\.file.states) {
            shapes[state.name.name] = StateShape(of: state, renaming: names)
        }
        let lowering = SpecContext(states: shapes)
        var states: [CheckedState] = []
        for (spec, first) in zip(specs, parsed) {
            let result = SpecForm(path: spec.path) == .swift ? SpecParser.parse(source: spec.source, path: spec.path, context: lowering) : first
            if let checked = SpecChecker.check(result.file, incompleteMembers: result.incompleteMembers).spec {
                states += checked.states
            }
        }
        self.init(sharedHolders: NestedShared.holders(of: states), states: shapes)
    }
}
