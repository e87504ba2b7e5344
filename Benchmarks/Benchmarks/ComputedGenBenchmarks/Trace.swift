// Measure 15 (issue 33): what a change trace costs while it records. A store commit that
// recomputes ten computed values and wakes ten subscribers (each reads one value, as a view
// would), with no trace recording and inside `ChangeTrace.record`, in the same run; and writing
// a trace of 10^5 commits as a Chrome Trace Event file, against a one-second budget. (What a
// trace costs while none records, on the hit, write and commit paths, is in the instruction
// counts of Benchmarks/profile.sh and measures 7 and 10.)

import Benchmark
import ComputedRuntime
import Foundation

func registerTraceBenchmarks() {
    let items = Array(0..<1_000)

    /// A store of `StoreBenchState` with ten subscribers, each reading one of its ten values.
    func storeWithSubscribers() -> (Store<StoreBenchState>, [StoreSubscription]) {
        let store = Store(StoreBenchState(count: 0, items: items))
        let subscriptions = (0..<10).map { index in
            store.subscribe { state in readComputedValue(index, of: state) }
        }
        return (store, subscriptions)
    }

    measure("15 trace off: commit, 10 values recomputed, 10 subscribers", configuration(.kilo)) {
        storeWithSubscribers()
    } _: { benchmark, setup in
        let store = setup.0
        for _ in benchmark.scaledIterations {
            store.commit { $0.count += 1 }
        }
        withExtendedLifetime(setup.1) {}
    }

    measure("15 trace on: commit, 10 values recomputed, 10 subscribers", configuration(.kilo)) {
        storeWithSubscribers()
    } _: { benchmark, setup in
        let store = setup.0
        ChangeTrace.record { _ in
            for _ in benchmark.scaledIterations {
                store.commit { $0.count += 1 }
            }
        }
        withExtendedLifetime(setup.1) {}
    }

    measure("15 trace: Chrome Trace Event file of 10^5 commits", configuration(.one, maxDuration: .seconds(5))) {
        let store = Store(StoreBenchState(count: 0, items: items))
        return ChangeTrace.record(capacity: 100_000) { _ in
            for _ in 0..<100_000 {
                store.commit { $0.count += 1 }
            }
        }
    } _: { benchmark, trace in
        for _ in benchmark.scaledIterations {
            blackHole(trace.chromeTraceJSON())
        }
    }
}
