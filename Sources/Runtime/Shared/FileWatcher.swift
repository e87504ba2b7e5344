import Dispatch
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a `.fileStorage` value watches its file (internal: tests force polling).
struct FileWatchOptions: Sendable {
    /// Whether to use the platform's notifications (inotify, a dispatch vnode source).
    var usesNotifications = true
    /// How often the file's signature (size, modification time, inode) is compared, as a
    /// fallback and for file systems that send no notifications.
    var pollInterval: Duration = .milliseconds(500)
    /// How long content that does not decode may stay unchanged before it counts as corrupt (a
    /// writer may be half-way through an in-place write).
    var settleTime: Duration = .milliseconds(500)

    static let standard = FileWatchOptions()
}

/// Tells its owner when the file at a path may have changed, on the owner's serial queue:
/// `.event` after a notification about the file's entry in its folder, `.poll` at every poll
/// tick. The owner decides whether anything changed. Lives until ``cancel()``.
final class FileWatcher: @unchecked Sendable {
    // Safety: `state` is reached only under its lock; the rest is immutable.

    enum Trigger {
        case event
        case poll
    }

    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    private struct State {
        var events: DirectoryEvents?
        /// The folder the events are armed on, to re-arm when it is replaced.
        var armedOn: Identity?
        var isEventCheckQueued = false
        var isCancelled = false
    }

    private let directory: String
    private let name: String
    private let options: FileWatchOptions
    private let queue: DispatchQueue
    private let onChange: @Sendable (Trigger) -> Void
    private let timer: any DispatchSourceTimer
    private let state = LockedBox(State())

    init(url: URL, options: FileWatchOptions, queue: DispatchQueue, onChange: @escaping @Sendable (Trigger) -> Void) {
        directory = url.deletingLastPathComponent().path
        name = url.lastPathComponent
        self.options = options
        self.queue = queue
        self.onChange = onChange
        timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = options.pollInterval.dispatchInterval
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.tick() }
        armIfNeeded(lost: false)
        timer.resume()
    }

    deinit {
        cancel()
    }

    /// Stops the poll and the notifications; their descriptors are closed shortly after.
    func cancel() {
        let events = state.withLock { state -> DirectoryEvents? in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            defer { state.events = nil }
            return state.events
        }
        events?.cancel()
        timer.cancel()
    }

    private func tick() {
        if armIfNeeded(lost: false) {
            onChange(.event)  // the folder appeared or was replaced: look at the file's content
        } else {
            onChange(.poll)
        }
    }

    /// Called from the platform's notification thread or queue.
    private func notified(lost: Bool) {
        _ = armIfNeeded(lost: lost)
        let shouldQueue = state.withLock { state -> Bool in
            guard !state.isEventCheckQueued, !state.isCancelled else { return false }
            state.isEventCheckQueued = true
            return true
        }
        guard shouldQueue else { return }
        queue.async { [weak self] in
            guard let self else { return }
            state.withLock { $0.isEventCheckQueued = false }
            onChange(.event)
        }
    }

    /// Arms the folder notifications when they are not armed on the folder that is there now.
    /// Returns whether it armed them.
    @discardableResult
    private func armIfNeeded(lost: Bool) -> Bool {
        guard options.usesNotifications else { return false }
        var info = stat()
        let current: Identity? = stat(directory, &info) == 0 ? Identity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino)) : nil
        let stale = state.withLock { state -> DirectoryEvents?? in
            guard !state.isCancelled, lost || state.armedOn != current || (current != nil && state.events == nil) else { return nil }
            defer {
                state.events = nil
                state.armedOn = nil
            }
            return .some(state.events)
        }
        guard let stale else { return false }
        stale?.cancel()
        guard current != nil else { return false }
        let events = DirectoryEvents(directory: directory, name: name) { [weak self] lost in
            self?.notified(lost: lost)
        }
        guard let events else { return false }
        let kept = state.withLock { state -> Bool in
            guard !state.isCancelled, state.events == nil else { return false }
            state.events = events
            state.armedOn = current
            return true
        }
        if !kept { events.cancel() }
        return kept
    }
}

#if canImport(Darwin)
/// Darwin: a dispatch vnode source on the folder reports entries added, removed or renamed
/// (an atomic replace, a delete, a move). It does not report writes inside the file: the poll
/// catches those. Kept this small because it is never compiled on the Linux machine that
/// develops the package.
final class DirectoryEvents: @unchecked Sendable {
    // Safety: immutable; dispatch sources are thread-safe.
    private let source: any DispatchSourceFileSystemObject

    init?(directory: String, name: String, onEvent: @escaping @Sendable (_ lost: Bool) -> Void) {
        let descriptor = open(directory, O_EVTONLY)
        guard descriptor >= 0 else { return nil }
        source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor, eventMask: [.write, .delete, .rename], queue: .global()
        )
        // A deleted or moved folder is noticed by the watcher's identity check.
        source.setEventHandler { onEvent(false) }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}
#elseif !canImport(Glibc)
/// Elsewhere: no notifications; the poll does the work.
final class DirectoryEvents: Sendable {
    init?(directory: String, name: String, onEvent: @escaping @Sendable (_ lost: Bool) -> Void) {
        return nil
    }

    func cancel() {}
}
#endif
