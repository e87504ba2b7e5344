import Foundation

/// Stores a `Codable` value as JSON in one file: loads it, writes atomically, coalesces rapid
/// writes, never overwrites a file it could not read, and follows changes others make to the
/// file (see `FileStorageFollowing.swift`).
///
/// Conflict policy: a local change not yet saved when the file changes on disk wins; the other
/// content is moved aside to `<name>.conflict-<timestamp>` before the save, and reported in
/// `loadError`. An external change with no local change pending replaces the value.
final class FilePersistence<Value: Codable & Sendable>: SharedPersistence, @unchecked Sendable {
    // Safety: `state` is reached only under its lock; `writeLock` serializes the file's writes
    // and this process's reads of it. Lock order: writeLock, then the box's lock, then `state`.

    struct State {
        /// The newest local value not yet written.
        var pending: Value?
        var isScheduled = false
        var saveError: SharedError?
        var loadError: SharedError?
        /// Set when an unreadable file could not be moved aside: nothing is written until the
        /// file is replaced by a readable one or removed.
        var blockedBy: SharedError?
        /// The file as this process last wrote or read it; `nil` when there was none.
        var known: FileSnapshot?
        /// Counts local changes: a value read from the file never replaces a newer local one.
        var localChanges: UInt64 = 0
        /// Numbers the reads of the file; an older read never replaces a newer one.
        var reads: UInt64 = 0
        var lastAppliedRead: UInt64 = 0
        /// A file that did not decode, and since when: it counts as corrupt once it stayed so
        /// for the settle time (it may be mid-write).
        var undecodable: (signature: FileSignature, since: ContinuousClock.Instant)?
        weak var box: SharedBox<Value>?
        var watcher: FileWatcher?
    }

    let url: URL
    let defaultValue: Value
    let options: FileWatchOptions
    private let coalescing: DispatchTimeInterval
    let state: LockedBox<State>
    let writeLock = Lock.make()
    let queue = DispatchQueue(label: "ComputedRuntime.Shared.fileStorage")

    private init(url: URL, defaultValue: Value, coalescing: Duration, options: FileWatchOptions, initial: State) {
        self.url = url
        self.defaultValue = defaultValue
        self.options = options
        self.coalescing = coalescing.dispatchInterval
        state = LockedBox(initial)
    }

    deinit {
        state.withLock { $0.watcher }?.cancel()
    }

    /// Loads the file (or takes `defaultValue`) and makes the shared reference for it.
    static func makeBox(url: URL, defaultValue: Value, coalescing: Duration, options: FileWatchOptions) -> SharedBox<Value> {
        let loaded = load(url: url, defaultValue: defaultValue)
        var initial = State()
        initial.loadError = loaded.error
        initial.known = loaded.known
        if case .unreadableFile(_, nil, _) = loaded.error { initial.blockedBy = loaded.error }
        let persistence = FilePersistence(url: url, defaultValue: defaultValue, coalescing: coalescing, options: options, initial: initial)
        ExitFlusher.register(persistence)
        return SharedBox(value: loaded.value, key: "file:" + url.path, persistence: persistence)
    }

    // MARK: Loading

    private static func load(url: URL, defaultValue: Value) -> (value: Value, error: SharedError?, known: FileSnapshot?) {
        AtomicFile.removeStaleTemporaryFiles(for: url)
        guard let signature = FileSignature.of(path: url.path) else {
            return (defaultValue, nil, nil)
        }
        switch decode(url: url) {
        case .success(let (value, data)):
            return (value, nil, FileSnapshot(signature: signature, data: data))
        case .failure(let failure):
            let backup = FilePath.moveAside(url, label: "corrupt")
            let error = SharedError.unreadableFile(url: url, backup: backup, reason: failure.reason)
            reportSharedIssue(error)
            // A file that stays in place is remembered, so that it is not reported again.
            let known = backup == nil ? FileSnapshot(signature: signature, data: failure.data ?? Data()) : nil
            return (defaultValue, error, known)
        }
    }

    struct DecodeFailure: Error {
        var reason: String
        var data: Data?
    }

    /// Reads and decodes the file.
    static func decode(url: URL) -> Result<(Value, Data), DecodeFailure> {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .failure(DecodeFailure(reason: error.localizedDescription, data: nil))
        }
        do {
            return .success((try JSONDecoder().decode(Value.self, from: data), data))
        } catch let error as DecodingError {
            return .failure(DecodeFailure(reason: "not a valid \(Value.self) in JSON: \(describe(error))", data: data))
        } catch {
            return .failure(DecodeFailure(reason: String(describing: error), data: data))
        }
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

    // MARK: Writing

    var saveError: SharedError? {
        state.withLock { $0.saveError }
    }

    var loadError: SharedError? {
        state.withLock { $0.loadError }
    }

    func valueDidChange(_ value: Value) {
        let shouldSchedule = state.withLock { state -> Bool in
            state.pending = value
            state.localChanges += 1
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
        let conflict = try writeLock.withLock { () throws(SharedError) -> SharedError? in
            // Taking the newest value under the write lock keeps writes in order.
            let (value, blockedBy, known) = state.withLock { state -> (Value?, SharedError?, FileSnapshot?) in
                if state.blockedBy != nil { return (nil, state.blockedBy, nil) }
                defer {
                    state.pending = nil
                    state.isScheduled = false
                }
                return (state.pending, nil, state.known)
            }
            if let blockedBy { throw blockedBy }
            guard let value else { return nil }
            do {
                let conflict = try keepExternalChangeAside(known: known)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data = try encoder.encode(value)
                let signature = try AtomicFile.write(data, to: url)
                state.withLock { state in
                    state.saveError = nil
                    state.known = FileSnapshot(signature: signature, data: data)
                    if let conflict { state.loadError = conflict }
                }
                return conflict
            } catch {
                let failure = (error as? SharedError) ?? SharedError.writeFailed(url: url, reason: String(describing: error))
                // Keep the value pending so that the next write or save retries it.
                state.withLock { state in
                    if state.pending == nil { state.pending = value }
                    state.saveError = failure
                }
                throw failure
            }
        }
        if let conflict { reportSharedIssue(conflict) }
    }

    /// Before a local change overwrites the file: when the file is not what this process last
    /// wrote or read, someone else changed it; move their content aside so it is not lost.
    /// Under the write lock.
    private func keepExternalChangeAside(known: FileSnapshot?) throws -> SharedError? {
        guard let current = FileSignature.of(path: url.path), current != known?.signature else { return nil }
        if let known, let data = try? Data(contentsOf: url), data == known.data { return nil }
        guard let backup = FilePath.moveAside(url, label: "conflict") else {
            throw SharedError.writeFailed(url: url, reason: "the file was changed by someone else and could not be moved aside; the local change is kept and not written")
        }
        return SharedError.overwroteExternalChange(url: url, backup: backup)
    }
}

extension Duration {
    /// The duration for Dispatch (nanosecond precision).
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
