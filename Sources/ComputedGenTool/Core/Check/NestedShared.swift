/// Which fields hold a nested generated state whose `@Shared` values other holders may change.
///
/// A parent's computed value over `child` is cached until the parent's `child` field is written.
/// When `child` holds a `@Shared` value, another holder can change that value without writing
/// anything the parent sees; the generated cell then keys its cache on those values' versions as
/// well (read through the runtime's `_recordSharedStamps(of:into:)`), as it does for the parent's
/// own `@Shared` fields. A field is marked when its type is
/// - a state of the same spec that holds `@Shared` values, itself or through its own nested
///   states (decided exactly, whatever order the states are declared in), or
/// - a state of another spec file or module, which the generator cannot see, when a computed
///   value reads it through `.computed` (only generated states have that): the runtime then
///   records that state's stamps, or nothing when it holds none.
enum NestedShared {
    /// `states` with ``CheckedField/holdsNestedShared`` set.
    static func mark(_ states: [CheckedState], context: SpecContext = SpecContext()) -> [CheckedState] {
        let declared = Set(states.map(\.name))
        // Per state, once: the fields its computed values read through `.computed` (a pass over
        // the computed values, not one per field, so the cost grows with the members, not with
        // fields × computed values).
        let readThrough = states.map(fieldsReadThroughComputed(in:))
        let holders = holders(of: states, readThrough: readThrough, known: context.sharedHolders)
        return zip(states, readThrough).map { state, readThrough in
            var state = state
            for index in state.fields.indices where !state.fields[index].isShared {
                let type = state.fields[index].type
                state.fields[index].holdsNestedShared = declared.contains(type) || context.sharedHolders.contains(type)
                    ? holders.contains(type)
                    : readThrough.contains(state.fields[index].name)
            }
            return state
        }
    }

    /// The names of the states among `states` that hold `@Shared` values, themselves or through
    /// nested states, with `known` the states of other spec files known to: a fixed point,
    /// whatever order the states are declared in.
    ///
    /// A field of a type neither here nor in `known` counts when a computed value reads it
    /// through `.computed` (only generated states have that).
    static func holders(of states: [CheckedState], known: Set<String> = []) -> Set<String> {
        holders(of: states, readThrough: states.map(fieldsReadThroughComputed(in:)), known: known)
    }

    /// ``holders(of:known:)`` given each state's ``fieldsReadThroughComputed(in:)``.
    private static func holders(of states: [CheckedState], readThrough: [Set<String>], known: Set<String>) -> Set<String> {
        let declared = Set(states.map(\.name))
        var holders = known
        var changed = true
        while changed {
            changed = false
            for (state, readThrough) in zip(states, readThrough) where !holders.contains(state.name) {
                let holds = state.fields.contains { field in
                    field.isShared || (declared.contains(field.type) || known.contains(field.type)
                        ? holders.contains(field.type)
                        : readThrough.contains(field.name))
                }
                if holds {
                    holders.insert(state.name)
                    changed = true
                }
            }
        }
        return holders
    }

    /// The fields (of types the spec may not declare) that a computed value of `state` reads
    /// through `.computed`: such a field holds a generated state.
    private static func fieldsReadThroughComputed(in state: CheckedState) -> Set<String> {
        var names: Set<String> = []
        for computed in state.computeds {
            for (field, paths) in computed.memberPaths
            where paths.contains(where: { $0 == "computed" || $0.hasPrefix("computed.") }) {
                names.insert(field)
            }
        }
        return names
    }
}
