import Foundation

/// Reads and writes one property-list type in `UserDefaults`.
struct DefaultsCoding<Value: Sendable>: Sendable {
    let read: @Sendable (UserDefaults, String) -> Value?
    let write: @Sendable (UserDefaults, String, Value) -> Void

    /// Values stored as themselves (`Bool`, `Int`, `Double`, `String`, `Data`, `Date`, `[String]`).
    static func plist() -> DefaultsCoding {
        DefaultsCoding(read: { $0.object(forKey: $1) as? Value }, write: { $0.set($2, forKey: $1) })
    }
}

/// `UserDefaults` is documented as thread-safe.
struct SendableDefaults: @unchecked Sendable {
    let defaults: UserDefaults
}

/// Writes every change straight to `UserDefaults` (which persists on its own).
final class DefaultsPersistence<Value: Sendable>: SharedPersistence, @unchecked Sendable {
    // Safety: immutable; UserDefaults is thread-safe.
    let store: SendableDefaults
    let key: String
    let coding: DefaultsCoding<Value>

    init(store: SendableDefaults, key: String, coding: DefaultsCoding<Value>) {
        self.store = store
        self.key = key
        self.coding = coding
    }

    var saveError: SharedError? { nil }

    func valueDidChange(_ value: Value) {
        coding.write(store.defaults, key, value)
    }

    func flush() throws(SharedError) {}
}

extension SharedStrategy {
    static func appStorage(_ key: String, store: UserDefaults, coding: DefaultsCoding<Value>) -> SharedStrategy {
        let defaults = SendableDefaults(defaults: store)
        let registryKey = "appStorage:\(ObjectIdentifier(store).hashValue):\(key)"
        return SharedStrategy(key: registryKey, retention: .process, makeBox: { defaultValue in
            var loadError: SharedError?
            var value = defaultValue
            if let stored = defaults.defaults.object(forKey: key) {
                if let decoded = coding.read(defaults.defaults, key) {
                    value = decoded
                } else {
                    loadError = .unexpectedStoredValue(key: key, found: String(describing: type(of: stored)))
                    reportSharedIssue(loadError!)
                }
            }
            let persistence = DefaultsPersistence(store: defaults, key: key, coding: coding)
            return SharedBox(value: value, key: registryKey, loadError: loadError, persistence: persistence)
        }, description: ".appStorage(\"\(key)\")")
    }
}

/// A type `UserDefaults` stores as itself: `Bool`, `Int`, `Double`, `String`, `Data`, `Date` and
/// `[String]`. (`URL` and `RawRepresentable` types with `String` or `Int` raw values are supported
/// by their own `appStorage` overloads.)
public protocol AppStorageValue: Sendable {}

extension Bool: AppStorageValue {}
extension Int: AppStorageValue {}
extension Double: AppStorageValue {}
extension String: AppStorageValue {}
extension Data: AppStorageValue {}
extension Date: AppStorageValue {}
extension Array: AppStorageValue where Element == String {}

extension SharedStrategy where Value: AppStorageValue {
    /// A value in `UserDefaults` (`.standard` unless `store` is given), one per key.
    ///
    /// ```swift
    /// @Shared(.appStorage("launchCount")) var launchCount = 0
    /// ```
    public static func appStorage(_ key: String, store: UserDefaults = .standard) -> SharedStrategy {
        appStorage(key, store: store, coding: .plist())
    }
}

extension SharedStrategy where Value == URL {
    /// A `URL` in `UserDefaults` (stored as its absolute string).
    public static func appStorage(_ key: String, store: UserDefaults = .standard) -> SharedStrategy {
        appStorage(key, store: store, coding: DefaultsCoding(
            read: { defaults, key in defaults.string(forKey: key).flatMap(URL.init(string:)) },
            write: { defaults, key, url in defaults.set(url.absoluteString, forKey: key) }
        ))
    }
}

extension SharedStrategy where Value: RawRepresentable, Value.RawValue == String {
    /// A `String`-backed enum (or other `RawRepresentable`) in `UserDefaults`, stored by raw value.
    public static func appStorage(_ key: String, store: UserDefaults = .standard) -> SharedStrategy {
        appStorage(key, store: store, coding: DefaultsCoding(
            read: { defaults, key in defaults.string(forKey: key).flatMap(Value.init(rawValue:)) },
            write: { defaults, key, value in defaults.set(value.rawValue, forKey: key) }
        ))
    }
}

extension SharedStrategy where Value: RawRepresentable, Value.RawValue == Int {
    /// An `Int`-backed enum (or other `RawRepresentable`) in `UserDefaults`, stored by raw value.
    public static func appStorage(_ key: String, store: UserDefaults = .standard) -> SharedStrategy {
        appStorage(key, store: store, coding: DefaultsCoding(
            read: { defaults, key in (defaults.object(forKey: key) as? Int).flatMap(Value.init(rawValue:)) },
            write: { defaults, key, value in defaults.set(value.rawValue, forKey: key) }
        ))
    }
}
