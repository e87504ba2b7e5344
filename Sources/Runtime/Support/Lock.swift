#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#else
#error("ComputedRuntime: unsupported platform (no Darwin, Glibc, Musl or Bionic)")
#endif

#if canImport(Darwin)
@usableFromInline typealias LockPrimitive = os_unfair_lock
#else
@usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

// MARK: - Primitive operations (shared by `Lock` and `LockedState`)

@inlinable
func _lockPrimitiveInitialize(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
    #if canImport(Darwin)
    primitive.initialize(to: os_unfair_lock())
    #else
    primitive.initialize(to: pthread_mutex_t())
    let error = pthread_mutex_init(primitive, nil)
    precondition(error == 0, "pthread_mutex_init failed: \(error)")
    #endif
}

@inlinable
func _lockPrimitiveDestroy(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
    #if !canImport(Darwin)
    let error = pthread_mutex_destroy(primitive)
    assert(error == 0, "pthread_mutex_destroy failed: \(error)")
    #endif
    primitive.deinitialize(count: 1)
}

@inlinable
func _lockPrimitiveLock(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
    #if canImport(Darwin)
    os_unfair_lock_lock(primitive)
    #else
    let error = pthread_mutex_lock(primitive)
    assert(error == 0, "pthread_mutex_lock failed: \(error)")
    #endif
}

@inlinable
func _lockPrimitiveUnlock(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
    #if canImport(Darwin)
    os_unfair_lock_unlock(primitive)
    #else
    let error = pthread_mutex_unlock(primitive)
    assert(error == 0, "pthread_mutex_unlock failed: \(error)")
    #endif
}

// MARK: - Lock

/// A non-recursive mutual-exclusion lock: `os_unfair_lock` on Apple platforms, `pthread_mutex_t`
/// elsewhere. The primitive lives in tail-allocated storage, so its address is stable for the
/// lifetime of the lock (a requirement of both primitives).
///
/// Create one with `Lock()` (or `Lock.make()`). Never lock it recursively.
///
/// Not `Sendable` as far as the compiler knows: the standard library marks `ManagedBuffer` (and
/// so every subclass) explicitly non-`Sendable`. Keep a `Lock` in a `let` of an
/// `@unchecked Sendable` type whose mutable state it protects; sharing it that way is safe.
@usableFromInline
final class Lock: ManagedBuffer<Void, LockPrimitive> {
    /// Allocates and initializes a new, unlocked lock.
    @usableFromInline
    static func make() -> Lock {
        let lock = unsafeDowncast(Lock.create(minimumCapacity: 1) { _ in () }, to: Lock.self)
        lock.withUnsafeMutablePointerToElements { _lockPrimitiveInitialize($0) }
        return lock
    }

    deinit {
        withUnsafeMutablePointerToElements { _lockPrimitiveDestroy($0) }
    }

    /// Acquires the lock, blocking until it is available.
    @inlinable
    func lock() {
        withUnsafeMutablePointerToElements { _lockPrimitiveLock($0) }
    }

    /// Releases the lock; must be called by the thread that acquired it.
    @inlinable
    func unlock() {
        withUnsafeMutablePointerToElements { _lockPrimitiveUnlock($0) }
    }

    /// Runs `body` while holding the lock.
    @inlinable
    func withLock<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Lets `Lock()` create a lock although `ManagedBuffer` subclasses cannot declare initializers.
@usableFromInline
protocol _LockMaking {
    /// Creates the instance.
    static func make() -> Self
}

extension _LockMaking {
    /// Creates a new, unlocked lock.
    @inlinable
    init() {
        self = Self.make()
    }
}

extension Lock: _LockMaking {}

// MARK: - LockedState

/// A value of type `State` protected by its own lock, in a single allocation (the state is the
/// header, the lock primitive the tail element). Like ``Lock``, not `Sendable` to the compiler;
/// keep it in an `@unchecked Sendable` owner.
@usableFromInline
final class LockedState<State>: ManagedBuffer<State, LockPrimitive> {
    /// Creates the protected storage with `initial` as its state.
    @usableFromInline
    static func make(_ initial: State) -> LockedState<State> {
        let locked = unsafeDowncast(
            LockedState<State>.create(minimumCapacity: 1) { _ in initial },
            to: LockedState<State>.self
        )
        locked.withUnsafeMutablePointerToElements { _lockPrimitiveInitialize($0) }
        return locked
    }

    deinit {
        withUnsafeMutablePointerToElements { _lockPrimitiveDestroy($0) }
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withUnsafeMutablePointers { (state, primitive) throws(Failure) -> Result in
            _lockPrimitiveLock(primitive)
            defer { _lockPrimitiveUnlock(primitive) }
            return try body(&state.pointee)
        }
    }
}
