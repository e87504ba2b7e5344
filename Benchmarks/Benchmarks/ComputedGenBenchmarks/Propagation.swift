// Measure 8: the cost of change propagation's checks, and what the cutoff saves, each next to its
// baseline in the same run.

import Benchmark
import ComputedRuntime

func registerPropagationBenchmarks() {
    let items = Array(0..<elementCount)

    // The equality check an assignment makes (Int: one comparison), against the same write made
    // in place through `_modify`, which never compares.
    measure("8 write: unrelated field, assignment (compares, then stamps)", configuration(.mega)) {
        PropagationState(items: items)
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.unrelated = i
        }
        blackHole(state)
    }

    measure("8 write: unrelated field, in place (stamps, no comparison)", configuration(.mega)) {
        PropagationState(items: items)
    } _: { benchmark, initial in
        var state = initial
        for _ in benchmark.scaledIterations {
            state.unrelated += 1
        }
        blackHole(state)
    }

    measure("8 write: equal assignment (no change)", configuration(.mega)) {
        PropagationState(items: items)
    } _: { benchmark, initial in
        var state = initial
        for _ in benchmark.scaledIterations {
            state.unrelated = 0
        }
        blackHole(state)
    }

    // An in-place write that leaves the filtered array equal (an odd element changes to another
    // odd value), then a read of the count: with the cutoff the filter reruns and is compared, and
    // the count is kept; without it the count reruns too.
    measure("8 recompute: input write + count read, cutoff", configuration(.kilo)) {
        let state = PropagationState(items: items)
        blackHole(state.computed.evenCount)
        return state
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.items[1] = 2 * i + 1
            blackHole(state.computed.evenCount)
        }
    }

    measure("8 recompute: input write + count read, @NoCutoff", configuration(.kilo)) {
        let state = PropagationState(items: items)
        blackHole(state.computed.evenCountUncut)
        return state
    } _: { benchmark, initial in
        var state = initial
        for i in benchmark.scaledIterations {
            state.items[1] = 2 * i + 1
            blackHole(state.computed.evenCountUncut)
        }
    }
}
