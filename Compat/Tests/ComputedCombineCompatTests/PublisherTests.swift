// The publishers' contract: current value first, then the async sequences' values; demand;
// cancellation; re-entrancy; concurrency; no clash with Combine's own `assign`.
import ComputedCombineCompat
import ComputedRuntime
import Dispatch
import Foundation
import OpenCombineShim
import Testing

@Suite("Publishers")
struct PublisherTests {
    @Test func storePublisherSendsCurrentStateThenEveryCommit() {
        let store = Store(CounterState(count: 1))
        let counts = Recorder<Int>()
        let cancellable = store.publisher.sink { counts.append($0.count) }
        #expect(counts.values == [1])           // before `sink` returned
        store.commit { $0.count = 2 }
        store.commit { $0.name = "x" }          // a commit: the states publisher sends it
        #expect(counts.values == [1, 2, 2])
        #expect(store.subscriberCount == 1)
        cancellable.cancel()
        #expect(store.subscriberCount == 0)
        store.commit { $0.count = 3 }
        #expect(counts.values == [1, 2, 2])
    }

    @Test func releasingTheCancellableEndsTheSubscription() {
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        var cancellable: AnyCancellable? = store.publisher(for: \.count).sink { counts.append($0) }
        store.commit { $0.count = 1 }
        _ = cancellable
        cancellable = nil
        #expect(store.subscriberCount == 0)
        store.commit { $0.count = 2 }
        #expect(counts.values == [0, 1])
    }

    @Test func keyPathSelectionSkipsEqualValues() {
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        let cancellable = store.publisher(for: \.count).sink { counts.append($0) }
        store.commit { $0.count = 0 }
        store.commit { $0.name = "x" }
        store.commit { $0.count = 4 }
        store.commit { $0.count = 4 }
        #expect(counts.values == [0, 4])
        cancellable.cancel()
    }

    @Test func unversionedNonEquatableSelectionSendsEveryCommit() {
        struct Box: Sendable { var count: Int }
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        let cancellable = store.publisher(for: StateSelector<CounterState, Box> { Box(count: $0.count) })
            .sink { counts.append($0.count) }
        store.commit { $0.name = "x" }
        #expect(counts.values == [0, 0])
        cancellable.cancel()
    }

    /// A versioned selector of a non-`Equatable` value: distinct by version stamp alone, so a
    /// commit that leaves the stamp unchanged sends nothing.
    @Test func versionedNonEquatableSelectionSendsOnlyForNewStamps() {
        struct Box: Sendable { var count: Int }
        let count = CounterState.Selectors.count
        let boxed = StateSelector<CounterState, Box>(version: { count.version($0)! }) { Box(count: count($0)) }
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        let cancellable = store.publisher(for: boxed).sink { counts.append($0.count) }
        store.commit { $0.name = "x" }
        store.commit { $0.count = 1 }
        store.commit { $0.name = "y" }
        #expect(counts.values == [0, 1])
        cancellable.cancel()
    }

    @Test func eachSubscriberHasItsOwnDistinctFilter() {
        let store = Store(CounterState())
        let publisher = store.publisher(for: CounterState.Selectors.doubled)
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let a = publisher.sink { first.append($0) }
        store.commit { $0.count = 1 }
        let b = publisher.sink { second.append($0) }
        store.commit { $0.count = 2 }
        #expect(first.values == [0, 2, 4])
        #expect(second.values == [2, 4])
        withExtendedLifetime((a, b)) {}
    }

    @Test func derivedPublisherKeepsItsDerivedStoreAlive() {
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        let cancellable = store.derived(\.count).publisher.sink { counts.append($0) }
        store.commit { $0.count = 1 }
        store.commit { $0.name = "x" }
        store.commit { $0.count = 2 }
        #expect(counts.values == [0, 1, 2])
        cancellable.cancel()
        #expect(store.subscriberCount == 0)
    }

    @Test func sharedReaderPublisher() {
        let shared = Shared(value: 1)
        let values = Recorder<Int>()
        let cancellable = shared.reader.publisher.sink { values.append($0) }
        shared.withLock { $0 += 1 }
        #expect(values.values == [1, 2])
        cancellable.cancel()
        shared.withLock { $0 += 1 }
        #expect(values.values == [1, 2])
    }

