import Foundation
import Observation
import Testing

@testable import ComputedRuntime

/// A hand-written state with versioned fields, as generated states have.
private struct CounterState: Sendable {
    @Edge var count = 0
    @Edge var label = "counter"
    /// Deliberately not `Equatable`: selections over it can only be distinct by stamp.
    @Edge var payload = Payload(id: 0)

    struct Payload: Sendable {
        var id: Int
    }

    static let countSelector = StateSelector<CounterState, Int>(version: { $0.$count.version }) { $0.count }
    static let payloadSelector = StateSelector<CounterState, Payload>(version: { $0.$payload.version }) { $0.payload }
}

/// Collects values from a handler thread-safely.
private final class Recorder<Value: Sendable>: Sendable {
    private let box = LockedBox<[Value]>([])

    func append(_ value: Value) {
        box.withLock { $0.append(value) }
    }

    var values: [Value] {
        box.withLock { $0 }
    }
}

/// Takes the first `count` elements of a sequence, or fails after a timeout instead of hanging.
private func first<S: AsyncSequence & Sendable>(
    _ count: Int,
    of sequence: S,
    timeout: Duration = .seconds(10)
) async throws -> [S.Element] where S.Element: Sendable {
    try await withThrowingTaskGroup(of: [S.Element]?.self) { group in
        group.addTask {
            var values: [S.Element] = []
            for try await value in sequence {
                values.append(value)
                if values.count == count { break }
            }
            return values
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let result = try await group.next() ?? nil
        group.cancelAll()
        return try #require(result, "timed out waiting for \(count) values")
    }
}

@Suite("Store")
struct StoreTests {
    @Test("commit mutates, returns the mutation's result, and state is a snapshot")
    func commitAndSnapshot() {
        let store = Store(CounterState())
        let before = store.state
        let result = store.commit { state -> Int in
            state.count = 5
            return state.count * 2
        }
        #expect(result == 10)
        #expect(store.state.count == 5)
        #expect(store.count == 5)  // dynamic member lookup
        #expect(before.count == 0)  // the earlier snapshot did not change
    }

    @Test("a throwing mutation keeps what it changed and rethrows")
    func throwingCommit() {
        struct Failure: Error {}
        let store = Store(CounterState())
        #expect(throws: Failure.self) {
            try store.commit { state in
                state.count = 3
                throw Failure()
            }
        }
        #expect(store.count == 3)
    }

    @Test("commits from many threads are serialized with no lost update")
    func concurrentCommits() async {
        let store = Store(CounterState())
        let recorder = Recorder<Int>()
        let subscription = store.subscribe { recorder.append($0.count) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        store.commit { $0.count += 1 }
                        _ = store.state.count  // concurrent reads
                    }
                }
            }
        }
        #expect(store.count == 4_000)
        // Every commit was delivered exactly once, in commit order.
        #expect(recorder.values == Array(1...4_000))
        subscription.cancel()
    }

    @Test("subscribers see commits in order; a commit from a subscriber comes after the current one")
    func reentrantCommitFromSubscriber() {
        let store = Store(CounterState())
        let recorder = Recorder<Int>()
        let subscription = store.subscribe { state in
            recorder.append(state.count)
            if state.count == 1 {
                store.commit { $0.count = 100 }  // re-entrant: must not deadlock
            }
        }
        store.commit { $0.count = 1 }
        store.commit { $0.count = 2 }
        #expect(recorder.values == [1, 100, 2])
        withExtendedLifetime(subscription) {}
    }

    @Test("cancelling or releasing a subscription stops it")
    func cancellation() {
        let store = Store(CounterState())
        let recorder = Recorder<Int>()
        var subscription: StoreSubscription? = store.subscribe { recorder.append($0.count) }
        store.commit { $0.count = 1 }
        #expect(store.subscriberCount == 1)
        subscription = nil
        store.commit { $0.count = 2 }
        #expect(recorder.values == [1])
        #expect(store.subscriberCount == 0)
        _ = subscription

        let explicit = store.subscribe { recorder.append($0.count) }
        explicit.cancel()
        #expect(explicit.isCancelled)
        store.commit { $0.count = 3 }
        #expect(recorder.values == [1])
    }

    @Test("states yields the current state first, then each commit, never going back")
    func statesStream() async throws {
        let store = Store(CounterState())
        store.commit { $0.count = 7 }
        // Latest-value buffering may skip intermediate states, so collect until the last commit.
        let collector = Task {
            var values: [Int] = []
            for await state in store.states {
                values.append(state.count)
                if state.count == 9 { break }
            }
            return values
        }
        while store.subscriberCount == 0 { await Task.yield() }
        for value in [8, 9] {
            store.commit { $0.count = value }
        }
        let values = await collector.value
        #expect(values.first == 7 || values.first == 8 || values.first == 9)
        #expect(values.last == 9)
        #expect(values == values.sorted())  // never an older state after a newer one
        #expect(Set(values).count == values.count)
    }

    @Test("a consumer that keeps up sees every commit")
    func statesKeepingUp() async throws {
        let store = Store(CounterState())
        var iterator = store.states.makeAsyncIterator()
        #expect(await iterator.next()?.count == 0)
        for value in 1...5 {
            store.commit { $0.count = value }
            #expect(await iterator.next()?.count == value)
        }
    }

    @Test("a slow consumer does not block commits and gets the latest state")
    func latestValueBuffering() async throws {
        let store = Store(CounterState())
        var iterator = store.states.makeAsyncIterator()
        let initial = await iterator.next()
        #expect(initial?.count == 0)
        for value in 1...10_000 {
            store.commit { $0.count = value }  // nobody consumes: must not block
        }
        let latest = await iterator.next()
        #expect(latest?.count == 10_000)
    }

    @Test("select yields the current value, then only distinct values, never for unrelated commits")
    func selectDistinct() async throws {
        let store = Store(CounterState())
        var iterator = store.select(CounterState.countSelector).makeAsyncIterator()
        #expect(await iterator.next() == 0)
        store.commit { $0.label = "unrelated" }
        store.commit { $0.count = 0 }  // new stamp, same value: not repeated
        store.commit { $0.count = 1 }
        #expect(await iterator.next() == 1)
        store.commit { $0.label = "again" }
        store.commit { $0.count = 2 }
        #expect(await iterator.next() == 2)
    }

    @Test("select over a non-Equatable value is distinct by version stamp")
    func selectByStamp() async throws {
        let store = Store(CounterState())
        var iterator = store.select(CounterState.payloadSelector).makeAsyncIterator()
        #expect(await iterator.next()?.id == 0)
        store.commit { $0.count = 1 }
        store.commit { $0.label = "x" }
        store.commit { $0.payload = .init(id: 5) }
        #expect(await iterator.next()?.id == 5)
    }

    @Test("select by key path compares values with ==")
    func selectKeyPath() async throws {
        let store = Store(CounterState())
        var iterator = store.select(\.label).makeAsyncIterator()
        #expect(await iterator.next() == "counter")
        store.commit { $0.count = 1 }
        store.commit { $0.label = "counter" }
        store.commit { $0.label = "renamed" }
        #expect(await iterator.next() == "renamed")
    }

    @Test("a cancelled consumer unsubscribes")
    func consumerCancellation() async throws {
        let store = Store(CounterState())
        let task = Task {
            for await _ in store.states {}
        }
        while store.subscriberCount == 0 { await Task.yield() }
        task.cancel()
        await task.value
        #expect(store.subscriberCount == 0)
    }

    @Test("withObservationTracking sees a commit after reading the state")
    func observation() {
        let store = Store(CounterState())
        let fired = Recorder<Bool>()
        withObservationTracking {
            _ = store.state.count
        } onChange: {
            fired.append(true)
        }
        #expect(fired.values.isEmpty)
        store.commit { $0.count = 1 }
        #expect(fired.values == [true])
        store.commit { $0.count = 2 }  // tracking fires once per registration
        #expect(fired.values == [true])
    }
}

