import Foundation

/// Where a ``Shared`` value lives: `.inMemory(key)`, `.fileStorage(url)` or `.appStorage(key)`.
///
/// Two `Shared` values made with the same strategy (same kind and key) in one process share one
/// reference: a write through either is seen by both.
public struct SharedStrategy<Value: Sendable>: Sendable {
    /// The registry key, e.g. `inMemory:session`.
    let key: String
    let retention: SharedRegistry.Retention
    /// Makes the reference, with `defaultValue` when storage has none.
    let makeBox: @Sendable (_ defaultValue: Value) -> SharedBox<Value>

    /// A description of the storage, e.g. `.inMemory("session")`.
    public let description: String
}

extension SharedStrategy {
    /// One value per key per process, not persisted.
    ///
    /// ```swift
    /// @Shared(.inMemory("session")) var session = Session()
    /// ```
    public static func inMemory(_ key: String) -> SharedStrategy {
        SharedStrategy(key: "inMemory:" + key, retention: .process, makeBox: { value in
            SharedBox(value: value, key: "inMemory:" + key)
        }, description: ".inMemory(\"\(key)\")")
    }
}

extension SharedStrategy where Value: Codable {
    /// A value stored as JSON in the file at `url`, kept in step with the file.
    ///
    /// - The file is read when the first `Shared` for it is made; a missing file yields the
    ///   default value. Every spelling of one file (`dir//x.json`, `dir/./x.json`, a symlink to
    ///   it) gives the same reference.
    /// - Changes that others make to the file (another process, an extension, a sync tool, a
    ///   text editor) reach every holder within a second: an in-place write, an atomic replace,
    ///   a move back. A deleted or moved-away file brings back the default value; the next local
    ///   write creates the file again. Content that does not decode is handled as a corrupt file
    ///   at load (below) and the last good value is kept. See ``Shared/reload()``.
    /// - An unreadable or corrupt file is moved aside to `<name>.corrupt-<timestamp>` and never
    ///   overwritten; ``Shared/loadError`` tells what happened.
    /// - Writes are atomic (a temporary file, flushed to disk, then renamed over the original),
    ///   so a crash at any moment leaves either the old or the new content. They never come
    ///   back as changes.
    /// - Writes made within `coalescing` of each other are written once, on a background queue;
    ///   ``Shared/save()`` writes immediately, and the last pending write is flushed when the last
    ///   holder releases the value and when the process exits normally.
    /// - When the file changes while a local change is waiting to be saved, the local change
    ///   wins: before saving it, the file's other content is moved to `<name>.conflict-<timestamp>`
    ///   and reported in `loadError` as ``SharedError/overwroteExternalChange(url:backup:)``.
    public static func fileStorage(_ url: URL, coalescing: Duration = .milliseconds(50)) -> SharedStrategy {
        fileStorage(url, coalescing: coalescing, watching: .standard)
    }

    /// `fileStorage` with the watcher's options (tests force polling).
    static func fileStorage(_ url: URL, coalescing: Duration, watching options: FileWatchOptions) -> SharedStrategy {
        let url = FilePath.canonical(url)
        return SharedStrategy(key: "file:" + url.path, retention: .whileHeld, makeBox: { defaultValue in
            FilePersistence<Value>.makeBox(url: url, defaultValue: defaultValue, coalescing: coalescing, options: options)
        }, description: ".fileStorage(\(url.path))")
    }

    /// A value stored as JSON in `path`; a relative path is resolved against
    /// ``SharedFileStorage/defaultDirectory``.
    ///
    /// ```swift
    /// @Shared(.fileStorage("settings.json")) var settings = Settings()
    /// ```
    public static func fileStorage(_ path: String, coalescing: Duration = .milliseconds(50)) -> SharedStrategy {
        let url = path.hasPrefix("/")
            ? URL(fileURLWithPath: path)
            : SharedFileStorage.defaultDirectory.appendingPathComponent(path)
        return fileStorage(url, coalescing: coalescing)
    }
}

/// Settings for ``SharedStrategy/fileStorage(_:coalescing:)-(String,_)``.
public enum SharedFileStorage {
    private static let directory = LockedBox<URL?>(nil)

    /// The directory that relative `.fileStorage("name.json")` paths are resolved against.
    ///
    /// By default the Application Support directory (on Linux `$XDG_DATA_HOME` or
    /// `~/.local/share`) in a folder named after the process. Set it early, before the first
    /// `Shared` reads a relative path (tests point it at a temporary directory).
    public static var defaultDirectory: URL {
        get {
            directory.withLock { directory in
                if let directory { return directory }
                let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                    ?? URL(fileURLWithPath: NSTemporaryDirectory())
                let url = base.appendingPathComponent(ProcessInfo.processInfo.processName, isDirectory: true)
                directory = url
                return url
            }
        }
        set {
            directory.withLock { $0 = newValue }
        }
    }
}
