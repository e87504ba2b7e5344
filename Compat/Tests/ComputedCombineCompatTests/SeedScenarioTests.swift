// The seeds' Combine pipelines, through ComputedRuntime's publishers (OpenCombine on Linux, the
// product's own Combine interop on Apple platforms).
import ComputedCombineCompat
import ComputedRuntime
import Foundation
import OpenCombineShim
import Testing

@Suite("Seed scenarios")
struct SeedScenarioTests {
    /// ReCombine's scoreboard: a view model selects the home score. Four commits that do not
    /// touch it and one that does give two values: the current one, then the new score.
    @Test func scoreboardSelectionSendsOnlyRelevantChanges() {
        let store = Store(ScoreboardState())
        let scores = Recorder<Int>()
        let labels = Recorder<String>()
        ScoreboardState.Selectors.homeLabel.resetRecomputations()
        let cancellable = store.publisher(for: ScoreboardState.Selectors.home)
            .sink { scores.append($0) }
        let labelCancellable = store.publisher(for: ScoreboardState.Selectors.homeLabel)
            .sink { labels.append($0) }

        store.commit { $0.away += 1 }
        store.commit { $0.isPosting = true }
        store.commit { $0.postedCount += 1 }
        store.commit { $0.isPosting = false }
        store.commit { $0.home += 1 }

        #expect(scores.values == [0, 1])
        #expect(labels.values == ["Home 0", "Home 1"])
        // Version stamps decide: the label's body ran for the first value and the one change.
        #expect(ScoreboardState.Selectors.homeLabel.recomputations == 2)
        cancellable.cancel()
        labelCancellable.cancel()
    }

    /// ReCombine: `store.select(selectValues).compactMap { … }.sink(…)`.
    @Test func selectCompactMapSink() {
        let store = Store(ValuesState())
        let received = Recorder<[String]>()
        let cancellable = store
            .publisher(for: ValuesState.Selectors.values)
            .compactMap({ values in values })
            .sink { received.append($0) }
        store.commit { $0.unrelated += 1 }
        store.commit { $0.values = ["a"] }
        store.commit { $0.values = ["a"] }   // equal: not a change
        store.commit { $0.values = nil }     // dropped by compactMap
        store.commit { $0.values = ["a", "b"] }
        #expect(received.values == [["a"], ["a", "b"]])
        cancellable.cancel()
    }

    /// ReCombine's advanced example: `scan` over the last n projected selections.
    @Test func scanKeepsTheLastNSelections() {
        let store = Store(ProjectionState())
        let received = Recorder<[ProjectedValues]>()
        let cancellable = store.selectLastStateTransitions(2)
            .sink { received.append($0) }
        store.commit { $0.foo = 1 }            // bar still nil: projection nil, dropped
        store.commit { $0.bar = 10 }           // (1, 10)
        store.commit { $0.unrelated = "x" }    // not an input: nothing
        store.commit { $0.foo = 2 }            // (2, 10)
        store.commit { $0.bar = 20 }           // (2, 20)
        let pairs = received.values.map { $0.map { [$0.foo, $0.bar] } }
        #expect(pairs == [
            [[1, 10]],
            [[1, 10], [2, 10]],
            [[2, 10], [2, 20]],
        ])
        cancellable.cancel()
    }

    /// Verge: `publisher.assign(to: store2.assignee(\.count))`.
    @Test func anyPublisherAssignsIntoAStore() {
        let subject = PassthroughSubject<Int, Never>()
        let store2 = Store(CounterState())
        let link = subject.assign(to: store2.assignee(\.count))
        subject.send(3)
        #expect(store2.state.count == 3)
        subject.send(4)
        #expect(store2.state.computed.doubled == 8)
        link.cancel()
        subject.send(5)
        #expect(store2.state.count == 4)
    }

    /// Verge: `store1.derived(.map(\.count)).assign(to: store2.assignee(\.count))`, and the same
    /// link through publishers.
    @Test func storeToStoreAssignThroughPublishers() {
        let store1 = Store(CounterState())
        let store2 = Store(CounterState())
        let store3 = Store(CounterState())
        let link = store1.derived(\.count).assign(to: store2.assignee(\.count))
        let publisherLink = store1.publisher(for: \.count).assign(to: store3.assignee(\.count))
        store1.commit { $0.count = 7 }
        store1.commit { $0.name = "unrelated" }
        #expect(store2.state.count == 7)
        #expect(store3.state.count == 7)
        withExtendedLifetime((link, publisherLink)) {}
    }

    /// The target of an assignment is held weakly, as with `Derived.assign(to:)`.
    @Test func assignHoldsTheTargetWeakly() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Store<CounterState>?
        var link: StoreSubscription?
        do {
            let target = Store(CounterState())
            weakTarget = target
            link = subject.assign(to: target.assignee(\.count))
            subject.send(1)
            #expect(target.state.count == 1)
        }
        #expect(weakTarget == nil)
        subject.send(2)   // dropped, no crash
        link?.cancel()
    }

    /// TCA: `state.$count.publisher.map(Action.countUpdated)` follows writes from another holder.
    ///
    /// References handed over explicitly here: the key-based sharing ("compat.count") is
    /// exercised by the TCA documentation test, and two tests writing one key in parallel would
    /// race.
    @Test func sharedPublisherFollowsOtherHolders() {
        let state = FeatureState(count: Shared(value: 0))
        let other = FeatureState(count: state.$count)
        let actions = Recorder<Action>()
        let cancellable = state.$count.publisher
            .map(Action.countUpdated)
            .sink { actions.append($0) }
        other.$count.withLock { $0 += 1 }
        other.count = 5
        let child = FeatureState(count: state.$count, title: "child")
        child.count += 1
        #expect(actions.values == [.countUpdated(0), .countUpdated(1), .countUpdated(5), .countUpdated(6)])
        cancellable.cancel()
    }
}
