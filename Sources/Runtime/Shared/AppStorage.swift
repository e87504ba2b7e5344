import Foundation

/// Reads, writes and compares one property-list type in `UserDefaults`.
struct DefaultsCoding<Value: Sendable>: Sendable {
    let read: @Sendable (UserDefaults, String) -> Value?
    let write: @Sendable (UserDefaults, String, Value) -> Void
    let isEqual: @Sendable (Value, Value) -> Bool
}

extension DefaultsCoding where Value: Equatable {
    /// Values stored as themselves (`Bool`, `Int`, `Double`, `String`, `Data`, `Date`, `[String]`).
    static func plist() -> DefaultsCoding {
        DefaultsCoding(read: { $0.object(forKey: $1) as? Value }, write: { $0.set($2, forKey: $1) }, isEqual: ==)
    }
}

/// `UserDefaults` is documented as thread-safe.
struct SendableDefaults: @unchecked Sendable {
    let defaults: UserDefaults
}

/// Writes every change straight to `UserDefaults` (which persists on its own), and follows
/// writes that others make to the key (see ``DefaultsObserver``).
final class DefaultsPersistence<Value: Sendable>: SharedPersistence, @unchecked Sendable {
    // Safety: `state` is reached only under its lock; the rest is immutable; UserDefaults is
    // thread-safe.
    private struct State {
        weak var box: SharedBox<Value>?
        var observer: DefaultsObserver?
        var loadError: SharedError?
    }

    let store: SendableDefaults
    let key: String
    let coding: DefaultsCoding<Value>
    let defaultValue: Value
    private let state: LockedBox<State>
    private let queue = DispatchQueue(label: "ComputedRuntime.Shared.appStorage")

    init(store: SendableDefaults, key: String, coding: DefaultsCoding<Value>, defaultValue: Value, loadError: SharedError?) {
        self.store = store
        self.key = key
        self.coding = coding
        self.defaultValue = defaultValue
        state = LockedBox(State(loadError: loadError))
    }

    deinit {
        state.withLock { $0.observer }?.cancel()
    }

    var saveError: SharedError? { nil }

    var loadError: SharedError? {
        state.withLock { $0.loadError }
    }

    func valueDidChange(_ value: Value) {
        coding.write(store.defaults, key, value)
    }

    func flush() throws(SharedError) {}

    func attach(to box: SharedBox<Value>) {
        let observer = DefaultsObserver(defaults: store.defaults, key: key, queue: queue) { [weak self] in
            self?.check()
        }
        state.withLock { state in
            state.box = box
            state.observer = observer
        }
    }

    func reload() throws(SharedError) {
        check()
    }

    /// Reads the key and, when it holds another value than the box, makes it the value. The key
    /// is read under the box's lock, where local writes happen too, so a local write and an
    /// outside one are never interleaved: the last one to reach `UserDefaults` wins.
    private func check() {
        guard let box = state.withLock({ $0.box }) else { return }
        defer { withExtendedLifetime(box) {} }
        let defaults = store.defaults
        box.replaceFromStorage { current, commit in
            let value: Value
            var error: SharedError?
            if let stored = defaults.object(forKey: key) {
                guard let decoded = coding.read(defaults, key) else {
                    // Another type: ignored, the last good value stays (as for a corrupt file).
                    error = .unexpectedStoredValue(key: key, found: String(describing: type(of: stored)))
                    let isNew = state.withLock { state -> Bool in
                        defer { state.loadError = error }
                        return state.loadError != error
                    }
                    if isNew { reportSharedIssue(error!) }
                    return nil
                }
                value = decoded
            } else {
                value = defaultValue  // a removed key brings back the default value
            }
            if coding.isEqual(value, current) { return nil }
            if commit { state.withLock { $0.loadError = nil } }
            return value
        }
    }
}

extension SharedStrategy {
    static func appStorage(_ key: String, store: UserDefaults, coding: DefaultsCoding<Value>) -> SharedStrategy {
        let defaults = SendableDefaults(defaults: store)
        let registryKey = "appStorage:\(ObjectIdentifier(store).hashValue):\(key)"
        return SharedStrategy(key: registryKey, retention: .whileHeld, makeBox: { defaultValue in
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
            let persistence = DefaultsPersistence(store: defaults, key: key, coding: coding, defaultValue: defaultValue, loadError: loadError)
            return SharedBox(value: value, key: registryKey, persistence: persistence)
        }, description: ".appStorage(\"\(key)\")")
    }
}

/// A type `UserDefaults` stores as itself: `Bool`, `Int`, `Double`, `String`, `Data`, `Date` and
/// `[String]`. (`URL` and `RawRepresentable` types with `String` or `Int` raw values are supported
/// by their own `appStorage` overloads.)
public protocol AppStorageValue: Equatable, Sendable {}

extension Bool: AppStorageValue {}
extension Int: AppStorageValue {}
extension Double: AppStorageValue {}
extension String: AppStorageValue {}
extension Data: AppStorageValue {}
extension Date: AppStorageValue {}
extension Array: AppStorageValue where Element == String {}

extension SharedStrategy where Value: AppStorageValue {
    /// A value in `UserDefaults` (`.standard` unless `store` is given), one per key, kept in
    /// step with the key.
    ///
    /// Writes to the key by other code (`UserDefaults.set`, `removeObject`, which brings back the
    /// default value) reach every holder: on Apple platforms through key-value observing, which
    /// also sees other processes sharing the suite (keys containing `.` or `@` cannot be observed
    /// that way and use `UserDefaults.didChangeNotification`, this process only); on Linux, where
    /// Foundation has neither, by reading the key every 250 ms. A stored value of another type is
    /// reported in ``Shared/loadError`` and ignored.
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
            write: { defaults, key, url in defaults.set(url.absoluteString, forKey: key) },
            isEqual: ==
        ))
    }
}

extension SharedStrategy where Value: RawRepresentable, Value.RawValue == String {
    /// A `String`-backed enum (or other `RawRepresentable`) in `UserDefaults`, stored by raw value.
    public static func appStorage(_ key: String, store: UserDefaults = .standard) -> SharedStrategy {
        appStorage(key, store: store, coding: DefaultsCoding(
            read: { defaults, key in defaults.string(forKey: key).flatMap(Value.init(rawValue:)) },
            write: { defaults, key, value in defaults.set(value.rawValue, forKey: key) },
            isEqual: { $0.rawValue == $1.rawValue }
        ))
    }
}

extension SharedStrategy where Value: RawRepresentable, Value.RawValue == Int {
    /// An `Int`-backed enum (or other `RawRepresentable`) in `UserDefaults`, stored by raw value.
    public static func appStorage(_ key: String, store: UserDefaults = .standard) -> SharedStrategy {
        appStorage(key, store: store, coding: DefaultsCoding(
            read: { defaults, key in (defaults.object(forKey: key) as? Int).flatMap(Value.init(rawValue:)) },
            write: { defaults, key, value in defaults.set(value.rawValue, forKey: key) },
            isEqual: { $0.rawValue == $1.rawValue }
        ))
    }
}
