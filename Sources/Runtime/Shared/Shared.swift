/// A value shared by reference: every holder sees every write, as TCA's `@Shared`.
///
/// ```swift
/// struct ParentState {
///     @Shared(.inMemory("count")) var count = 0
///     @Shared(.fileStorage("settings.json")) var settings = Settings()
///     @Shared(.appStorage("launchCount")) var launchCount = 0
/// }
/// let child = ChildState(count: parent.$count)     // hand the reference to a child
/// parent.$count.withLock { $0 += 1 }               // atomic read-modify-write
/// for await value in parent.$count.values { … }    // the current value, then each change
/// ```
///
/// `Shared` has reference semantics inside a value type: copying a state copies the reference,
/// not the value, and `==` compares the current values. Every write of a new value takes a new
/// ``VersionStamp``; for an `Equatable` value, a write of a value `==` to the current one is no
/// write (no new version, no save, nobody notified). A ``Store`` of a generated state hears the
/// changes of its `@Shared` fields, whoever makes them. Persisted values follow their storage: changes made to the file or the
/// `UserDefaults` key by others reach every holder, through ``values``, ``subscribe(_:)`` and
/// Observation (reading ``wrappedValue`` inside `withObservationTracking` or a SwiftUI body
/// tracks it).
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value: Sendable>: Sendable {
    @usableFromInline let box: SharedBox<Value>

    init(box: SharedBox<Value>) {
        self.box = box
    }

    /// The value stored under `strategy`'s key, or `wrappedValue` when the storage has none yet.
    ///
    /// For an existing key the stored value wins and `wrappedValue` is ignored. A key already
    /// used with a value of another type does not crash: this `Shared` gets its own unshared
    /// value, and ``loadError`` says why.
    public init(wrappedValue: @autoclosure () -> Value, _ strategy: SharedStrategy<Value>) {
        box = SharedRegistry.box(for: strategy.key, retention: strategy.retention) {
            strategy.makeBox(wrappedValue())
        }
    }

    /// A new reference to `value`, not stored under any key.
    public init(value: Value) {
        box = SharedBox(value: value, key: nil)
    }

    /// The same reference as `projectedValue`: how a parent hands its value to a child,
    /// `ChildState(count: parent.$count)`.
    public init(projectedValue: Shared<Value>) {
        self = projectedValue
    }

    /// The current value. Setting it replaces the value for every holder (setting a value `==`
    /// to the current one does nothing).
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.withLock { $0 = newValue } }
    }

    /// The reference itself, as `$field`.
    public var projectedValue: Shared<Value> {
        self
    }

    /// A member of the value: `settings.theme` reads `settings.wrappedValue.theme`.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        box.value[keyPath: keyPath]
    }

    /// Runs `body` with exclusive access to the value, for atomic read-modify-write; every holder
    /// sees the result.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.withLock(body)
    }

    /// Changes with every write of a new value.
    @inlinable
    public var version: VersionStamp {
        box.version
    }

    /// The current value, then the value after each write; buffering keeps only the latest.
    public var values: AsyncStream<Value> {
        box.values
    }

    /// Calls `handler` after every write until the returned token is cancelled or released.
    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> StoreSubscription {
        box.subscribe(handler)
    }

    /// Calls `handler` after every write, as ``subscribe(_:)``, and with `includingCurrent`
    /// first with the current value: atomically, so no write is missed or delivered twice. The
    /// current value is delivered in order before any later write (see
    /// ``Store/subscribe(includingCurrent:_:)``). The token does not keep the reference alive.
    public func subscribe(
        includingCurrent: Bool,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> StoreSubscription {
        includingCurrent ? box.subscribeIncludingCurrent(handler) : box.subscribe(handler)
    }

    /// A read-only view of the same reference.
    public var reader: SharedReader<Value> {
        SharedReader(self)
    }

    /// Why the stored value could not be used, if it could not: a corrupt or unreadable file
    /// (moved aside, see ``SharedError/unreadableFile(url:backup:reason:)``), a file changed by
    /// someone else while a local change was waiting (``SharedError/overwroteExternalChange(url:backup:)``),
    /// a key used with another type, or a `UserDefaults` value of another type. The latest load
    /// decides: a valid value read later from the storage clears it.
    public var loadError: SharedError? {
        box.loadError
    }

    /// The error of the last background write, or `nil` when it succeeded.
    public var saveError: SharedError? {
        box.persistence?.saveError
    }

    /// Writes any pending change to storage now. Returns once the data is on disk for
    /// `.fileStorage`; does nothing for `.inMemory` and `.appStorage`.
    public func save() throws(SharedError) {
        try box.persistence?.flush()
    }

    /// Reads the storage now and, when it holds something else, makes that the value for every
    /// holder: for when you know the file or `UserDefaults` key changed and do not want to wait
    /// for the watcher. Does nothing for `.inMemory`.
    ///
    /// A local change of a `.fileStorage` value that is waiting to be saved is saved first (it
    /// wins, see ``SharedStrategy/fileStorage(_:coalescing:)-(URL,_)``). A corrupt file is moved
    /// aside at once, reported in ``loadError`` and thrown; the value is kept.
    public func reload() throws(SharedError) {
        try box.persistence?.reload()
    }

    /// Whether two `Shared` values are the same reference.
    public func isSameReference(as other: Shared<Value>) -> Bool {
        box === other.box
    }
}

