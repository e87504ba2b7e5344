/// The body of the declarations generated states have only to be unavailable (a computed value
/// read as a field, `state.total` instead of `state.computed.total`, gets a message that names
/// the fix): Swift rejects every use of them, so this never runs. One function in the runtime
/// rather than a `fatalError()` in each of them, which compiled its message, file and line into
/// every such declaration of every user's build.
public func _unavailableMember() -> Never {
    fatalError("an unavailable member of a generated state was called")
}
