import Foundation

/// A problem with a ``Shared`` value's storage, readable as ``Shared/loadError`` and
/// ``Shared/saveError``, and thrown by ``Shared/save()``.
public enum SharedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key is already shared with a value of another type. The ``Shared`` that asked for it
    /// got its own, unshared value instead.
    case typeMismatch(key: String, expected: String, existing: String)
    /// The file could not be read or decoded. It was moved to `backup` (when that succeeded) and
    /// the default value was used; the original content is never overwritten.
    case unreadableFile(url: URL, backup: URL?, reason: String)
    /// Writing the file failed; the value in memory is intact and the next write retries.
    case writeFailed(url: URL, reason: String)
    /// The stored value in `UserDefaults` has another type; the default value (at load) or the
    /// last good value (for a later change) is used.
    case unexpectedStoredValue(key: String, found: String)
    /// The file was changed by someone else while a local change was waiting to be saved. The
    /// local change won and was saved; the other content was moved to `backup` first.
    case overwroteExternalChange(url: URL, backup: URL)

    public var description: String {
        switch self {
        case let .typeMismatch(key, expected, existing):
            "shared key '\(key)' holds a value of type \(existing), not \(expected); this Shared uses its own, unshared value"
        case let .unreadableFile(url, backup?, reason):
            "could not read '\(url.path)' (\(reason)); it was moved to '\(backup.path)' and the default value is used"
        case let .unreadableFile(url, nil, reason):
            "could not read '\(url.path)' (\(reason)) nor move it aside; it is left untouched, the default value is used and nothing will be written there"
        case let .writeFailed(url, reason):
            "could not write '\(url.path)': \(reason)"
        case let .unexpectedStoredValue(key, found):
            "UserDefaults key '\(key)' holds a value of type \(found); it is ignored"
        case let .overwroteExternalChange(url, backup):
            "'\(url.path)' was changed by someone else while a local change was waiting to be saved; the local change was saved and the other content moved to '\(backup.path)'"
        }
    }
}

/// Reports a storage problem that no caller is waiting for (a failed background write), on
/// standard error, in addition to recording it on the `Shared`.
func reportSharedIssue(_ error: SharedError) {
    FileHandle.standardError.write(Data("ComputedRuntime: \(error)\n".utf8))
}
