/// Records the current version of each `@Shared` value a nested generated state holds (its own
/// `@Shared` fields, then those of the states nested in it, in declaration order) into the keys
/// of a computed value's cell.
///
/// A parent state's computed value that reads a nested state (`child.computed.name`) is cached
/// until the parent's `child` field is written; but another holder of the child's `@Shared`
/// value can change it without writing anything the parent sees. Generated code keys such a
/// cell on these stamps too, as it does for the parent's own `@Shared` fields, so the value is
/// recomputed after a change made anywhere.
@inlinable
public func _recordSharedStamps<T: _TableDrivenState>(of value: borrowing T, into stamps: inout MemoInputs) {
    withUnsafePointer(to: value) { T.Extended.__table.recordSharedStamps(in: $0, into: &stamps) }
}

/// A value of a type that is not a generated state holds no `@Shared` value the runtime follows:
/// nothing to record. (Generated code calls `_recordSharedStamps(of:into:)` where the spec reads
/// a nested state; overload resolution picks this one, at compile time, for any other type.)
@inlinable
public func _recordSharedStamps<T>(of value: borrowing T, into stamps: inout MemoInputs) {}
