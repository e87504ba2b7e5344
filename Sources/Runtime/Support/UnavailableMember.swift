/// The body of the declarations generated states have only to be unavailable (a computed value
/// read as a field, `state.total` instead of `state.computed.total`, gets a message that names
/// the fix): Swift rejects every use of them, so this never runs. One function in the runtime
/// rather than a `fatalError()` in each of them, which compiled its message, file and line into
/// every such declaration of every user's build. It returns `Never`, so it is the body of a
/// getter of any type.
public func _unavailableMember() -> Never {
    fatalError("an unavailable member of a generated state was called")
}

/// The type of a name that a generated state with `@Edge` or `@Shared` fields does not have
/// (`state.mesages`), as its unavailable `subscript(dynamicMember:)` gives it.
///
/// Swift reports the use of an unavailable declaration, with the message that says where a
/// state's members are, only once the whole expression type-checks. So this type lets the usual
/// continuations of a member type-check: `.count`, `.isEmpty`, `.map(\.subject)`, `for m in …`
/// (it is a collection, whose elements have any member) and an assignment of a literal
/// (`copy.qurey = "x"`). It has no members of its own beyond those, so that a mistake after a
/// member that exists (`state.$unread.valeu`) is still reported there. It has no values: nothing
/// of it ever runs.
public enum NoSuchMember: RandomAccessCollection, Sendable {
    /// Never called: there are no values.
    public var startIndex: Int { switch self {} }
    /// Never called: there are no values.
    public var endIndex: Int { switch self {} }
    /// Never called: there are no values.
    public subscript(position: Int) -> Element { switch self {} }

    /// An element of a missing member: any member of it type-checks (`\.subject`, `m.subject`).
    @dynamicMemberLookup
    public enum Element: Sendable {
        /// Any member of it: missing too.
        public subscript(dynamicMember member: String) -> Element { switch self {} }

        /// Any member of it, of the type the context asks for (`map(\.subject)` into `[String]`).
        @_disfavoredOverload
        public subscript<Value>(dynamicMember member: String) -> Value { switch self {} }
    }
}

extension NoSuchMember: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral {
    /// Never called: a literal assigned to a missing member (`copy.qurey = "x"`) type-checks, so
    /// that the state's message is reported.
    public init(stringLiteral value: String) { _unavailableMember() }
    /// Never called; as ``init(stringLiteral:)``.
    public init(integerLiteral value: Int) { _unavailableMember() }
    /// Never called; as ``init(stringLiteral:)``.
    public init(floatLiteral value: Double) { _unavailableMember() }
    /// Never called; as ``init(stringLiteral:)``.
    public init(booleanLiteral value: Bool) { _unavailableMember() }
    /// Never called; as ``init(stringLiteral:)``.
    public init(nilLiteral: ()) { _unavailableMember() }
    /// Never called; as ``init(stringLiteral:)``.
    public init(arrayLiteral elements: Element...) { _unavailableMember() }
}
