// The names Apple's SDKs put in scope that ComputedRuntime declares too: every file of an Apple
// app that imports Foundation has Objective-C's `Selector`, every SwiftUI view file has `Edge`.
// Tests import this module beside ComputedRuntime to prove that generated code and every Swift
// snippet of the documentation compile there. (`ClashingNames` re-exports it and adds the names of
// state libraries users migrate from.) It also stands in for the SwiftUI declarations the
// documentation's view and form snippets use (SwiftUI.swift), which Linux does not have.

// MARK: Objective-C (Foundation on Apple platforms)

/// Stands in for Objective-C's `Selector` (a non-generic struct).
public struct Selector: Hashable, Sendable {
    public init(_ name: String) {}
}

// SwiftUI's names (`Edge`, `View`, `Text`, `Binding`, `Bindable`, the form controls) are in
// SwiftUI.swift, which scripts/check-darwin.sh also compiles as a stand-in `SwiftUI` module.
