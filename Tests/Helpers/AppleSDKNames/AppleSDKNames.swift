// The names Apple's SDKs put in scope that ComputedRuntime declares too: every file of an Apple
// app that imports Foundation has Objective-C's `Selector`, every SwiftUI view file has `Edge`.
// Tests import this module beside ComputedRuntime to prove that generated code and every Swift
// snippet of the documentation compile there. (`ClashingNames` re-exports it and adds the names of
// state libraries users migrate from.) It also stands in for the few SwiftUI declarations the
// documentation's view snippets use (`View`, `Text`), which Linux does not have.

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

// MARK: SwiftUI's view basics, for the documentation's snippets

/// Stands in for SwiftUI's `View`, so the documentation's view snippets type-check on Linux.
@MainActor
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

/// Stands in for SwiftUI's `ViewBuilder` (single views only).
@resultBuilder
public enum ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

extension Never: View {
    public var body: Never { fatalError("Never has no body") }
}

/// Stands in for SwiftUI's `Text`.
public struct Text: View {
    public init<S: StringProtocol>(_ content: S) {}
    public var body: Never { fatalError("Text has no body") }
}
