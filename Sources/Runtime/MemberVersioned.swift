/// A value whose members' versions can be read one by one: every state ComputedGen generates.
///
/// A computed value that reads `shelf.computed.total` or `shelf.items` of a field `shelf` whose
/// type is a generated state depends on those members' versions, not on the whole field: after
/// `shelf.label` is written, the parent's value is verified and kept without running its body.
/// The generated code asks `memberVersion(of:_:)`, which calls this for conforming types and
/// returns `nil` (use the whole field's version) for any other type.
public protocol MemberVersioned {
    /// The version of the member at `path`: a field (`"items"`), a computed value
    /// (`"computed.total"`, brought up to date first), or a member of a nested state
    /// (`"child.computed.total"`); `nil` when `path` names no versioned member (then the caller
    /// falls back to a coarser version). Members after a versioned one (`"items.count"`) are
    /// covered by its version.
    func _version(ofMember path: Substring) -> VersionStamp?
}

/// The version of the member of `value` at `path`, when `value`'s type is a generated state;
/// otherwise `nil`.
@inlinable
public func memberVersion<Value>(of value: Value, _ path: Substring) -> VersionStamp? {
    nil
}

/// The version of the member of `value` at `path` (see `MemberVersioned._version(ofMember:)`).
@inlinable
public func memberVersion<Value: MemberVersioned>(of value: Value, _ path: Substring) -> VersionStamp? {
    value._version(ofMember: path)
}

/// Splits `"computed.total"` into `("computed", "total")`; a path without `.` into `(path, "")`.
/// For generated `_version(ofMember:)` implementations.
@inlinable
public func _splitMemberPath(_ path: Substring) -> (head: Substring, rest: Substring) {
    guard let dot = path.firstIndex(of: ".") else { return (path, "") }
    return (path[..<dot], path[path.index(after: dot)...])
}