extension Shared: Equatable where Value: Equatable {
    /// Compares the current values.
    public static func == (lhs: Shared, rhs: Shared) -> Bool {
        lhs.box === rhs.box || lhs.wrappedValue == rhs.wrappedValue
    }
}

extension Shared: Hashable where Value: Hashable {
    /// Hashes the current value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension Shared: CustomStringConvertible {
    public var description: String {
        "Shared(\(wrappedValue))"
    }
}

/// A read-only view of a ``Shared`` value, for features that must not write it.
@propertyWrapper
@dynamicMemberLookup
public struct SharedReader<Value: Sendable>: Sendable {
    private let shared: Shared<Value>

    /// A reader of `shared`'s reference.
    public init(_ shared: Shared<Value>) {
        self.shared = shared
    }

    /// A reader of the value stored under `strategy`'s key (see ``Shared/init(wrappedValue:_:)``).
    public init(wrappedValue: @autoclosure () -> Value, _ strategy: SharedStrategy<Value>) {
        shared = Shared(wrappedValue: wrappedValue(), strategy)
    }

    /// A reader of the same reference, `ChildState(count: parent.$count.reader)`.
    public init(projectedValue: SharedReader<Value>) {
        self = projectedValue
    }

    /// The current value.
    public var wrappedValue: Value {
        shared.wrappedValue
    }

    /// The reader itself, as `$field`.
    public var projectedValue: SharedReader<Value> {
        self
    }

    /// A member of the value.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        shared[dynamicMember: keyPath]
    }

    /// Changes with every write.
    public var version: VersionStamp {
        shared.version
    }

    /// The current value, then the value after each write.
    public var values: AsyncStream<Value> {
        shared.values
    }

    /// Calls `handler` after every write until the returned token is cancelled or released.
    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> StoreSubscription {
        shared.subscribe(handler)
    }

    /// See ``Shared/subscribe(includingCurrent:_:)``.
    public func subscribe(
        includingCurrent: Bool,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> StoreSubscription {
        shared.subscribe(includingCurrent: includingCurrent, handler)
    }

    /// See ``Shared/loadError``.
    public var loadError: SharedError? {
        shared.loadError
    }

    /// See ``Shared/reload()``.
    public func reload() throws(SharedError) {
        try shared.reload()
    }
}

// MARK: - Codable

/// Encodes the current value, so that a plain type holding `@Shared` fields (a spec written as
/// plain Swift) may be `Codable`.
///
/// A generated state does not use this: it leaves its `@Shared` fields out of its encoding, since
/// they persist through their own storage.
extension Shared: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// Decodes a reference of its own to the decoded value, stored under no key: decoding never
/// writes to a storage that other holders share (see ``init(value:)``).
///
/// A generated state does not use this: it reads its `@Shared` fields from their storage.
extension Shared: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(value: try container.decode(Value.self))
    }
}
