import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Stores a `Codable` value as JSON in one file: loads it once, writes atomically, coalesces
/// rapid writes, and never overwrites a file it could not read.
final class FilePersistence<Value: Codable & Sendable>: SharedPersistence, @unchecked Sendable {
    // Safety: `state` is reached only under its lock; `writeLock` serializes file writes.

    private struct State {
        /// The newest value not yet written.
        var pending: Value?
        var isScheduled = false
        var saveError: SharedError?
    }

    let url: URL
    private let coalescing: DispatchTimeInterval
    /// Set when an unreadable file could not be moved aside: then nothing is ever written.
    private let blockedBy: SharedError?
    private let state = LockedBox(State())
    private let writeLock = Lock.make()
    private let queue = DispatchQueue(label: "ComputedRuntime.Shared.fileStorage")

    private init(url: URL, coalescing: Duration, blockedBy: SharedError?) {
        self.url = url
        self.blockedBy = blockedBy
        let (seconds, attoseconds) = coalescing.components
        self.coalescing = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// Loads the file (or takes `defaultValue`) and makes the shared reference for it.
    static func makeBox(url: URL, defaultValue: Value, coalescing: Duration) -> SharedBox<Value> {
        let loaded = load(url: url, defaultValue: defaultValue)
        let blockedBy: SharedError? = if case .unreadableFile(_, nil, _) = loaded.error { loaded.error } else { nil }
        let persistence = FilePersistence(url: url, coalescing: coalescing, blockedBy: blockedBy)
        ExitFlusher.register(persistence)
        return SharedBox(value: loaded.value, key: "file:" + url.path, loadError: loaded.error, persistence: persistence)
    }

    // MARK: Loading

    private static func load(url: URL, defaultValue: Value) -> (value: Value, error: SharedError?) {
        AtomicFile.removeStaleTemporaryFiles(for: url)
        guard FileManager.default.fileExists(atPath: url.path) else {
            return (defaultValue, nil)
        }
        let reason: String
        do {
            let data = try Data(contentsOf: url)
            return (try JSONDecoder().decode(Value.self, from: data), nil)
        } catch let error as DecodingError {
            reason = "not a valid \(Value.self) in JSON: \(describe(error))"
        } catch {
            reason = error.localizedDescription
        }
        let backup = moveAside(url)
        let error = SharedError.unreadableFile(url: url, backup: backup, reason: reason)
        reportSharedIssue(error)
        return (defaultValue, error)
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context),
             .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }

    /// Renames the file to `<name>.corrupt-<UTC timestamp>[-n]`; `nil` when that fails.
    private static func moveAside(_ url: URL) -> URL? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: Date()).replacingOccurrences(of: ":", with: "")
        let base = url.lastPathComponent + ".corrupt-" + stamp
        for attempt in 0..<100 {
            let name = attempt == 0 ? base : "\(base)-\(attempt)"
            let backup = url.deletingLastPathComponent().appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: backup.path) { continue }
            if (try? FileManager.default.moveItem(at: url, to: backup)) != nil {
                return backup
            }
            return nil
        }
        return nil
    }

    // MARK: Writing

    var saveError: SharedError? {
        state.withLock { $0.saveError }
    }

    func valueDidChange(_ value: Value) {
        let shouldSchedule = state.withLock { state -> Bool in
            state.pending = value
            guard !state.isScheduled else { return false }
            state.isScheduled = true
            return true
        }
        guard shouldSchedule else { return }
        queue.asyncAfter(deadline: .now() + coalescing) { [self] in
            do throws(SharedError) {
                try flush()
            } catch {
                reportSharedIssue(error)
            }
        }
    }

    func flush() throws(SharedError) {
        if let blockedBy { throw blockedBy }
        try writeLock.withLock { () throws(SharedError) in
            // Taking the newest value under the write lock keeps writes in order.
            let value = state.withLock { state -> Value? in
                defer {
                    state.pending = nil
                    state.isScheduled = false
                }
                return state.pending
            }
            guard let value else { return }
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try AtomicFile.write(encoder.encode(value), to: url)
                state.withLock { $0.saveError = nil }
            } catch {
                let failure = SharedError.writeFailed(url: url, reason: String(describing: error))
                // Keep the value pending so that the next write or save retries it.
                state.withLock { state in
                    if state.pending == nil { state.pending = value }
                    state.saveError = failure
                }
                throw failure
            }
        }
    }
}

/// Atomic file replacement: write a temporary file in the same directory, flush it to disk,
/// rename it over the destination, then flush the directory.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary.path)") }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary.path) }
        }
        do {
            defer { close(descriptor) }
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure("cannot write \(temporary.path)")
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw failure("cannot flush \(temporary.path)") }
        }
        guard rename(temporary.path, url.path) == 0 else { throw failure("cannot rename onto \(url.path)") }
        succeeded = true
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Removes temporary files that writers of `url` left behind when they were killed mid-write
    /// (`.<name>.tmp-<pid>-<n>` whose process no longer exists).
    static func removeStaleTemporaryFiles(for url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pidText = rest.split(separator: "-").first, let pid = pid_t(pidText) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(directory.appendingPathComponent(name).path)
            }
        }
    }

    private static func failure(_ message: String) -> Failure {
        Failure(description: "\(message): \(String(cString: strerror(errno)))")
    }
}

/// Flushes pending file writes when the process exits normally.
enum ExitFlusher {
    private final class Weak: @unchecked Sendable {
        weak var persistence: (any SharedPersistence)?

        init(_ persistence: any SharedPersistence) {
            self.persistence = persistence
        }
    }

    private static let registered = LockedBox<[Weak]>([])
    private static let installHandler: Void = {
        atexit { ExitFlusher.flushAll() }
    }()

    static func register(_ persistence: any SharedPersistence) {
        _ = installHandler
        registered.withLock { list in
            list.removeAll { $0.persistence == nil }
            list.append(Weak(persistence))
        }
    }

    static func flushAll() {
        let alive = registered.withLock { $0.compactMap(\.persistence) }
        for persistence in alive {
            try? persistence.flush()
        }
    }
}
