/// What a ``StateTable`` answers about a state's members: versions by name, the fields' stamps,
/// the members a store observes by key path, and the mirror. Generated states get all of it from
/// ``_TableDrivenState`` instead of a switch, a list and two key-path tables per state.
extension StateTable {
    /// The version of the member at `path` in the storage at `base` (see
    /// `MemberVersioned._version(ofMember:)`): a field, a field's member when the field is a
    /// generated state, or a computed value (brought up to date first); `nil` for any other path.
    public func version(ofMember path: Substring, in base: UnsafeRawPointer) -> VersionStamp? {
        let (member, rest) = _splitMemberPath(path)
        if member == "computed" {
            let name = _splitMemberPath(rest).head
            guard let index = computedIndex[name] else { return sharedComputeds[name]?(base) }
            return version(ofComputed: index, in: base)
        }
        guard let index = fieldIndex[member] else { return nil }
        if !rest.isEmpty, let nested = fields[index].memberVersion?(base, rest) {
            return nested
        }
        return version(ofField: index, in: base)
    }

    /// Records the stamp of every field, in declaration order (see
    /// `MemberVersioned._recordFieldVersions(_:)`).
    public func recordFieldVersions(in base: UnsafeRawPointer, into versions: inout MemoInputs) {
        // Over the `Int` array: `fields` is an array of a type generic over the state, whose
        // metadata an unspecialized loop would look up on every call.
        for index in 0..<stampOffsets.count {
            versions.record(version(ofField: index, in: base))
        }
    }

    /// Whether a state of this type can hold shared references (a `@Shared` field, or a nested
    /// generated state with one), which its stores follow.
    var holdsSharedReferences: Bool {
        !referenceCollectors.isEmpty
    }

    /// Calls `visit` with each shared reference the state at `base` holds, in declaration order
    /// (nested generated states' in place of the field that holds them).
    func visitSharedReferences(in base: UnsafeRawPointer, _ visit: (any _SharedReference) -> Void) {
        for collect in referenceCollectors {
            collect(base, visit)
        }
    }

    /// Records the current version of each shared reference the state at `base` holds, in
    /// declaration order (what generated code reads through `_recordSharedStamps(of:into:)`).
    public func recordSharedStamps(in base: UnsafeRawPointer, into stamps: inout MemoInputs) {
        visitSharedReferences(in: base) { stamps.record($0.version) }
    }

    /// The fields and their values, as `print` and `dump` show a state.
    public func mirror(of state: State) -> Mirror {
        let children = withUnsafePointer(to: state) { pointer in
            let base = UnsafeRawPointer(pointer)
            return fields.map { (label: Optional($0.name), value: $0.value(base)) }
        }
        return Mirror(state, children: children, displayStyle: .struct)
    }
}

/// A generated state described by a ``StateTable``: its observable members come from the table
/// (`Extended.__table`), and its member versions and field stamps from the table through the two
/// `MemberVersioned` methods the generated file implements.
public protocol _TableDrivenState: _ComputedState where Extended: _TableDrivenStorage, Extended.State == Self {}

/// The storage (`Extended`) of a ``_TableDrivenState``.
public protocol _TableDrivenStorage: _ObservableMembers {
    /// The state this is the storage of.
    associatedtype State
    /// The state's members.
    static var __table: StateTable<State, Self> { get }
}

extension _TableDrivenState {
    // `_version(ofMember:)` and `_recordFieldVersions(_:)` are implemented by each generated state,
    // where its type is known (two lines each, calling ``StateTable/version(ofMember:in:)`` and
    // ``StateTable/recordFieldVersions(in:into:)``): a generic default here ran unspecialized and
    // reached the table through the conformance on every commit.

    /// The fields and computed values a store observes one by one, by their key paths on the
    /// state (`\.items`, `\.computed.total`).
    public static var _observableMembers: _MemberTable<Self> {
        Extended.__table.stateMembers
    }
}

extension _TableDrivenStorage {
    /// The fields and computed values a store observes one by one, by their key paths on
    /// `state.computed` (`\.items`, `\.total`).
    public static var _observableMembers: _MemberTable<Self> {
        __table.extendedMembers
    }
}
