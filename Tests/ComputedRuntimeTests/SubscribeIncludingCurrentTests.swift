import ConcurrencyTestSupport
import Foundation
import Testing

import ComputedRuntime

/// A hand-written state (Store works with any Sendable struct).
private struct Counter: Sendable, Equatable {
    var count = 0
}

/// `subscribe(includingCurrent:)`: the hook behind the Combine publishers (tested themselves in
/// Compat/, against OpenCombine).
@Suite("subscribe(includingCurrent:)")
struct SubscribeIncludingCurrentTests {
    @Test("a store delivers its current state first, before subscribe returns, then every commit")
    func store() {
        let store = Store(Counter(count: 1))
        let seen = Collected<[Int]>([])
        let subscription = store.subscribe(includingCurrent: true) { state in
            seen.withLock { $0.append(state.count) }
        }
        #expect(seen.value == [1])
        store.commit { $0.count = 2 }
        #expect(seen.value == [1, 2])
        subscription.cancel()
        store.commit { $0.count = 3 }
        #expect(seen.value == [1, 2])
        let withoutCurrent = store.subscribe(includingCurrent: false) { state in
            seen.withLock { $0.append(state.count) }
        }
        #expect(seen.value == [1, 2])
        withExtendedLifetime(withoutCurrent) {}
    }

    @Test("subscribing while other threads commit misses nothing and repeats nothing")
    func storeUnderConcurrentCommits() {
        let store = Store(Counter())
        let seen = Collected<[[Int]]>(Array(repeating: [], count: 4))
        let subscriptions = Collected<[StoreSubscription]>([])
        runOnThreads(4) { index in
            if index == 0 {
                for _ in 0..<500 { store.commit { $0.count += 1 } }
            } else {
                let subscription = store.subscribe(includingCurrent: true) { state in
                    seen.withLock { $0[index].append(state.count) }
                }
                subscriptions.withLock { $0.append(subscription) }
            }
        }
        for index in 1..<4 {
            let values = seen.value[index]
            // Consecutive values from the first one (the current state) to the last commit.
            #expect(values == Array((values.first ?? 0)...500))
        }
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a derived store delivers its current value first")
    func derived() {
        let store = Store(Counter(count: 4))
        let derived = store.derived(\.count)
        let seen = Collected<[Int]>([])
        let subscription = derived.subscribe(includingCurrent: true) { value in
            seen.withLock { $0.append(value) }
        }
        store.commit { $0.count = 4 }
        store.commit { $0.count = 5 }
        #expect(seen.value == [4, 5])
        withExtendedLifetime(subscription) {}
    }

    @Test("a shared value and its reader deliver the current value first")
    func shared() {
        let shared = Shared(value: "a")
        let seen = Collected<[String]>([])
        let subscription = shared.subscribe(includingCurrent: true) { value in
            seen.withLock { $0.append(value) }
        }
        let readerSubscription = shared.reader.subscribe(includingCurrent: true) { value in
            seen.withLock { $0.append("reader " + value) }
        }
        shared.wrappedValue = "b"
        #expect(seen.value == ["a", "reader a", "b", "reader b"])
        let plain = shared.reader.subscribe { value in seen.withLock { $0.append("plain " + value) } }
        shared.wrappedValue = "c"
        #expect(seen.value.suffix(3) == ["c", "reader c", "plain c"])
        withExtendedLifetime((subscription, readerSubscription, plain)) {}
    }
}
