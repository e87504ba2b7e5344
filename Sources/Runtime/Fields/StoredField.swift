/// The storage generated code gives a plain field: its value and the ``VersionStamp`` of its last
/// write.
///
/// It is an ``Edge`` without middleware, and two words smaller for it: a state is copied whole
/// into every selector and store call, so the words a field does not need are paid on every read
/// of the state, not only on its writes. Generated states keep it behind their field accessors;
/// it is public so that those accessors can be inlined into the modules that use the state.
///
/// - Every `set` and every in-place `modify` takes a new stamp (a modify stays in place: the
///   value is never copied). `update(_:)` skips an `Equatable` value equal to the current one.
/// - Copies share the stamp until one of them is written: equal stamps mean equal values.
@frozen
public struct StoredField<Value> {
    @usableFromInline
    var _value: Value

    @usableFromInline
    var _version: VersionStamp

    /// Stores `wrappedValue` at a new stamp.
    @inlinable
    public init(wrappedValue: Value) {
        _value = wrappedValue
        _version = .next()
    }

    /// Stores `wrappedValue` at `version`: a state's initializer takes one stamp for all of its
    /// fields (stamps are compared field by field, each with its own earlier stamps, so fields
    /// may share one; it must be a stamp no other value of the field had, as a new one is).
    @inlinable
    public init(wrappedValue: Value, version: VersionStamp) {
        _value = wrappedValue
        _version = version
    }

    /// The value. Setting or modifying it takes a new stamp.
    @inlinable
    public var wrappedValue: Value {
        get { _value }
        set {
            _value = newValue
            _version = .next()
        }
        _modify {
            // Stamp even if the caller's mutation throws midway: a new stamp is always safe.
            defer { _version = .next() }
            yield &_value
        }
    }

    /// The stamp of the last write (or of the initial value).
    @inlinable
    public var version: VersionStamp {
        _version
    }

    /// Stores `newValue` at a new stamp. Returns `true` (the write happened).
    @inlinable
    @discardableResult
    public mutating func update(_ newValue: Value) -> Bool {
        wrappedValue = newValue
        return true
    }
}

extension StoredField where Value: Equatable {
    /// Stores `newValue` at a new stamp unless it `==` the current value, which then keeps its
    /// stamp. Returns whether it stored.
    @inlinable
    @discardableResult
    public mutating func update(_ newValue: Value) -> Bool {
        if _value == newValue { return false }
        wrappedValue = newValue
        return true
    }
}

extension StoredField: Equatable where Value: Equatable {
    /// Equal stamps, or else equal values: a copy that neither side wrote since is equal without
    /// comparing values (equal stamps imply equal values). Generated `==` compares fields this
    /// way, one statement per field.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs._version == rhs._version || lhs._value == rhs._value
    }
}

extension StoredField: Sendable where Value: Sendable {}

extension StoredField: CustomStringConvertible {
    /// The value's description followed by the stamp, e.g. `3 @v42`.
    public var description: String {
        "\(_value) @\(_version)"
    }
}
