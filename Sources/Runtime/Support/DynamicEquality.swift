/// Dynamic `Equatable` support: compares two values of a type that is not statically known to be
/// `Equatable`, without boxing them into existentials (so no allocation).
///
/// `_EquatableWitness<T>` conforms to `_AnyEquatableWitness` exactly when `T: Equatable`; a
/// dynamic cast of its metatype finds that conditional conformance at run time.
@usableFromInline
enum _EquatableWitness<T> {}

@usableFromInline
protocol _AnyEquatableWitness {
    /// Compares the two values of the witnessed type at `lhs` and `rhs`.
    static func isEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool
}

extension _EquatableWitness: _AnyEquatableWitness where T: Equatable {
    @usableFromInline
    static func isEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        lhs.assumingMemoryBound(to: T.self).pointee == rhs.assumingMemoryBound(to: T.self).pointee
    }
}

/// Equality of `T` values, decided once per type: `==` when `T` is `Equatable` at run time.
@usableFromInline
struct _DynamicEquality<T> {
    @usableFromInline
    let witness: (any _AnyEquatableWitness.Type)?

    /// Looks up `T`'s `Equatable` conformance (one dynamic cast).
    @inlinable
    init() {
        witness = _EquatableWitness<T>.self as? any _AnyEquatableWitness.Type
    }

    /// An equality with the given witness (`nil`: never compares).
    @inlinable
    init(witness: (any _AnyEquatableWitness.Type)?) {
        self.witness = witness
    }

    /// Whether `T` is `Equatable`.
    @inlinable
    var isEquatable: Bool {
        witness != nil
    }

    /// `lhs == rhs` when `T` is `Equatable`, `nil` otherwise.
    @inlinable
    func isEqual(_ lhs: T, _ rhs: T) -> Bool? {
        guard let witness else { return nil }
        return withUnsafePointer(to: lhs) { l in
            withUnsafePointer(to: rhs) { r in
                witness.isEqual(UnsafeRawPointer(l), UnsafeRawPointer(r))
            }
        }
    }
}
