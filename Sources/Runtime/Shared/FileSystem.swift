import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `stat` says about a file: enough to tell that it was replaced (device, inode) or
/// changed in place (size, modification time).
struct FileSignature: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64

    init(_ info: stat) {
        // dev_t is signed on Darwin and unsigned on Glibc: keep the bits either way.
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        // Darwin names the field st_mtimespec, Glibc st_mtim.
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        modifiedSeconds = Int64(modified.tv_sec)
        modifiedNanoseconds = Int64(modified.tv_nsec)
    }

    /// The signature of the file at `path` (following symlinks), or `nil` when there is none.
    static func of(path: String) -> FileSignature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileSignature(info)
    }

    /// The signature of an open file.
    static func of(descriptor: Int32) -> FileSignature? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileSignature(info)
    }
}

/// A file's content as this process last wrote or read it.
struct FileSnapshot: Sendable {
    var signature: FileSignature?
    var data: Data
}

enum FilePath {
    /// One spelling per file: `dir/x.json`, `dir//x.json`, `dir/./x.json` and a symlink to it all
    /// give the same path. Symlinks are resolved in the longest existing prefix (so a file that
    /// does not exist yet, in a folder that does not exist yet, still gets a stable path); the
    /// rest is normalized textually.
    static func canonical(_ url: URL) -> URL {
        let standardized = followingDanglingLink(url.standardizedFileURL.path)
        var existing = standardized
        var missing: [String] = []
        while existing != "/" && !existing.isEmpty {
            if let resolved = realPath(existing) {
                let path = ([resolved == "/" ? "" : resolved] + missing.reversed()).joined(separator: "/")
                return URL(fileURLWithPath: path.isEmpty ? "/" : path)
            }
            let parent = (existing as NSString).deletingLastPathComponent
            missing.append((existing as NSString).lastPathComponent)
            existing = parent
        }
        return URL(fileURLWithPath: standardized)
    }

    /// A symlink whose target does not exist yet (`realpath` fails on it) is replaced by its
    /// target, so that the file is created where the link points.
    private static func followingDanglingLink(_ path: String) -> String {
        var path = path
        for _ in 0..<32 {
            guard realPath(path) == nil,
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return path }
            let folder = (path as NSString).deletingLastPathComponent
            path = URL(fileURLWithPath: target, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
        }
        return path
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Renames `url` to `<name>.<label>-<UTC timestamp>[-n]` in its folder; `nil` when that fails.
    static func moveAside(_ url: URL, label: String) -> URL? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: Date()).replacingOccurrences(of: ":", with: "")
        let base = url.lastPathComponent + "." + label + "-" + stamp
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
}

/// Atomic file replacement: write a temporary file in the same directory, flush it to disk,
/// rename it over the destination, then flush the directory.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `data` to `url` atomically and returns the signature of the new file.
    @discardableResult
    static func write(_ data: Data, to url: URL) throws -> FileSignature? {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary.path)") }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary.path) }
        }
        let signature: FileSignature?
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
            // Taken from the descriptor, so that a file someone else puts there after the rename
            // is not mistaken for ours; a rename changes neither inode nor modification time.
            signature = FileSignature.of(descriptor: descriptor)
        }
        guard rename(temporary.path, url.path) == 0 else { throw failure("cannot rename onto \(url.path)") }
        succeeded = true
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        return signature
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
