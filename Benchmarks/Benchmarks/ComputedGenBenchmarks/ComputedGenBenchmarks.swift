// ComputedGen's benchmarks: every measure runs next to its baselines in the same run.
//
// Each benchmark loops `benchmark.scaledIterations` times over one operation, so package-benchmark
// reports per-operation numbers; Benchmarks/run.sh turns the medians into Docs/Performance.md.
// States are bound with `let` (or local `var`s): a global `var` struct would be copied on every
// access and hide what is measured. Results go through `blackHole` so nothing is optimized away.
//
// Keep the names in sync with the ROWS table of Benchmarks/report.py.

import Benchmark
import ComputedRuntime
import Foundation

/// 10,000 elements: the size of the naive property's filter (measures 1, 2 and 4).
let elementCount = 10_000

/// The metrics every benchmark records (JMH export, which run.sh reads, needs throughput).
let timeMetrics: [BenchmarkMetric] = [.wallClock, .throughput]

/// A configuration with `scale` operations per iteration. The `ops` tag (shown after the name)
/// carries that number to Benchmarks/report.py, which reads raw per-iteration times.
func configuration(
    _ scale: BenchmarkScalingFactor,
    metrics: [BenchmarkMetric] = timeMetrics,
    maxDuration: Duration = .seconds(1)
) -> Benchmark.Configuration {
    .init(
        metrics: metrics,
        tags: ["ops": "\(scale.rawValue)"],
        warmupIterations: 3,
        scalingFactor: scale,
        maxDuration: maxDuration,
        maxIterations: 100_000
    )
}

/// Registers a benchmark whose state is built (and warmed) outside the measurement.
///
/// Profile mode: with `COMPUTEDGEN_PROFILE=<benchmark name without the ops tag>` in the
/// environment, the executable runs that benchmark's body once (`scale` operations) inside
/// ``profiledRun(_:)`` and exits, without package-benchmark. For callgrind:
///
///     COMPUTEDGEN_PROFILE="2 write: plain struct field" valgrind --tool=callgrind \
///         --collect-atstart=no --toggle-collect='*profiledRun*' \
///         Benchmarks/.build/release/ComputedGenBenchmarks
///
/// then divide the `Ir` total by the `ops` count.
func measure<State>(
    _ name: String,
    _ configuration: Benchmark.Configuration,
    setup: @escaping () throws -> State,
    _ body: @escaping (Benchmark, State) -> Void
) {
    if let profiled = ProcessInfo.processInfo.environment["COMPUTEDGEN_PROFILE"] {
        guard profiled == name, let benchmark = Benchmark(name, configuration: configuration, closure: { _ in }) else {
            return
        }
        do {
            let state = try setup()
            profiledRun { body(benchmark, state) }
            print("profiled '\(name)': \(configuration.scalingFactor.rawValue) operations")
            exit(0)
        } catch {
            print("setup of '\(name)' failed: \(error)")
            exit(1)
        }
    }
    Benchmark(name, configuration: configuration, closure: body, setup: { try setup() })
}

/// The function callgrind collects in profile mode (see ``measure(_:_:setup:_:)``).
@inline(never)
func profiledRun(_ body: () -> Void) {
    body()
}

let benchmarks: @Sendable () -> Void = {
    registerReadBenchmarks()
    registerWriteBenchmarks()
    registerPropagationBenchmarks()
    registerCrossModuleBenchmarks()
    registerHandOutBenchmarks()
    registerSelectorBenchmarks()
    registerParameterizedSelectorBenchmarks()
    registerEqualityBenchmarks()
    registerGeneratorBenchmarks()
    registerStoreBenchmarks()
    registerIterationBenchmarks()
    registerTraceBenchmarks()
    registerStoreObservationBenchmarks()
    registerCrossModuleStoreBenchmarks()
    registerIncrementalBenchmarks()
    registerGroupBenchmarks()
    registerSectionBenchmarks()
    registerFeedReaderBenchmarks()
    registerJoinBenchmarks()
    if let profiled = ProcessInfo.processInfo.environment["COMPUTEDGEN_PROFILE"] {
        print("no benchmark named '\(profiled)'")
        exit(1)
    }
}

// MARK: - 1. Reads

