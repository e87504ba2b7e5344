import Foundation

/// Flushes pending file writes when the process exits normally.
enum ExitFlusher {
    private final class Weak: @unchecked Sendable {
        // Safety: a weak reference, set once; reading it is thread-safe.
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
