/// A value whose members' versions can be read one by one: every state ComputedGen generates.
///
/// A computed value that reads `shelf.computed.total` or `shelf.items` of a field `shelf` whose
/// type is a generated state depends on those members' versions, not on the whole field: after
/// `shelf.label` is written, the parent's value is verified and kept without running its body.
/// The generated code asks `memberVersion(of:_:)`, which calls this for conforming types and
/// returns `nil` (use the whole field's version) for any other type.
public protocol MemberVersioned: _ObservableMembers {
    /// The version of the member at `path`: a field (`"items"`), a computed value
    /// (`"computed.total"`, brought up to date first), or a member of a nested state
    /// (`"child.computed.total"`); `nil` when `path` names no versioned member (then the caller
    /// falls back to a coarser version). Members after a versioned one (`"items.count"`) are
    /// covered by its version.
    func _version(ofMember path: Substring) -> VersionStamp?

    /// Records the version stamp of every field, in declaration order, and returns `true`
    /// (generated). A ``Store`` records them before and after a commit and publishes the commit
    /// only when one of them moved, comparing stamp by stamp: stamps are unique but not ordered
    /// across threads, so no single number made of them (the newest, a sum) moves exactly when a
    /// field is written. The default, for hand-written conformers, records nothing and returns
    /// `false`; then a store compares states with `==`, or counts every commit as a change.
    func _recordFieldVersions(_ versions: inout MemoInputs) -> Bool
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
    // Searched as UTF-8: `firstIndex(of: Character)` walks grapheme clusters, about 2,000
    // instructions for `"computed.c0"`, on every check of an observed member by a store commit.
    // A path is Swift identifiers joined by dots, so the dot is always a character boundary.
    guard let dot = path.utf8.firstIndex(of: UInt8(ascii: ".")) else { return (path, "") }
    return (path[..<dot], path[path.utf8.index(after: dot)...])
}

// MARK: - Observation by member

/// A type whose members a ``Store`` can observe one by one: every generated state and its
/// `computed` storage (`Extended`).
///
/// The table maps the key path of each observable member, as user code spells it
/// (`\.items`, `\.total` on `Extended`), to its path in ``MemberVersioned/_version(ofMember:)``
/// relative to the owning state (`"items"`, `"computed.total"`). Key paths that are not in the
/// table are observed as the whole state.
public protocol _ObservableMembers {
    /// The observable members by key path; empty by default.
    static var _observableMembers: _MemberTable<Self> { get }
}

extension _ObservableMembers {
    /// No member is observable one by one: reads are tracked as reads of the whole state.
    public static var _observableMembers: _MemberTable<Self> { [:] }
}

/// A generated state with `computed` storage, so that `store.computed.x` observes `x` alone.
public protocol _ComputedState: MemberVersioned {
    /// The storage behind `state.computed`.
    associatedtype Extended: _ObservableMembers
    /// The memoized computed values (and fields) of the state.
    var computed: Extended { get }
}

extension MemberVersioned {
    /// Records nothing and returns `false`: the state's fields have no versions, so a store
    /// decides whether a commit changed it by `==` (for an `Equatable` state) or counts every
    /// commit as a change.
    public func _recordFieldVersions(_ versions: inout MemoInputs) -> Bool { false }
}

/// Member names by key path, for ``_ObservableMembers`` (generated as a dictionary literal).
public struct _MemberTable<Root>: ExpressibleByDictionaryLiteral, @unchecked Sendable {
    // Safety: immutable; key paths are immutable objects.
    private let names: [PartialKeyPath<Root>: String]

    /// A table of the given entries.
    public init(dictionaryLiteral elements: (PartialKeyPath<Root>, String)...) {
        self.init(elements)
    }

    /// A table of the given entries (the first of two entries with the same key path wins).
    init(_ elements: [(PartialKeyPath<Root>, String)]) {
        names = Dictionary(elements, uniquingKeysWith: { first, _ in first })
    }

