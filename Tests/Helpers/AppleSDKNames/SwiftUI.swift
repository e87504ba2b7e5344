// Stand-ins for the SwiftUI declarations that a form over a `Store` uses, declared from Apple's
// documentation (the page of each declaration is named above it; the declarations are those of
// the iOS 17 / macOS 14 SDK, the deployment floor). Compiled twice:
//
// - in the `AppleSDKNames` module, so that the documentation's view and form snippets type-check
//   on Linux (DocumentationSnippetTests) beside SwiftUI's clashing `Edge`;
// - as a module named `SwiftUI` by scripts/check-darwin.sh, which type-checks
//   Tests/SwiftUIForms/ (`import SwiftUI`, `@Bindable var store: Store<…>`) against it.
//
// Rules (as Tests/DarwinStandIns/README.md): Apple's signatures, availability and `Sendable`-ness
// exactly where the form relies on them; nothing here is run (bodies are `fatalError`). Where
// this file is simpler than SwiftUI, it says so: `body` is `Never` (SwiftUI's controls have
// bodies of their own), and Apple's newest pages write `@ContentBuilder` where the iOS 17 SDK
// has `@ViewBuilder`.

import Foundation
import Observation

// MARK: Edge

/// Stands in for SwiftUI's `Edge`, a name ComputedRuntime declares too.
/// https://developer.apple.com/documentation/swiftui/edge
/// `@frozen enum Edge: Int8, CaseIterable`
public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing

    /// https://developer.apple.com/documentation/swiftui/edge/set
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
    }
}

// MARK: Views

/// https://developer.apple.com/documentation/swiftui/view
/// `@MainActor @preconcurrency protocol View`, `associatedtype Body: View`,
/// `@ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }`
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
/// `@resultBuilder struct ViewBuilder`; `buildBlock()`, `buildBlock(_:)` and, since iOS 17, the
/// variadic `buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)>`.
@resultBuilder
public struct ViewBuilder {
    /// (ViewBuilder page, "Building content")
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }

    /// (ViewBuilder page) `static func buildBlock() -> EmptyView`
    public static func buildBlock() -> EmptyView { EmptyView() }

    /// (ViewBuilder page) `static func buildBlock<Content>(_ content: Content) -> Content where Content : View`
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-2bj1g
    /// `static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)> where repeat each Content : View`
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
/// `@frozen struct TupleView<T>`, `init(_ value: T)`
nonisolated public struct TupleView<T>: View {
    public var value: T
    nonisolated public init(_ value: T) { self.value = value }
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/emptyview
/// `@frozen struct EmptyView`, `init()`
nonisolated public struct EmptyView: View {
    nonisolated public init() {}
    public var body: Never { fatalError("stand-in") }
}

/// SwiftUI's `extension Never: View` (the body type of primitive views, as the View page says)
extension Never: View {
    public var body: Never { fatalError("stand-in") }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/tag(_:)
    /// `func tag<V>(_ tag: V) -> some View where V : Hashable`
    /// (newer SDKs add `includeOptional: Bool = true`).
    nonisolated public func tag<V: Hashable>(_ tag: V) -> some View { self }
}

// MARK: Text

/// https://developer.apple.com/documentation/swiftui/localizedstringkey
/// `@frozen struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation`
public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation {
    /// (LocalizedStringKey page, "Creating a key from a string") `init(_ value: String)`,
    /// `init(stringLiteral value: String)`, `init(stringInterpolation: StringInterpolation)`
    public init(_ value: String) {}
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: StringInterpolation) {}

    /// `LocalizedStringKey.StringInterpolation` (SwiftUI's `appendInterpolation` overloads take strings, `_FormatSpecifiable` numbers,
    /// formatters and more; one generic overload stands in for them.)
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        public mutating func appendInterpolation<T>(_ value: T) {}
    }
}

/// https://developer.apple.com/documentation/swiftui/text
/// `@frozen struct Text` (its other conformances are left out: nothing here needs them)
nonisolated public struct Text: View {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
    /// `init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil)`
    nonisolated public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {}

    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
    /// `init<S>(_ content: S) where S : StringProtocol`
    nonisolated public init<S: StringProtocol>(_ content: S) {}

    public var body: Never { fatalError("stand-in") }
}

// MARK: Bindings

/// https://developer.apple.com/documentation/swiftui/binding
/// `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp
    /// `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void)`
    @preconcurrency
    public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {}

    /// https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
    /// `var wrappedValue: Value { get nonmutating set }`
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set { fatalError("stand-in") }
    }

    /// https://developer.apple.com/documentation/swiftui/binding/projectedvalue
    /// `var projectedValue: Binding<Value> { get }`
    public var projectedValue: Binding<Value> { self }

    /// https://developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
    /// `subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { get }`
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("stand-in")
    }
}

/// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-6g3d5 (discussion):
/// "A binding conforms to Sendable only if its wrapped value type also conforms to Sendable."
extension Binding: Sendable where Value: Sendable {}

/// https://developer.apple.com/documentation/swiftui/bindable
/// `@dynamicMemberLookup @propertyWrapper struct Bindable<Value>` (iOS 17, macOS 14)
@dynamicMemberLookup @propertyWrapper
public struct Bindable<Value> {
    /// https://developer.apple.com/documentation/swiftui/bindable/wrappedvalue
    /// `var wrappedValue: Value`
    public var wrappedValue: Value

    /// https://developer.apple.com/documentation/swiftui/bindable/projectedvalue
    /// `var projectedValue: Bindable<Value> { get }`
    public var projectedValue: Bindable<Value> { self }

    /// https://developer.apple.com/documentation/swiftui/bindable/init(wrappedvalue:)
    /// `init(wrappedValue: Value)` (where `Value: AnyObject, Value: Observable`). A contextual
    /// `where` clause, not a constrained extension, so that a view's memberwise initializer
    /// takes the object itself (`BookEditView(book: book)`), as SwiftUI's does: both mangle
    /// alike in the precise identifier `…RlzC11Observation10ObservableRzlE12wrappedValue…`.
    public init(wrappedValue: Value) where Value: AnyObject, Value: Observable {
        self.wrappedValue = wrappedValue
    }

    /// https://developer.apple.com/documentation/swiftui/bindable/init(_:)
    /// `init(_ wrappedValue: Value)`: `TextField("Title", text: Bindable(book).title)`
    public init(_ wrappedValue: Value) where Value: AnyObject, Value: Observable {
        self.wrappedValue = wrappedValue
    }
}

extension Bindable where Value: AnyObject {
    /// https://developer.apple.com/documentation/swiftui/bindable/subscript(dynamicmember:)
    /// `subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> { get }`
    /// (declared where `Value: AnyObject`, as its precise identifier `…RlzC…` says)
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("stand-in")
    }
}

// MARK: Controls

/// https://developer.apple.com/documentation/swiftui/form
/// `struct Form<Content> where Content : View`
nonisolated public struct Form<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/form/init(content:)
    /// `init(@ViewBuilder content: () -> Content)`
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/textfield
/// `struct TextField<Label> where Label : View`
nonisolated public struct TextField<Label: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension TextField where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)
    /// `init(_ titleKey: LocalizedStringKey, text: Binding<String>)`
    nonisolated public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}

    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-2laoi
    /// `init<S>(_ title: S, text: Binding<String>) where S : StringProtocol`
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

/// https://developer.apple.com/documentation/swiftui/toggle
/// `struct Toggle<Label> where Label : View`
nonisolated public struct Toggle<Label: View>: View {
    /// https://developer.apple.com/documentation/swiftui/toggle/init(ison:label:)
    /// `init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label)`
    nonisolated public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError("stand-in") }
}

extension Toggle where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/toggle/init(_:ison:) (an overload group:
    /// the page shows its iOS 16 `LocalizedStringResource` member; this is its iOS 13 member,
    /// `init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>)`, the one a string literal
    /// selects, as in the Toggle page's "text-only labels" and `init(_:systemImage:isOn:)`)
    nonisolated public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
}

/// https://developer.apple.com/documentation/swiftui/picker
/// `struct Picker<Label, SelectionValue, Content> where Label : View, SelectionValue : Hashable, Content : View`
nonisolated public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension Picker where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/picker/init(_:selection:content:)-6lwfn
    /// `init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content)`
    nonisolated public init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}

    /// https://developer.apple.com/documentation/swiftui/picker/init(_:selection:content:)-5njtq
    /// `init<S>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) where S : StringProtocol`
    nonisolated public init<S: StringProtocol>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/slider
/// `struct Slider<Label, ValueLabel> where Label : View, ValueLabel : View`
nonisolated public struct Slider<Label: View, ValueLabel: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension Slider where Label == EmptyView, ValueLabel == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/slider/init(value:in:oneditingchanged:)
    /// `init<V>(value: Binding<V>, in bounds: ClosedRange<V> = 0...1, onEditingChanged: @escaping (Bool) -> Void = { _ in }) where V : BinaryFloatingPoint, V.Stride : BinaryFloatingPoint`
    nonisolated public init<V>(
        value: Binding<V>,
        in bounds: ClosedRange<V> = 0...1,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) where V: BinaryFloatingPoint, V.Stride: BinaryFloatingPoint {}
}
