import Foundation

/// A value protected by an `NSLock`, for collecting results from many threads in tests.
final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value

    init(_ value: Value) {
        _value = value
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&_value)
    }

    var value: Value {
        withLock { $0 }
    }
}

/// Runs `body(index)` on `threads` fresh OS threads that all start at (nearly) the same moment,
/// and returns when all have finished.
func runOnThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
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