func registerReadBenchmarks() {
    let items = Array(0..<elementCount)

    measure("1 read: state.computed.evens (cached)", configuration(.mega)) {
        let state = ReadState(items: items)
        blackHole(state.computed.evens)  // computed once, outside the measurement
        return state
    } _: { benchmark, setup in
        let state = setup
        for _ in benchmark.scaledIterations {
            blackHole(state.computed.evens)
        }
    }

    measure("1 read: stored property", configuration(.mega)) {
        StoredReadState(items: items)
    } _: { benchmark, setup in
        let state = setup
        for _ in benchmark.scaledIterations {
            blackHole(state.evens)
        }
    }

    measure("1 read: didSet cache", configuration(.mega)) {
        DidSetReadState(items: items)
    } _: { benchmark, setup in
        let state = setup
        for _ in benchmark.scaledIterations {
            blackHole(state.evens)
        }
    }

    measure("1 read: naive computed property", configuration(.kilo)) {
        NaiveReadState(items: items)
    } _: { benchmark, setup in
        let state = setup
        for _ in benchmark.scaledIterations {
            blackHole(state.evens)
        }
    }

    measure("1 read: state.computed.evenCount (cached Int)", configuration(.mega)) {
        let state = ReadState(items: items)
        blackHole(state.computed.evenCount)
        return state
    } _: { benchmark, setup in
        let state = setup
        for _ in benchmark.scaledIterations {
            blackHole(state.computed.evenCount)
        }
    }

    measure("1 read: stored Int property", configuration(.mega)) {
        StoredReadState(items: items)
    } _: { benchmark, setup in
        let state = setup
        for _ in benchmark.scaledIterations {
            blackHole(state.evenCount)
        }
    }
}

// MARK: - 2. Writes

func registerWriteBenchmarks() {
    let items = Array(0..<elementCount)
    let mask = 8_191  // indices stay within the 10,000 elements

    measure("2 write: input field (state.items[i] = x)", configuration(.mega)) {
        let state = ReadState(items: items)
        blackHole(state.computed.evenCount)
        return state
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.items[i & mask] = i
        }
        blackHole(state)
    }

    measure("2 write: plain struct field", configuration(.mega)) {
        StoredReadState(items: items)
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.items[i & mask] = i
        }
        blackHole(state)
    }

    measure("2 write: unrelated field, then computed read", configuration(.mega)) {
        let state = ReadState(items: items)
        blackHole(state.computed.evens)
        return state
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.unrelated = i
            blackHole(state.computed.evens)
        }
    }

    measure("2 write: plain unrelated field, then stored read", configuration(.mega)) {
        StoredReadState(items: items)
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.unrelated = i
            blackHole(state.evens)
        }
    }
}

// MARK: - 3. StateSelector hits on a new state value

/// Two state values whose selector inputs are the same but that differ in an unrelated field:
/// alternating between them makes every call see a new state value with unchanged inputs.
struct SelectorPair<State>: @unchecked Sendable {
    let first: State
    let second: State
}

func registerSelectorBenchmarks() {
    for exponent in [2, 4, 6] {
        let size = Int(pow10(exponent))

        measure("3 selector hit n=1e\(exponent): createSelector over generated selectors", configuration(.mega)) {
            () -> (SelectorPair<SelectionState>, StateSelector<SelectionState, Int>) in
            var first = SelectionState(items: Array(0..<size), threshold: size / 2)
            first.unrelated = 1
            var second = first
            second.unrelated = 2
            let selector = createSelector(SelectionState.Selectors.items, SelectionState.Selectors.threshold) {
                items, threshold in items.count(where: { $0 > threshold })
            }
            blackHole(selector(first))
            precondition(selector.recomputations == 1)
            return (SelectorPair(first: first, second: second), selector)
        } _: { benchmark, setup in
            let (pair, selector) = setup
            for i in benchmark.scaledIterations {
                blackHole(selector(i & 1 == 0 ? pair.first : pair.second))
            }
            precondition(selector.recomputations == 1, "every call must be a hit")
        }

        measure("3 selector hit n=1e\(exponent): Equatable memo (ReCombine), shared inputs", configuration(.mega)) {
            () -> (SelectorPair<PlainSelectionState>, EquatableMemo<PlainSelectionState, [Int], Int, Int>) in
            var first = PlainSelectionState(items: Array(0..<size), threshold: size / 2)
            first.unrelated = 1
            var second = first
            second.unrelated = 2
            let memo = EquatableMemo({ (state: PlainSelectionState) in state.items }, { $0.threshold }) {
                items, threshold in items.count(where: { $0 > threshold })
            }
            blackHole(memo(first))
            return (SelectorPair(first: first, second: second), memo)
        } _: { benchmark, setup in
            let (pair, memo) = setup
            for i in benchmark.scaledIterations {
                blackHole(memo(i & 1 == 0 ? pair.first : pair.second))
            }
            precondition(memo.recomputations == 1, "every call must be a hit")
        }

        // The `==` approach's expensive case: the input is equal but was rebuilt (decoded, or
        // mapped by a reducer), so `==` compares every element. Shown for context.
        measure("3 selector hit n=1e\(exponent): Equatable memo (ReCombine), rebuilt equal inputs", configuration(size >= 1_000_000 ? .one : .kilo)) {
            () -> (SelectorPair<PlainSelectionState>, EquatableMemo<PlainSelectionState, [Int], Int, Int>) in
            let first = PlainSelectionState(items: Array(0..<size), threshold: size / 2)
            var second = first
            second.items = first.items.map { $0 }  // equal, in a new buffer
            second.unrelated = 2
            let memo = EquatableMemo({ (state: PlainSelectionState) in state.items }, { $0.threshold }) {
                items, threshold in items.count(where: { $0 > threshold })
            }
            blackHole(memo(first))
            return (SelectorPair(first: first, second: second), memo)
        } _: { benchmark, setup in
            let (pair, memo) = setup
            for _ in benchmark.scaledIterations {
                // A hit keeps the first state's inputs, so every call compares them with `==`.
                blackHole(memo(pair.second))
            }
            precondition(memo.recomputations == 1, "every call must be a hit")
        }
    }
}

