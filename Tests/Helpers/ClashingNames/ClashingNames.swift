@_exported import AppleSDKNames  // Objective-C's `Selector`, SwiftUI's `Edge`

// Public names that other modules declare and ComputedRuntime declares too, so that tests can
// import both, as an app's files do, and prove generated code still compiles there.
//
// Real clashes users meet (each stands in for the module named beside it):
//
// | name           | declared by                                                         |
// |----------------|---------------------------------------------------------------------|
// | `Selector`     | Objective-C, re-exported by Foundation on every Apple platform      |
// | `Edge`         | SwiftUI (`Edge.top`, `Edge.Set`); Verge                              |
// | `Shared`       | swift-sharing, re-exported by The Composable Architecture           |
// | `SharedReader` | swift-sharing, re-exported by The Composable Architecture           |
// | `Store`        | The Composable Architecture, Verge, ReCombine                       |
// | `Derived`      | Verge                                                               |
// | `createSelector` | ReCombine                                                         |
//
// Decoys: every other runtime type that generated code names (`Memo`, `SharedMemo`,
// `VersionStamp`, `RecomputationCounter`, `StateSelector`, `ParameterizedSelector`, `MemberVersioned`). No known
// module declares them today; declaring them here makes the test fail if the emitter ever writes
// one of them unqualified, so it guards every qualification, not only today's clashes.

// MARK: swift-sharing / The Composable Architecture

/// Stands in for swift-sharing's `@Shared` property wrapper.
@propertyWrapper
public struct Shared<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public var projectedValue: Shared<Value> { self }
}

/// Stands in for swift-sharing's `@SharedReader` property wrapper.
@propertyWrapper
public struct SharedReader<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

/// Stands in for The Composable Architecture's `Store` (and Verge's, and ReCombine's).
public final class Store<State, Action> {
    public init() {}
}

// MARK: Verge

/// Stands in for Verge's `Derived`.
public final class Derived<Value> {
    public init() {}
}

// MARK: ReCombine

/// Stands in for ReCombine's `createSelector(_:projector:)`.
public func createSelector<State, S1, Result>(
    _ s1: @escaping (State) -> S1,
    projector: @escaping (S1) -> Result
) -> (State) -> Result {
    { projector(s1($0)) }
}

// MARK: Decoys for every other runtime type generated code names

public struct Memo {}
public struct SharedMemo {}
public struct VersionStamp {}
public struct RecomputationCounter {}
public struct StateSelector {}
public struct ParameterizedSelector {}
public protocol MemberVersioned {}
public func memberVersion(of value: Int, _ path: String) -> Int { 0 }
