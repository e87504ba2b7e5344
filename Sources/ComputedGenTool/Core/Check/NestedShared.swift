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
        var holds: [String: Bool] = [:]
        // A fixed point over the spec's states: a state holds shared values when a field is
        // `@Shared` or holds a state that does (cycles through value types cannot occur, but the
        // loop does not rely on that).
        var changed = true
        while changed {
            changed = false
            for state in states where holds[state.name] != true {
                let value = state.fields.contains { field in
                    field.isShared || (byName[field.type] != nil ? holds[field.type] == true : readsThroughComputed(field, in: state))
                }
                if value {
                    holds[state.name] = true
                    changed = true
                }
            }
        }
        return states.map { state in
            var state = state
            for index in state.fields.indices {
                let field = state.fields[index]
                guard !field.isShared else { continue }
                state.fields[index].holdsNestedShared = byName[field.type] != nil
                    ? holds[field.type] == true
                    : readsThroughComputed(field, in: state)
            }
            return state
        }
    }

    /// Whether a computed value of `state` reads `field` (of a type the spec does not declare)
    /// through `.computed`: the field then holds a generated state.
    private static func readsThroughComputed(_ field: CheckedField, in state: CheckedState) -> Bool {
        state.computeds.contains { computed in
            computed.memberPaths[field.name]?.contains { $0 == "computed" || $0.hasPrefix("computed.") } ?? false
        }
    }
}
