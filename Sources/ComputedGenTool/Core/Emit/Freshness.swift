/// How the generated code brings a computed value up to date after its inputs change, as the
/// emitter decides it: for tools that explain a spec (the language server's hover).
public struct Freshness: Hashable, Sendable {
    /// The kind of upkeep.
    public enum Strategy: Hashable, Sendable {
        /// Cached, and recomputed in full on the first read after an input changed.
        case memoized
        /// A `ListView` that follows the changes of the `IdentifiedList` (or the other `ListView`
        /// value) it is built from.
        case listView
        /// A `ListGroups` that follows the changes of the `IdentifiedList` it groups.
        case listGroups
        /// A `ListSections` that follows the changes of the `IdentifiedList` it groups, and sorts
        /// its sections again when only what its key order reads changed.
        case listSections
        /// A count, sum or reversible fold of an `IdentifiedList` field, updated per change.
        case fold(list: String)
        /// A join of an `IdentifiedList` with related values (`articles.join(feeds, on: …)`),
        /// whose rows are made again for the elements and related values that changed.
        case join
    }

    /// The kind of upkeep.
    public var strategy: Strategy
    /// Whether the value reads a `@Shared` field, directly or through other computed values: its
    /// cell is checked against the shared values' versions, and an incremental query is then
    /// evaluated in full on each recomputation.
    public var readsShared: Bool
    /// The `IdentifiedList` fields (or the `ListView` value a view is chained from) whose changes
    /// are followed incrementally; empty when the value is recomputed in full.
    public var followedLists: [String]
    /// For a `ListSections`, the inputs only its key order reads: after they change, its groups
    /// follow the lists and only its keys are sorted again.
    public var keyOrderInputs: [String]
    /// The other inputs, after whose change the value is recomputed in full.
    public var fullRecomputationInputs: [String]
    /// The sentence the generated documentation of the value ends with, e.g.
    /// "Memoized: recomputed only after `todos` or `filter` changes."
    public var summary: String

    /// Whether the value is maintained incrementally (when only its lists changed).
    public var isIncremental: Bool { !followedLists.isEmpty }
}

extension CheckedState {
    /// How the generated code keeps the computed value `name` up to date, or `nil` when the state
    /// has no computed value of that name.
    public func freshness(ofComputed name: String) -> Freshness? {
        guard let computed = computeds.first(where: { $0.name == name }) else { return nil }
        let emitter = StateEmitter(state: self, source: SourceContext(path: decl.name.name))
        let strategy: Freshness.Strategy
        if computed.isListGroups {
            strategy = .listGroups
        } else if computed.isListSections {
            strategy = .listSections
        } else if computed.isIncrementalList {
            strategy = .listView
        } else if emitter.join(of: computed) != nil {
            strategy = .join
        } else if let list = emitter.foldedList(of: computed) {
            strategy = .fold(list: list)
        } else {
            strategy = .memoized
        }
        let readsShared = emitter.isShared(computed)
        let lists = emitter.listInputs(of: computed)
        let followed = emitter.isIncremental(computed) && !readsShared ? lists.map(\.name) : []
        let order = followed.isEmpty ? [] : computed.keyOrderInputs.filter { !followed.contains($0) }
        let full = computed.inputs.map(\.name).filter { !followed.contains($0) && !order.contains($0) }
        return Freshness(
            strategy: strategy,
            readsShared: readsShared,
            followedLists: followed,
            keyOrderInputs: order,
            fullRecomputationInputs: full,
            summary: emitter.freshnessDoc(of: computed)
        )
    }
}
