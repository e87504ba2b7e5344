/// A versioned value, as Verge's `Edge`: every write takes a new ``VersionStamp``, so "did this
/// change?" is one integer comparison and the value needs no `Equatable` conformance.
///
/// ```swift
/// struct Profile {
///     @Edge var avatar: Avatar? = nil                                 // no Equatable needed
///     @Edge(middleware: .onSet { $0 = min($0, 99) }) var badge = 0    // adjusted on every set
/// }
/// profile.$avatar.version   // changes on every write
/// ```
///
/// - Every `set` and every in-place `modify` (e.g. `x.append(…)`) runs the middleware and takes a
///   new stamp, even when the new value equals the old one. `modify` stays in place: the value is
///   never copied.
/// - Equality (``==(_:_:)``): equal stamps mean equal values (without comparing them). Different
///   stamps compare the values with `==` when `Value` is `Equatable` at run time, otherwise the
///   edges are unequal. That last case is a documented *false negative*: two separately written
///   but identical non-`Equatable` values compare unequal, which can only cause extra work, never
///   a missed update.
/// - Copies share the stamp until one of them is written.
@propertyWrapper
public struct Edge<Value> {
    @usableFromInline
    var _value: Value

    @usableFromInline
    var _version: VersionStamp

    @usableFromInline
    let _middleware: Middleware?

    /// Creates an edge holding `wrappedValue` (after the middleware ran on it) at a new stamp.
    ///
    /// The middleware also runs on the initial value: `onSet` may adjust it and `assert` checks it.
    @inlinable
    public init(wrappedValue: Value, middleware: Middleware? = nil) {
        var value = wrappedValue
        middleware?._apply(&value)
        _value = value
        _version = .next()
        _middleware = middleware
    }

    /// Creates an edge whose every write (and the initial value) passes through `onSet`.
    ///
    /// Shorthand for `init(wrappedValue:middleware: .onSet(onSet))`, so `@Edge(onSet: { … })`.
    @inlinable
    public init(wrappedValue: Value, onSet: @escaping @Sendable (inout Value) -> Void) {
        self.init(wrappedValue: wrappedValue, middleware: Middleware(onSet: onSet))
    }

    /// Creates an edge whose every written value (and the initial value) must satisfy
    /// `condition`, checked in debug builds only.
    ///
    /// Shorthand for `init(wrappedValue:middleware: .assert(condition))`, so `@Edge(assert: { … })`.
    @inlinable
    public init(
        wrappedValue: Value,
        assert condition: @escaping @Sendable (Value) -> Bool,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(
            wrappedValue: wrappedValue,
            middleware: .assert(condition, file: file, line: line)
        )
    }

    /// Creates an edge whose every written value (and the initial value) is checked by
    /// `condition` (in debug builds only), then passes through `onSet`, in that order.
    ///
    /// Shorthand for `init(wrappedValue:middleware: .init([.assert(condition), .onSet(onSet)]))`,
    /// so `@Edge(assert: { … }, onSet: { … })`, as a spec writes it.
    @inlinable
    public init(
        wrappedValue: Value,
        assert condition: @escaping @Sendable (Value) -> Bool,
        onSet: @escaping @Sendable (inout Value) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(
            wrappedValue: wrappedValue,
            middleware: Middleware([.assert(condition, file: file, line: line), .onSet(onSet)])
        )
    }

    /// The value. Every set or modify runs the middleware and takes a new version stamp.
    @inlinable
    public var wrappedValue: Value {
        get { _value }
        set {
            _value = newValue
            _didWrite()
        }
        _modify {
            // Stamp even if the caller's mutation throws midway: a new stamp is always safe.
            defer { _didWrite() }
            yield &_value
        }
    }

    /// The edge itself, so `$x.version` reads the stamp.
    @inlinable
    public var projectedValue: Edge<Value> {
        self
    }

    /// The stamp of the last write (or of the initialization).
    @inlinable
    public var version: VersionStamp {
        _version
    }

    @inlinable
    mutating func _didWrite() {
        if let middleware = _middleware {
            middleware._apply(&_value)
        }
        _version = .next()
    }
}

