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
    static func mark(_ states: [CheckedState]) -> [CheckedState] {
        let byName = Dictionary(states.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Per state, once: the fields its computed values read through `.computed` (a pass over
        // the computed values, not one per field, so the cost grows with the members, not with
        // fields × computed values).
        let readThroughComputed = states.map(fieldsReadThroughComputed(in:))
        var holds: [String: Bool] = [:]
        // A fixed point over the spec's states: a state holds shared values when a field is
        // `@Shared` or holds a state that does (cycles through value types cannot occur, but the
        // loop does not rely on that).
        var changed = true
        while changed {
            changed = false
            for (state, readThrough) in zip(states, readThroughComputed) where holds[state.name] != true {
                let value = state.fields.contains { field in
                    field.isShared || (byName[field.type] != nil ? holds[field.type] == true : readThrough.contains(field.name))
                }
                if value {
                    holds[state.name] = true
                    changed = true
                }
            }
        }
        return zip(states, readThroughComputed).map { state, readThrough in
            var state = state
            for index in state.fields.indices where !state.fields[index].isShared {
                let type = state.fields[index].type
                let name = state.fields[index].name
                state.fields[index].holdsNestedShared = byName[type] != nil
                    ? holds[type] == true
                    : readThrough.contains(name)
            }
            return state
        }
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
