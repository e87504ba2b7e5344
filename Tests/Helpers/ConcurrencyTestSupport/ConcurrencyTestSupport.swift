// Threads for concurrency tests, shared by ComputedRuntimeTests and GoldenStatesTests: threads
// that start together, a dedicated thread to run steps on (its own block of version stamps), a
// locked box to collect results in, and a wait that holds its thread.

import Foundation

/// A value protected by an `NSLock`, for collecting results from many threads in tests.
public final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value

    public init(_ value: Value) {
        _value = value
    }

    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&_value)
    }

    public var value: Value {
        withLock { $0 }
    }
}

/// Waits until `condition` holds, looking every millisecond on the calling thread, and returns
/// whether it held before `timeout`. For synchronous tests, and for a step that must follow an
/// observation at once: a sleeping task can be parked for seconds while other tests hold the
/// cooperative pool's threads, a sleeping thread cannot.
public func waitOnThisThread(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return try condition()
}

/// Runs `body(index)` on `threads` fresh OS threads that all start at (nearly) the same moment,
/// and returns when all have finished.
public func runOnThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchGroup()
    let finished = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<threads {
        ready.enter()
        finished.enter()
        let thread = Thread {
            ready.leave()
            start.wait()
            body(index)
            finished.leave()
        }
        thread.start()
    }
    ready.wait()
    for _ in 0..<threads {
        start.signal()
    }
    finished.wait()
}

/// One dedicated OS thread that runs the closures given to ``run(_:)``, one at a time, while the
/// caller waits: for tests that need several steps on the *same* thread (its block of version
/// stamps, say) interleaved with steps on other threads. Call ``stop()`` when done.
public final class OnThread: @unchecked Sendable {
    // Safety: `pending` and `stopped` are only accessed while `condition` is locked.
    private let condition = NSCondition()
    private var pending: (() -> Void)?
    private var stopped = false

    public init() {
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Runs `body` on the thread and returns its result.
    @discardableResult
    public func run<Result>(_ body: @escaping () -> Result) -> Result {
        var result: Result?
        condition.lock()
        pending = { result = body() }
        condition.broadcast()
        while pending != nil {
            condition.wait()
        }
        condition.unlock()
        return result!
    }

    /// Ends the thread.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while pending == nil && !stopped {
                condition.wait()
            }
            guard let job = pending else {
                condition.unlock()
                return
            }
            condition.unlock()
            job()
            condition.lock()
            pending = nil
            condition.broadcast()
            condition.unlock()
        }
    }
}