@Suite("Derived stores and assignment")
struct DerivedTests {
    @Test("a derived store updates only when its value changes")
    func derivedDistinct() {
        let store = Store(CounterState())
        let count = store.derived(CounterState.countSelector)
        let recorder = Recorder<Int>()
        let subscription = count.subscribe { recorder.append($0) }
        #expect(count.value == 0)
        store.commit { $0.label = "unrelated" }
        store.commit { $0.count = 0 }
        store.commit { $0.count = 4 }
        store.commit { $0.count = 4 }
        #expect(count.value == 4)
        #expect(recorder.values == [4])
        withExtendedLifetime(subscription) {}
    }

    @Test("a derived store by key path, with dynamic member lookup on its value")
    func derivedKeyPath() {
        let store = Store(CounterState())
        let label = store.derived(\.label)
        store.commit { $0.label = "hello" }
        #expect(label.value == "hello")
        #expect(label.count == 5)  // String.count through dynamic member lookup
    }

    @Test("a derived store keeps its source alive and stops when released")
    func derivedLifetime() {
        weak var weakStore: Store<CounterState>?
        var derived: Derived<Int>?
        do {
            let store = Store(CounterState())
            weakStore = store
            derived = store.derived(CounterState.countSelector)
        }
        #expect(weakStore != nil)
        weakStore?.commit { $0.count = 3 }
        #expect(derived?.value == 3)
        derived = nil
        #expect(weakStore == nil)
    }