extension Edge: Sendable where Value: Sendable {}

// MARK: - Assignment that skips equal values

extension Edge {
    /// Stores `newValue` (through the middleware) and takes a new stamp; returns `true`.
    ///
    /// The overload for `Equatable` values skips an equal value instead. Generated states assign
    /// their plain fields through this, so that which one runs is decided by the field's type at
    /// compile time.
    @inlinable
    @discardableResult
    public mutating func update(_ newValue: Value) -> Bool {
        wrappedValue = newValue
        return true
    }
}

extension Edge where Value: Equatable {
    /// Stores `newValue` and takes a new stamp, unless it `==` the current value: then nothing
    /// changes, not even the stamp, and this returns `false`.
    ///
    /// The comparison is with the value as given, before any middleware runs on it.
    @inlinable
    @discardableResult
    public mutating func update(_ newValue: Value) -> Bool {
        if _value == newValue { return false }
        wrappedValue = newValue
        return true
    }
}

// MARK: - Middleware

extension Edge {
    /// Code run on every write of an ``Edge`` (and on its initial value), in order: `onSet` may
    /// adjust the new value, `assert` checks it in debug builds.
    ///
    /// Compose several with ``init(_:)``: `Middleware([.assert { $0 >= 0 }, .onSet { $0 = min($0, 99) }])`.
    public struct Middleware: Sendable {
        @usableFromInline
        let _apply: @Sendable (inout Value) -> Void

        /// A middleware that runs `onSet` on every new value; `onSet` may modify it.
        @inlinable
        public init(onSet: @escaping @Sendable (inout Value) -> Void) {
            _apply = onSet
        }

        /// Composes `middlewares`: each runs, in array order, on the value the previous left.
        public init(_ middlewares: [Middleware]) {
            switch middlewares.count {
            case 0:
                _apply = { _ in }
            case 1:
                _apply = middlewares[0]._apply
            default:
                _apply = { value in
                    for middleware in middlewares {
                        middleware._apply(&value)
                    }
                }
            }
        }

        /// A middleware that runs `body` on every new value; `body` may modify it.
        @inlinable
        public static func onSet(_ body: @escaping @Sendable (inout Value) -> Void) -> Middleware {
            Middleware(onSet: body)
        }

        /// A middleware that checks `condition` on every new value and stops the program with
        /// `message` when it fails, in debug builds only (as `Swift.assert`: the check is
        /// compiled out with `-O`). It never changes the value.
        @inlinable
        public static func assert(
            _ condition: @escaping @Sendable (Value) -> Bool,
            _ message: @autoclosure @escaping @Sendable () -> String = "",
            file: StaticString = #fileID,
            line: UInt = #line
        ) -> Middleware {
            Middleware(onSet: { value in
                Swift.assert(condition(value), message(), file: file, line: line)
            })
        }
    }
}

// MARK: - Equality, hashing, coding

extension Edge: Equatable {
    /// Equal stamps ⇒ equal (values not compared). Different stamps: `==` on the values when
    /// `Value` is `Equatable` (checked at run time), otherwise `false` (a documented false
    /// negative for non-`Equatable` values).
    @inlinable
    public static func == (lhs: Edge, rhs: Edge) -> Bool {
        if lhs._version == rhs._version {
            return true
        }
        return _DynamicEquality<Value>().isEqual(lhs._value, rhs._value) ?? false
    }
}

extension Edge: Hashable where Value: Hashable {
    /// Hashes the value only (consistent with ``==(_:_:)``: equal edges have equal values).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_value)
    }
}

extension Edge: Encodable where Value: Encodable {
    /// Encodes the value only, as a single value (stamps are process-local and not persisted).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(_value)
    }
}

extension Edge: Decodable where Value: Decodable {
    /// Decodes the value from a single value and takes a new stamp. No middleware is attached.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: try container.decode(Value.self))
    }
}

extension Edge: CustomStringConvertible {
    /// The value's description followed by the stamp, e.g. `3 @v42`.
    public var description: String {
        "\(_value) @\(_version)"
    }
}