    /// The member name of `keyPath`, if listed.
    public subscript(keyPath: PartialKeyPath<Root>) -> String? {
        names[keyPath]
    }
}

/// Looks up a type's ``MemberVersioned`` conformance at run time (one dynamic cast per store),
/// so that `Store<State>` uses version stamps whatever the context it was created in.
enum _MemberVersionedWitness<T> {}

protocol _AnyMemberVersionedWitness {
    static func recordFieldVersions(_ value: UnsafeMutableRawPointer, _ versions: inout MemoInputs) -> Bool
    static func memberVersion(_ value: UnsafeMutableRawPointer, _ path: Substring) -> VersionStamp?
}

// The value is passed `inout` (in place) rather than read through `pointee`, which would copy it
// (one retain and release per reference in the state) in this unspecialized code.
extension _MemberVersionedWitness: _AnyMemberVersionedWitness where T: MemberVersioned {
    static func recordFieldVersions(_ value: UnsafeMutableRawPointer, _ versions: inout MemoInputs) -> Bool {
        _recordFieldVersionsInPlace(&value.assumingMemoryBound(to: T.self).pointee, &versions)
    }

    static func memberVersion(_ value: UnsafeMutableRawPointer, _ path: Substring) -> VersionStamp? {
        _memberVersionInPlace(&value.assumingMemoryBound(to: T.self).pointee, path)
    }
}

private func _recordFieldVersionsInPlace<T: MemberVersioned>(_ value: inout T, _ versions: inout MemoInputs) -> Bool {
    value._recordFieldVersions(&versions)
}

private func _memberVersionInPlace<T: MemberVersioned>(_ value: inout T, _ path: Substring) -> VersionStamp? {
    value._version(ofMember: path)
}

/// Versions of a `T` value, when `T` is a generated state (decided once per type).
struct _MemberVersions<T>: @unchecked Sendable {
    // Safety: a conformance witness metatype, immutable.
    let witness: (any _AnyMemberVersionedWitness.Type)?

    init() {
        witness = _MemberVersionedWitness<T>.self as? any _AnyMemberVersionedWitness.Type
    }

    /// Records the stamps of the value's fields into `versions` (see `MemoInputs.record`);
    /// `false` when `T` has none. (`inout` only so that the value is not copied.)
    func recordFieldVersions(_ value: inout T, into versions: inout MemoInputs) -> Bool {
        guard let witness else { return false }
        return withUnsafeMutablePointer(to: &value) {
            witness.recordFieldVersions(UnsafeMutableRawPointer($0), &versions)
        }
    }

    /// The version of the member at `path`; `nil` when `T` is not versioned or has no such
    /// member. A computed member is brought up to date first.
    func memberVersion(_ value: inout T, _ path: String) -> VersionStamp? {
        guard let witness else { return nil }
        return withUnsafeMutablePointer(to: &value) { witness.memberVersion(UnsafeMutableRawPointer($0), path[...]) }
    }
}

/// The member names of `T`'s observable members, when `T` has a table (decided once per type).
enum _ObservableMembersWitness<T> {}

protocol _AnyObservableMembersWitness {
    static func name(of keyPath: AnyKeyPath) -> String?
}

extension _ObservableMembersWitness: _AnyObservableMembersWitness where T: _ObservableMembers {
    static func name(of keyPath: AnyKeyPath) -> String? {
        guard let keyPath = keyPath as? PartialKeyPath<T> else { return nil }
        return T._observableMembers[keyPath]
    }
}

/// The observable member name of `keyPath` rooted at `Root`, if `Root` lists it.
func _observableMemberName<Root>(_ keyPath: AnyKeyPath, in _: Root.Type) -> String? {
    guard let witness = _ObservableMembersWitness<Root>.self as? any _AnyObservableMembersWitness.Type else {
        return nil
    }
    return witness.name(of: keyPath)
}
