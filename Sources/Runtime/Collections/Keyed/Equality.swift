/// `==` for a value type that may or may not be `Equatable`, looked up the first time it is
/// needed (a keyed result compares an edited element with its previous value only when the
/// element stays in its group: most edits never ask), unless an operator known to be over
/// `Equatable` values gave it (`known`), specialized where the operator was written: the looked-up
/// one is generic, and copies both values through their type's value witnesses per comparison.
@usableFromInline
struct _Equality<Value> {
    @usableFromInline var resolved = false
    @usableFromInline var test: ((Value, Value) -> Bool)? = nil

    @inlinable
    init(known: ((Value, Value) -> Bool)? = nil) {
        if let known {
            resolved = true
            test = known
        }
    }

    /// Whether `Value` is `Equatable`.
    @inlinable
    mutating func isAvailable() -> Bool {
        resolve()
        return test != nil
    }

    /// `lhs == rhs` when `Value` is `Equatable`; false otherwise (no value is known to be equal).
    @inlinable
    mutating func areEqual(_ lhs: Value, _ rhs: Value) -> Bool {
        resolve()
        return test?(lhs, rhs) ?? false
    }

    @inlinable
    mutating func resolve() {
        guard !resolved else { return }
        resolved = true
        test = _equalityTest(Value.self)
    }
}

/// `==` of `Value` if it is `Equatable`.
@usableFromInline
func _equalityTest<Value>(_: Value.Type) -> ((Value, Value) -> Bool)? {
    guard let equatable = Value.self as? any Equatable.Type else { return nil }
    return _openedEquality(equatable, Value.self)
}

/// `==` of `Same`, which is `Value`, on values of `Value`.
private func _openedEquality<Same: Equatable, Value>(_: Same.Type, _: Value.Type) -> (Value, Value) -> Bool {
    // Safety: `Same` is `Value` (found by casting `Value.self`).
    return { lhs, rhs in unsafeBitCast(lhs, to: Same.self) == unsafeBitCast(rhs, to: Same.self) }
}
