/// The runtime names that generated code spells, each qualified with the runtime's module name.
///
/// A generated file imports whatever its spec imports, and other modules declare some of the same
/// names: Objective-C's `Selector` (through Foundation on Apple platforms), SwiftUI's `Edge`,
/// swift-sharing's `Shared` and `SharedReader`, The Composable Architecture's `Store`, ReCombine's
/// `createSelector`. An unqualified name would then be ambiguous, or worse, resolve to the other
/// module's declaration. `ComputedRuntime.Edge` cannot, and a spec member named like a runtime type
/// cannot hide it either. (The one name left to guard is the module's own: see `NameRules`.)
enum RuntimeNames {
    static let module = "ComputedRuntime"

    static let edge = "ComputedRuntime.Edge"
    static let shared = "ComputedRuntime.Shared"
    static let memo = "ComputedRuntime.Memo"
    static let sharedMemo = "ComputedRuntime.SharedMemo"
    static let versionStamp = "ComputedRuntime.VersionStamp"
    static let recomputationCounter = "ComputedRuntime.RecomputationCounter"
    static let stateSelector = "ComputedRuntime.StateSelector"
    static let parameterizedSelector = "ComputedRuntime.ParameterizedSelector"
    static let createSelector = "ComputedRuntime.createSelector"
    static let createParameterizedSelector = "ComputedRuntime.createParameterizedSelector"
    static let memberVersioned = "ComputedRuntime.MemberVersioned"
    static let memberVersion = "ComputedRuntime.memberVersion"
    static let splitMemberPath = "ComputedRuntime._splitMemberPath"
}
