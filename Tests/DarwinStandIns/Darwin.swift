// Stand-in for the parts of Apple's `Darwin` module that ComputedRuntime's `#if canImport(Darwin)`
// branches use, for scripts/check-darwin.sh. Compiled as a module named `Darwin`, so that
// `canImport(Darwin)` is true. Never linked or run: bodies trap.
//
// It re-exports Linux's Glibc for the POSIX names Darwin and Glibc share (open, close, stat,
// fstat, realpath, pthread_*, errno, …) and adds, with Apple's exact Swift signatures, what only
// Darwin has. Declarations that the Clang importer makes from C get what the importer gives them
// (a C struct of Sendable fields is Sendable; a `#define` integer is a `var … : Int32 { get }`).
// Availability is Apple's; a Linux type-check does not enforce it (all of it is far below the
// package's floor of macOS 14 / iOS 17 / tvOS 17 / watchOS 10).
//
// Not caught: a Darwin branch using a name that Glibc has and Darwin lacks (such as `st_mtim`)
// still type-checks, since Glibc's names stay visible (an `unavailable` redeclaration here does
// not hide an imported C field). Keep Darwin branches to names this file declares or both share.

@_exported import Glibc

// MARK: - os/lock.h (module os, re-exported by Darwin)
//
// https://developer.apple.com/documentation/os/os_unfair_lock_s
//   struct os_unfair_lock_s { public var _os_unfair_lock_opaque: UInt32 }
// https://developer.apple.com/documentation/os/os_unfair_lock
//   typedef struct os_unfair_lock_s os_unfair_lock;
// https://developer.apple.com/documentation/os/os_unfair_lock_t
//   typedef struct os_unfair_lock_s * os_unfair_lock_t;
// https://developer.apple.com/documentation/os/os_unfair_lock_lock
//   extern void os_unfair_lock_lock(os_unfair_lock_t lock);
// https://developer.apple.com/documentation/os/os_unfair_lock_unlock
//   extern void os_unfair_lock_unlock(os_unfair_lock_t lock);
// https://developer.apple.com/documentation/os/os_unfair_lock_trylock
//   extern bool os_unfair_lock_trylock(os_unfair_lock_t lock);
// libplatform include/os/lock.h (opensource.apple.com, libplatform-220):
//   OS_UNFAIR_LOCK_AVAILABILITY = __API_AVAILABLE(macos(10.12), ios(10.0), tvos(10.0), watchos(3.0))
//
// The importer gives a C struct a zero initializer `init()` and a memberwise one, and makes it
// Sendable (its one field is); a `T *` parameter becomes `UnsafeMutablePointer<T>`.

@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public struct os_unfair_lock_s: Sendable {
    public var _os_unfair_lock_opaque: UInt32
    public init() { _os_unfair_lock_opaque = 0 }
    public init(_os_unfair_lock_opaque: UInt32) { self._os_unfair_lock_opaque = _os_unfair_lock_opaque }
}

@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public typealias os_unfair_lock = os_unfair_lock_s

@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>

@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) { fatalError("stand-in") }

@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) { fatalError("stand-in") }

@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { fatalError("stand-in") }

// MARK: - sys/fcntl.h
//
// xnu bsd/sys/fcntl.h (opensource.apple.com / apple-oss-distributions/xnu):
//   #define O_EVTONLY 0x00008000 /* descriptor requested for event notifications only */
// An integer macro is imported as a read-only global of the literal's type (`int`).

public var O_EVTONLY: Int32 { 0x0000_8000 }

// MARK: - sys/stat.h
//
// xnu bsd/sys/stat.h, `struct stat` (with _DARWIN_FEATURE_64_BIT_INODE, the only layout Swift
// sees): the times are `struct timespec st_atimespec, st_mtimespec, st_ctimespec,
// st_birthtimespec`; Glibc's `st_atim`/`st_mtim`/`st_ctim` do not exist there. `dev_t` is
// `Int32` on Darwin, `UInt64` on Glibc; `ino_t` is `UInt64` on both. Only the field name is
// added: the struct stays Glibc's (Swift cannot declare a struct and a function both named `stat`
// in one module, as C does), so code must convert field types explicitly, as FileSystem.swift does
// with `UInt64(truncatingIfNeeded: info.st_dev)`.

extension stat {
    public var st_mtimespec: timespec {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}
