import Foundation

/// How a `.fileStorage` value follows changes that others make to its file.
///
/// A ``FileWatcher`` says when the file may have changed; then the file is compared with what
/// this process last wrote or read (signature, then content), so the value's own saves never
/// come back as changes. A new valid content replaces the value for every holder; a missing file
/// brings back the default value; an empty file is taken as a write in progress and ignored;
/// content that does not decode is given a moment (``FileWatchOptions/settleTime``: a writer may
/// be half-way through an in-place write) and then handled as a corrupt file at load: moved
/// aside, reported in `loadError`, the last good value kept.
extension FilePersistence {
    enum Check {
        case event
        case poll
        /// A file that did not decode is looked at again.
        case confirm
        /// ``Shared/reload()``: read now, and report a corrupt file at once.
        case reload
    }

    private enum Finding {
        case unchanged
        case value(Value, FileSnapshot)
        case missing
        case undecodable(FileSignature, reason: String)
    }

    func attach(to box: SharedBox<Value>) {
        let watcher = FileWatcher(url: url, options: options, queue: queue) { [weak self] trigger in
            self?.check(trigger == .event ? .event : .poll)
        }
        state.withLock { state in
            state.box = box
            state.watcher = watcher
        }
    }

    func reload() throws(SharedError) {
        // A local change waiting to be saved wins over the file (the conflict policy).
        if state.withLock({ $0.pending != nil }) {
            try flush()
        }
        if let error = check(.reload) { throw error }
    }

    /// Looks at the file and updates the value when someone else changed it. Returns the error
    /// of a corrupt file found by a ``Check/reload``.
    @discardableResult
    func check(_ kind: Check) -> SharedError? {
        guard let box = state.withLock({ $0.box }) else { return nil }
        defer { withExtendedLifetime(box) {} }  // released after the locks, never under them
        let (finding, localChanges, read) = examine(kind)
        switch finding {
        case .unchanged:
            return nil
        case .value(let value, let snapshot):
            apply(value, snapshot: snapshot, to: box, localChanges: localChanges, read: read)
        case .missing:
            // swift-sharing's rule: a deleted file brings back the default value.
            apply(defaultValue, snapshot: nil, to: box, localChanges: localChanges, read: read)
        case .undecodable(let signature, let reason):
            // Corrupt once the same content has stayed for the settle time (or at a reload).
            let now = ContinuousClock.now
            let confirmed = state.withLock { state -> Bool in
                if state.undecodable?.signature != signature {
                    state.undecodable = (signature, now)
                }
                return kind == .reload || state.undecodable!.since + options.settleTime <= now
            }
            if confirmed {
                return quarantine(signature, reason: reason)
            }
            queue.asyncAfter(deadline: .now() + options.settleTime.dispatchInterval) { [weak self] in
                self?.check(.confirm)
            }
        }
        return nil
    }

    /// Compares the file with what this process last wrote or read. Under the write lock, so a
    /// save of this process is never seen half-done.
    private func examine(_ kind: Check) -> (Finding, localChanges: UInt64, read: UInt64) {
        let readContent = kind != .poll
        return writeLock.withLock { () -> (Finding, localChanges: UInt64, read: UInt64) in
            let (known, undecodable, localChanges, read) = state.withLock { state in
                state.reads += 1
                return (state.known, state.undecodable?.signature, state.localChanges, state.reads)
            }
            guard let signature = FileSignature.of(path: url.path) else {
                return (known == nil ? .unchanged : .missing, localChanges, read)
            }
            if !readContent && (signature == known?.signature || signature == undecodable) {
                return (.unchanged, localChanges, read)
            }
            if signature.size == 0 && kind != .reload {
                // Empty: taken as a write in progress (truncated, not written yet); the write
                // that follows, or a reload, decides.
                return (.unchanged, localChanges, read)
            }
            switch Self.decode(url: url) {
            case .success(let (value, data)):
                if let known, known.data == data {
                    // The same content (this process's own save, or a touch): nothing to tell.
                    state.withLock { $0.known?.signature = signature }
                    return (.unchanged, localChanges, read)
                }
                return (.value(value, FileSnapshot(signature: signature, data: data)), localChanges, read)
            case .failure(let failure):
                if let known, let data = failure.data, known.data == data {
                    return (.unchanged, localChanges, read)  // a corrupt file that could not be moved aside
                }
                return (.undecodable(signature, reason: failure.reason), localChanges, read)
            }
        }
    }

    /// Replaces the value with what the file holds, unless a local change came first: then that
    /// change wins and its save moves the file's content aside.
    private func apply(_ value: Value, snapshot: FileSnapshot?, to box: SharedBox<Value>, localChanges: UInt64, read: UInt64) {
        box.replaceFromStorage { _, commit in
            state.withLock { state -> Value? in
                guard state.pending == nil, state.localChanges == localChanges, read > state.lastAppliedRead else {
                    return nil
                }
                // Two readers (the watcher and a reload) that both found the same new content:
                // the first applied it, the second has nothing to tell.
                if state.known?.data == snapshot?.data {
                    if commit { state.lastAppliedRead = read }
                    return nil
                }
                guard commit else { return value }
                state.lastAppliedRead = read
                state.known = snapshot
                state.undecodable = nil
                state.loadError = nil
                state.blockedBy = nil
                return value
            }
        }
    }

    /// Moves a corrupt file aside, as at load: the last good value stays.
    private func quarantine(_ signature: FileSignature, reason: String) -> SharedError? {
        let error = writeLock.withLock { () -> SharedError? in
            guard FileSignature.of(path: url.path) == signature else { return nil }  // changed again meanwhile
            let backup = FilePath.moveAside(url, label: "corrupt")
            let error = SharedError.unreadableFile(url: url, backup: backup, reason: reason)
            state.withLock { state in
                state.loadError = error
                state.undecodable = nil
                if backup == nil {
                    state.blockedBy = error
                    let data = (try? Data(contentsOf: url)) ?? Data()
                    state.known = FileSnapshot(signature: signature, data: data)
                } else {
                    state.known = nil
                }
            }
            return error
        }
        guard let error else {
            queue.async { [weak self] in self?.check(.event) }
            return nil
        }
        reportSharedIssue(error)
        return error
    }
}