    @Test("derived(…).assign(to: assignee(…)) pushes the current and later values")
    func assignBetweenStores() {
        let source = Store(CounterState())
        let target = Store(CounterState())
        source.commit { $0.count = 2 }
        let link = source.derived(CounterState.countSelector).assign(to: target.assignee(\.count))
        #expect(target.count == 2)
        source.commit { $0.count = 9 }
        #expect(target.count == 9)
        link.cancel()
        source.commit { $0.count = 10 }
        #expect(target.count == 9)
    }

    @Test("the assignee holds its store weakly")
    func assigneeIsWeak() {
        let source = Store(CounterState())
        weak var weakTarget: Store<CounterState>?
        var link: StoreSubscription?
        do {
            let target = Store(CounterState())
            weakTarget = target
            link = source.derived(CounterState.countSelector).assign(to: target.assignee(\.count))
        }
        #expect(weakTarget == nil)
        source.commit { $0.count = 1 }  // the target is gone: nothing happens, nothing crashes
        link?.cancel()
    }

    @Test("any AsyncSequence can be assigned to a store")
    func assignAsyncSequence() async throws {
        let target = Store(CounterState())
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let link = stream.assign(to: target.assignee(\.count))
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
        let values = try await first(1, of: target.select(\.count).filter { $0 == 3 })
        #expect(values == [3])
        link.cancel()
    }

    @Test("Observation tracks a derived value and fires only when it changes")
    func derivedObservation() {
        let store = Store(CounterState())
        let count = store.derived(CounterState.countSelector)
        let fired = Recorder<Bool>()
        withObservationTracking {
            _ = count.value
        } onChange: {
            fired.append(true)
        }
        store.commit { $0.label = "unrelated" }
        #expect(fired.values.isEmpty)
        store.commit { $0.count = 1 }
        #expect(fired.values == [true])
    }

    @Test("derived values stream")
    func derivedValues() async throws {
        let store = Store(CounterState())
        let count = store.derived(CounterState.countSelector)
        var iterator = count.values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        store.commit { $0.count = 1 }
        #expect(await iterator.next() == 1)
    }
}
