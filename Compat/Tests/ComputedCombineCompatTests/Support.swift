import ComputedRuntime
import Foundation

/// ReCombine's projected values: both slices present, or nothing.
struct ProjectedValues: Equatable, Sendable {
    var foo: Int
    var bar: Int

    init?(foo: Int?, bar: Int?) {
        guard let foo, let bar else { return nil }
        self.foo = foo
        self.bar = bar
    }
}

struct Todo: Equatable, Sendable {
    var title: String
    var done = false
}

/// TCA's feature actions.
enum Action: Equatable, Sendable {
    case countUpdated(Int)
}

/// Collects what a subscriber received, from any thread.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // Safety: `storage` is reached only under `lock`.
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.withLock { storage.append(value) }
    }

    var values: [Value] {
        lock.withLock { storage }
    }

    /// Waits (polling, up to `timeout` seconds) until `count` values arrived.
    func wait(for count: Int, timeout: Double = 5) async -> [Value] {
        let deadline = Date().addingTimeInterval(timeout)
        while values.count < count, Date() < deadline {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return values
    }
}
