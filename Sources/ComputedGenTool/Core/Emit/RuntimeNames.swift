/// The runtime names that generated code spells, each qualified with the runtime's module name.
///
/// A generated file imports whatever its spec imports, and other modules declare some of the same
/// names: Objective-C's `Selector` (through Foundation on Apple platforms), SwiftUI's `Edge`,
/// swift-sharing's `Shared` and `SharedReader`, The Composable Architecture's `Store`, ReCombine's
/// `createSelector`. An unqualified name would then be ambiguous, or worse, resolve to the other
/// module's declaration. `ComputedRuntime.Edge` cannot, and a spec member named like a runtime type
/// cannot hide it either. (The one name left to guard is the module's own: see `NameRules`.)
enum RuntimeNames {
    /// The one spelling of the module name, shared with the checker that reserves it.
    static let module = NameRules.runtimeModuleName

    static let edge = module + ".Edge"
    static let storedField = module + ".StoredField"
    static let shared = module + ".Shared"
    static let sharedStrategy = module + ".SharedStrategy"
    static let memo = module + ".Memo"
    static let memoTable = module + ".MemoTable"
    static let memoInputs = module + ".MemoInputs"
    static let sharedMemo = module + ".SharedMemo"
    static let recordSharedStamps = module + "._recordSharedStamps"
    static let incrementalMemo = module + ".IncrementalMemo"
    static let incrementalListQuery = module + ".IncrementalListQuery"
    static let versionStamp = module + ".VersionStamp"
    static let recomputationCounter = module + ".RecomputationCounter"
    static let stateSelector = module + ".StateSelector"
    static let parameterizedSelector = module + ".ParameterizedSelector"
    static let createSelector = module + ".createSelector"
    static let createParameterizedSelector = module + ".createParameterizedSelector"
    static let memberVersioned = module + ".MemberVersioned"
    static let memberVersion = module + ".memberVersion"
    static let splitMemberPath = module + "._splitMemberPath"
    static let unavailableMember = module + "._unavailableMember"
    static let noSuchMember = module + ".NoSuchMember"
}
