// The names Apple's SDKs put in scope that ComputedRuntime declares too: every file of an Apple
// app that imports Foundation has Objective-C's `Selector`, every SwiftUI view file has `Edge`.
// Tests import this module beside ComputedRuntime to prove that generated code and every Swift
// snippet of the documentation compile there. (`ClashingNames` re-exports it and adds the names of
// state libraries users migrate from.)

// MARK: Objective-C (Foundation on Apple platforms)

/// Stands in for Objective-C's `Selector` (a non-generic struct).
public struct Selector: Hashable, Sendable {
    public init(_ name: String) {}
}

// MARK: SwiftUI

/// Stands in for SwiftUI's `Edge`.
public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing

    /// Stands in for `Edge.Set`.
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
    }
}