    /// A subscriber with limited demand gets the current value, then the newest value whenever it
    /// asks again: older undelivered values are replaced, and commits never wait.
    @Test func limitedDemandKeepsTheNewestValue() {
        let store = Store(CounterState())
        let subscriber = DemandingSubscriber<Int>()
        store.publisher(for: \.count).subscribe(subscriber)
        subscriber.request(1)
        #expect(subscriber.received == [0])
        for count in 1...5 {
            store.commit { $0.count = count }  // no demand: kept, newest only
        }
        #expect(subscriber.received == [0])
        subscriber.request(1)
        #expect(subscriber.received == [0, 5])
        subscriber.request(2)
        store.commit { $0.count = 6 }
        store.commit { $0.count = 7 }
        store.commit { $0.count = 8 }
        #expect(subscriber.received == [0, 5, 6, 7])
        subscriber.cancel()
        #expect(store.subscriberCount == 0)
    }

    @Test func cancellingInsideReceiveStopsBeforeTheNextValue() {
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        let cancellable = store.publisher(for: \.count).prefix(2).sink { counts.append($0) }
        store.commit { $0.count = 1 }
        store.commit { $0.count = 2 }
        #expect(counts.values == [0, 1])
        #expect(store.subscriberCount == 0)
        cancellable.cancel()
    }

    /// A subscriber that commits to the same store neither deadlocks nor reorders values.
    @Test func subscriberMayCommitToTheSameStore() {
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        let cancellable = store.publisher(for: \.count).sink { count in
            counts.append(count)
            if count == 1 { store.commit { $0.count = 2 } }
        }
        store.commit { $0.count = 1 }
        #expect(counts.values == [0, 1, 2])
        #expect(store.state.count == 2)
        cancellable.cancel()
    }

    /// Commits from many threads: each subscriber sees increasing values, ending with the last.
    @Test func concurrentCommitsArriveInCommitOrder() async {
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        let cancellable = store.publisher(for: \.count).sink { counts.append($0) }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<250 {
                store.commit { $0.count += 1 }
            }
        }
        let received = await counts.wait(for: 1_001)
        #expect(received == Array(0...1_000))
        cancellable.cancel()
    }

    @Test func receiveOnMovesDeliveryToAnotherScheduler() async {
        let store = Store(CounterState())
        let counts = Recorder<Int>()
        let queue = DispatchQueue(label: "compat.receive-on")
        let cancellable = store.publisher(for: \.count)
            .removeDuplicates()
            .receive(on: queue)
            .sink { counts.append($0) }
        store.commit { $0.count = 1 }
        #expect(await counts.wait(for: 2) == [0, 1])
        cancellable.cancel()
    }

    /// `assign(to:)` with an assignee sits beside Combine's own `assign(to:on:)` and
    /// `assign(to: &$published)`, and its token goes into a `Set<AnyCancellable>`.
    @Test func assignOverloadsDoNotClash() {
        final class Model: ObservableObject, @unchecked Sendable {
            @Published var count = 0
            var plain = 0
        }
        let store = Store(CounterState())
        let target = Store(CounterState())
        let model = Model()
        var cancellables = Set<AnyCancellable>()
        store.publisher(for: \.count).assign(to: target.assignee(\.count)).store(in: &cancellables)
        store.publisher(for: \.count).assign(to: \.plain, on: model).store(in: &cancellables)
        store.publisher(for: \.count).assign(to: &model.$count)
        var links = Set<StoreSubscription>()
        store.publisher(for: \.count).assign(to: target.assignee(\.name)
            .mapped { "\($0)" }).store(in: &links)
        store.commit { $0.count = 9 }
        #expect(target.state.count == 9)
        #expect(target.state.name == "9")
        #expect(model.plain == 9)
        #expect(model.count == 9)
        cancellables.removeAll()
        links.removeAll()
        store.commit { $0.count = 10 }
        #expect(target.state.count == 9)
        #expect(model.plain == 9)
    }
}

extension Assignee {
    /// An assignee of another type, for the overload test.
    func mapped<Input>(_ transform: @escaping @Sendable (Input) -> Value) -> Assignee<Input> {
        Assignee<Input> { self(transform($0)) }
    }
}

/// A subscriber that asks for values only when told to.
final class DemandingSubscriber<Input: Sendable>: Subscriber, @unchecked Sendable {
    typealias Failure = Never
    // Safety: the properties are reached only under `lock`.
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    private var values: [Input] = []

    var received: [Input] {
        lock.withLock { values }
    }

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { values.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func request(_ count: Int) {
        lock.withLock { subscription }?.request(.max(count))
    }

    func cancel() {
        lock.withLock { subscription }?.cancel()
    }
}
