/// The unavailable declarations that turn mistakes in user code into messages that name the fix.
///
/// Swift reports the use of an unavailable declaration, with its message, only once the whole
/// expression type-checks; an expression that fails earlier gets whatever error Swift finds
/// first. So each guard has a type that lets the usual continuations type-check.
extension StateEmitter {
    /// `state.visibleCount` (without `.computed`), and the same through a store
    /// (`store.visibleCount`, a key path into the state), fail with a message that names the fix,
    /// instead of "has no member" (or, through the dynamic member lookup of a state with `@Edge`
    /// fields, a compiler failure to produce any diagnostic).
    ///
    /// The guard has the computed value's own type, so that chained forms (`.count`,
    /// `.map(\.title)`, `for x in …`) type-check and get the message too, and a setter, so that
    /// assignments do (rather than "get-only property"; through a store, a get-only guard of a
    /// state with `@Edge` fields let Swift pick the missing-member guard instead, and report it
    /// with no location). One message serves states and stores: a store reaches the state's
    /// declaration, so it cannot have its own without a declaration per computed value on `Store`
    /// too.
    ///
    /// Its accessors never run, so none is optimized (`@_optimize(none)`), and the `modify` is
    /// written rather than derived from the getter and setter: the optimizer's passes over three
    /// functions per computed value were 4% of the compiler's instructions at `-O` for the
    /// reference shape (issue 36, see Docs/Performance.md).
    func emitMisreadGuard(for computed: CheckedComputed, into writer: inout CodeWriter) {
        let name = swiftName(computed.decl.name)
        let message = "'\(computed.name)' is a computed value: read it as 'state.computed.\(computed.name)' or "
            + "'store.computed.\(computed.name)' (computed values are read-only)"
        writer.line("@available(*, unavailable, message: \"\(message)\")")
        let never = "\(RuntimeNames.unavailableMember)()"
        writer.line("\(access)var \(name): \(publicType(computed)) { @_optimize(none) get { \(never) } @_optimize(none) set {} @_optimize(none) _modify { \(never) } }")
    }

    /// Any other name on a state with dynamic member lookup (`@Edge` or `@Shared` fields): an
    /// error that says where members are. Without it, a misspelled member made Swift 6.3 fail to
    /// produce any diagnostic while it tried the key-path subscripts, or name `Extended`.
    ///
    /// Its type, `NoSuchMember`, lets the usual continuations type-check (`state.mesages.count`,
    /// `for m in state.mesages`, `copy.qurey = "x"`) so that they get the message too. It is not
    /// generic (of the type the context asks for): that would also explain away a type mistake
    /// with a projection that exists (`let n: Int = state.$unread`) as a missing member.
    ///
    /// Through a store (`store.mesages`, a key path into the state), Swift 6.3 reports the
    /// message with no source location (an implicit key-path component has none). A name
    /// parameter that is not `Hashable` kept key paths out and gave an error at the name, but also
    /// an error in the generated file when a field's type is misspelled in the spec (the table's
    /// key path to that field then falls back to this subscript).
    func emitMissingMemberGuard(into writer: inout CodeWriter) {
        writer.doc(["Any other name: an error that says where members are, instead of a compiler failure."])
        let message = "\(state.name) has no member of this name: fields are 'state.field', computed values "
            + "'state.computed.value', the Edge or Shared of a field 'state.$field'"
        let body = "{ get { \(RuntimeNames.unavailableMember)() } set {} }"
        writer.line("@available(*, unavailable, message: \"\(message)\")")
        writer.line("\(access)subscript(dynamicMember member: Swift.String) -> \(RuntimeNames.noSuchMember) \(body)")
    }
}