func pow10(_ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { result, _ in result * 10 }
}

// MARK: - 4. Parameterized selectors

func registerParameterizedSelectorBenchmarks() {
    let arguments = 1_000

    measure("4 parameterized selector, 1,000 arguments: cache 1024", configuration(.kilo)) {
        let state = SelectionState(items: Array(0..<elementCount))
        for argument in 0..<arguments {
            blackHole(SelectionState.Selectors.above(argument)(state))
        }
        return state
    } _: { benchmark, state in
        for argument in benchmark.scaledIterations {
            blackHole(SelectionState.Selectors.above(argument)(state))
        }
    }

    measure("4 parameterized selector, 1,000 arguments: cache 1", configuration(.kilo)) {
        SelectionState(items: Array(0..<elementCount))
    } _: { benchmark, state in
        for argument in benchmark.scaledIterations {
            blackHole(SelectionState.Selectors.aboveCacheOne(argument)(state))
        }
    }
}

// MARK: - 5. Equality

/// Compares two states behind a call the optimizer cannot hoist out of the loop.
@inline(never)
func areEqual<State: Equatable>(_ lhs: State, _ rhs: State) -> Bool {
    lhs == rhs
}

func registerEqualityBenchmarks() {
    measure("5 == on 20 fields, last changed: generated", configuration(.mega)) {
        let lhs = WideState()
        var rhs = lhs
        rhs.field19.toggle()
        return SelectorPair(first: lhs, second: rhs)
    } _: { benchmark, pair in
        for _ in benchmark.scaledIterations {
            blackHole(areEqual(pair.first, pair.second))
        }
    }

    measure("5 == on 20 fields, last changed: synthesized", configuration(.mega)) {
        let lhs = WideBaseline()
        var rhs = lhs
        rhs.field19.toggle()
        return SelectorPair(first: lhs, second: rhs)
    } _: { benchmark, pair in
        for _ in benchmark.scaledIterations {
            blackHole(areEqual(pair.first, pair.second))
        }
    }
}

// MARK: - 7. Store

/// Reads the computed value `c<index>` of `state`, as a subscriber showing one of the ten would
/// (measures 7 and 15).
@inline(__always)
func readComputedValue(_ index: Int, of state: StoreBenchState) {
    switch index {
    case 0: blackHole(state.computed.c0)
    case 1: blackHole(state.computed.c1)
    case 2: blackHole(state.computed.c2)
    case 3: blackHole(state.computed.c3)
    case 4: blackHole(state.computed.c4)
    case 5: blackHole(state.computed.c5)
    case 6: blackHole(state.computed.c6)
    case 7: blackHole(state.computed.c7)
    case 8: blackHole(state.computed.c8)
    default: blackHole(state.computed.c9)
    }
}

func registerStoreBenchmarks() {
    let items = Array(0..<1_000)

    for subscriberCount in [0, 100] {
        measure("7 store: commit + computed read, \(subscriberCount) subscribers", configuration(.kilo)) {
            let store = Store(StoreBenchState(count: 0, items: items))
            let subscriptions = (0..<subscriberCount).map { index in
                store.subscribe { state in readComputedValue(index % 10, of: state) }
            }
            return (store, subscriptions)
        } _: { benchmark, setup in
            let store = setup.0
            for _ in benchmark.scaledIterations {
                store.commit { $0.count += 1 }
                blackHole(store.state.computed.c9)
            }
            withExtendedLifetime(setup.1) {}
        }
    }

    measure("7 store: plain struct write + stored read", configuration(.mega)) {
        PlainStoreState(count: 0, items: items, c9: 0)
    } _: { benchmark, initial in
        var state = initial
        for _ in benchmark.scaledIterations {
            state.count += 1
            blackHole(state.c9)
        }
    }
}
