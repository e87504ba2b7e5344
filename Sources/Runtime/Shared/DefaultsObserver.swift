import Dispatch
import Foundation

/// Tells its owner, on the owner's serial queue, when a `UserDefaults` key may have changed.
/// The owner reads the key and decides. Lives until ``cancel()``.
///
/// - Apple platforms: key-value observing of the key, which also reports writes made by other
///   processes to a shared suite; keys that KVO cannot observe (containing `.` or `@`) use
///   `UserDefaults.didChangeNotification`, which reports this process's writes only.
/// - Linux: swift-corelibs-foundation has no KVO and posts `didChangeNotification` only when a
///   whole domain is replaced, not on `set(_:forKey:)`; the key is read every 250 ms, and the
///   notification is observed too.
final class DefaultsObserver: @unchecked Sendable {
    // Safety: the tokens are set in `init` and released once, under `isCancelled`'s lock; the
    // notification center, KVO registration and dispatch sources are thread-safe.

    /// How often Linux reads the key.
    static let pollInterval: Duration = .milliseconds(250)

    private let isCancelled = LockedBox(false)
    private let notificationToken: (any NSObjectProtocol)?
    private let timer: (any DispatchSourceTimer)?
    #if canImport(Darwin)
    private let keyObserver: KeyValueObserver?
    #endif

    init(defaults: UserDefaults, key: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
        // Notifications and KVO callbacks come synchronously on the writer's thread, possibly
        // under the writer's lock: the owner looks at the key later, on its queue.
        let changed: @Sendable () -> Void = { queue.async(execute: onChange) }
        #if canImport(Darwin)
        // Darwin: KVO sees other processes' writes; it cannot observe key paths with . or @.
        let observable = !key.contains(".") && !key.hasPrefix("@")
        keyObserver = observable ? KeyValueObserver(defaults: defaults, key: key, onChange: changed) : nil
        notificationToken = observable ? nil : NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification, object: nil, queue: nil
        ) { _ in changed() }
        timer = nil
        #else
        notificationToken = NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification, object: nil, queue: nil
        ) { _ in changed() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = Self.pollInterval.dispatchInterval
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler(handler: onChange)
        timer.resume()
        self.timer = timer
        #endif
    }

    deinit {
        cancel()
    }

    /// Stops observing; calling it again does nothing.
    func cancel() {
        let wasCancelled = isCancelled.withLock { isCancelled in
            defer { isCancelled = true }
            return isCancelled
        }
        guard !wasCancelled else { return }
        if let notificationToken {
            NotificationCenter.default.removeObserver(notificationToken)
        }
        timer?.cancel()
        #if canImport(Darwin)
        keyObserver?.cancel()
        #endif
    }
}

#if canImport(Darwin)
/// Darwin: key-value observing of one `UserDefaults` key (reports other processes' writes to a
/// shared suite too). Kept this small because it is never compiled on the Linux machine that
/// develops the package.
final class KeyValueObserver: NSObject, @unchecked Sendable {
    // Safety: immutable; KVO registration is thread-safe.
    private let defaults: UserDefaults
    private let key: String
    private let onChange: @Sendable () -> Void

    init(defaults: UserDefaults, key: String, onChange: @escaping @Sendable () -> Void) {
        self.defaults = defaults
        self.key = key
        self.onChange = onChange
        super.init()
        defaults.addObserver(self, forKeyPath: key, options: [], context: nil)
    }

    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?
    ) {
        onChange()
    }

    /// Called once, by ``DefaultsObserver/cancel()``.
    func cancel() {
        defaults.removeObserver(self, forKeyPath: key)
    }
}
#endif
