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

    /// A context that knows the given states hold `@Shared` values.
    public init(sharedHolders: Set<String> = []) {
        self.sharedHolders = sharedHolders
    }

    /// The context of a target's specs: each parsed and checked, and their nesting worked out over
    /// all of them together. A spec that does not check contributes nothing (its own command
    /// reports its errors).
    ///
    /// - Complexity: one parse and check per spec.
    public init(specs: [(source: String, path: String)]) {
        var states: [CheckedState] = []
        for spec in specs {
            let parsed = SpecParser.parse(source: spec.source, path: spec.path)
            if let checked = SpecChecker.check(parsed.file, incompleteMembers: parsed.incompleteMembers).spec {
                states += checked.states
            }
        }
        self.init(sharedHolders: NestedShared.holders(of: states))
    }
}
