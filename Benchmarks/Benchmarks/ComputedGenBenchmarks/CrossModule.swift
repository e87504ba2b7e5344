// Measure 9: the layout apps have. The states and every hand-written baseline live in the
// BenchModel library; this executable is another module, so neither side is inlined across the
// boundary unless its declarations allow it. Same operations as measures 1–3 and 7.

import BenchModel
import Benchmark
import ComputedRuntime

func registerCrossModuleBenchmarks() {
    let items = Array(0..<elementCount)
    let large = Array(0..<100_000)

    // Cached read, copying the derived array out.
    measure("9 across modules: read state.computed.evens (cached)", configuration(.mega)) {
        let state = ModelState(items: items)
        blackHole(state.computed.evens)
        return state
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(state.computed.evens)
        }
    }

    measure("9 across modules: read didSet cache", configuration(.mega)) {
        ModelDidSetState(items: items)
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(state.evens)
        }
    }

    measure("9 across modules: read naive computed property", configuration(.kilo)) {
        ModelNaiveState(items: items)
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(state.evens)
        }
    }

    // An in-place write to an input with dependents (100,000 elements: a copy would show).
    // Allocations are counted too: a write must stay in place (no copy of the array, no new memo
    // cell); the one copy of each per iteration, when `state` first diverges from `initial`, is
    // shared by a million operations.
    measure("9 across modules: append + removeLast on an input (2 dependents)", configuration(.mega, metrics: timeMetrics + [.mallocCountTotal])) {
        let state = ModelState(items: large)
        blackHole(state.computed.evenCount)
        return state
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.items.append(i)
            blackHole(state.items.removeLast())
        }
    }

    measure("9 across modules: append + removeLast, plain struct", configuration(.mega, metrics: timeMetrics + [.mallocCountTotal])) {
        ModelPlainState(items: large)
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.items.append(i)
            blackHole(state.items.removeLast())
        }
    }

    // A write to a field nothing reads.
    // Each write is read back through `blackHole`, or the optimizer drops the plain struct's
    // loop (every write but the last is dead).
    measure("9 across modules: write a field nothing reads", configuration(.mega)) {
        ModelState(items: items)
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.unrelated = i
            blackHole(state.unrelated)
        }
    }

    measure("9 across modules: write a field, plain struct", configuration(.mega)) {
        ModelPlainState(items: items)
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.unrelated = i
            blackHole(state.unrelated)
        }
    }

    // A selector hit: inputs unchanged, a new state value each call.
    measure("9 across modules: selector hit (generated selectors)", configuration(.mega)) {
        var first = ModelState(items: items)
        var second = first
        second.unrelated = 1
        first.unrelated = 2
        blackHole(modelOverThreshold(first))
        return SelectorPair(first: first, second: second)
    } _: { benchmark, pair in
        for i in benchmark.scaledIterations {
            blackHole(modelOverThreshold(i & 1 == 0 ? pair.first : pair.second))
        }
    }

    measure("9 across modules: selector hit (last-input memo)", configuration(.mega)) {
        let memo = ModelLastInputMemo()
        var first = ModelPlainState(items: items)
        var second = first
        second.unrelated = 1
        first.unrelated = 2
        blackHole(memo(first))
        return (memo, SelectorPair(first: first, second: second))
    } _: { benchmark, setup in
        let (memo, pair) = setup
        for i in benchmark.scaledIterations {
            blackHole(memo(i & 1 == 0 ? pair.first : pair.second))
        }
    }

    // A commit with no subscriber against a locked struct.
    measure("9 across modules: store commit, no subscriber", configuration(.kilo)) {
        Store(ModelState(items: items))
    } _: { benchmark, store in
        for i in benchmark.scaledIterations {
            store.commit { $0.unrelated = i }
        }
    }

    measure("9 across modules: NSLock around a struct, commit", configuration(.kilo)) {
        ModelLockedState(ModelPlainState(items: items))
    } _: { benchmark, locked in
        for i in benchmark.scaledIterations {
            locked.commit { $0.unrelated = i }
        }
    }
}
