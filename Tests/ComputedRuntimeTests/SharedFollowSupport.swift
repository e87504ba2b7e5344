import Foundation
import Testing

@testable import ComputedRuntime

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Resumes a continuation once, from whichever comes first: a value that satisfies the
/// predicate, or the timeout.
private final class FirstOf: @unchecked Sendable {
    // Safety: every member is reached only under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<ContinuousClock.Instant?, Never>?
    private var subscription: StoreSubscription?

    func start(_ continuation: CheckedContinuation<ContinuousClock.Instant?, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func keep(_ subscription: StoreSubscription) {
        let keep = lock.withLock { () -> Bool in
            guard continuation != nil else { return false }
            self.subscription = subscription
            return true
        }
        if !keep { subscription.cancel() }
    }

    /// Resumes with the moment of success (taken here, on the thread that saw the value, so a
    /// test task that waits for a thread does not count), or `nil` on timeout.
    func finish(_ succeeded: Bool) {
        let result = succeeded ? ContinuousClock.now : nil
        let (continuation, subscription) = lock.withLock { () -> (CheckedContinuation<ContinuousClock.Instant?, Never>?, StoreSubscription?) in
            defer {
                self.continuation = nil
                self.subscription = nil
            }
            return (self.continuation, self.subscription)
        }
        subscription?.cancel()
        continuation?.resume(returning: result)
    }
}

/// Waits, without polling, until `shared` holds a value for which `predicate` is true (now or
/// after a change) and returns how long after `start` that happened, or `nil` after `timeout`.
func waitForValue<Value: Sendable>(
    _ shared: Shared<Value>,
    timeout: Duration = .seconds(10),
    since start: ContinuousClock.Instant = .now,
    _ predicate: @escaping @Sendable (Value) -> Bool
) async -> Duration? {
    let first = FirstOf()
    let satisfied = await withCheckedContinuation { continuation in
        first.start(continuation)
        first.keep(shared.subscribe { value in
            if predicate(value) { first.finish(true) }
        })
        if predicate(shared.wrappedValue) { first.finish(true) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { first.finish(false) }
    }
    return satisfied.map { start.duration(to: $0) }
}

/// Waits until `condition` holds, checking every 5 ms, for states that publish no change (files
/// on disk, `loadError`). Returns whether it held before `timeout`.
func eventually(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return try condition()
}

/// Changes files as another program would.
enum ExternalFile {
    /// Rewrites the file in place: truncate, write, close.
    static func writeInPlace(_ text: String, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        let data = Data(text.utf8)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Writes a temporary file and renames it over the file.
    static func replace(_ text: String, at url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".editor-\(UUID().uuidString)")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    static func read(_ url: URL) -> String? {
        (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The files in the folder whose names contain `marker`.
    static func backups(in directory: URL, _ marker: String) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.contains(marker) }
            .map { directory.appendingPathComponent($0) }
    }
}

/// Collects the values a `Shared` publishes.
final class Recorded<Value: Sendable>: @unchecked Sendable {
    // Safety: `values` is reached only under `lock`.
    private let lock = NSLock()
    private var values: [Value] = []
    private var subscription: StoreSubscription?

    init(_ shared: Shared<Value>) {
        subscription = shared.subscribe { [weak self] value in
            guard let self else { return }
            lock.withLock { values.append(value) }
        }
    }

    var all: [Value] {
        lock.withLock { values }
    }
}
