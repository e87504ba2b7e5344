// Measure 11: the values apps hand to views (a String, an array), across modules: the states and
// every hand-written baseline live in the BenchModel library, read from this executable.

import BenchModel
import Benchmark
import ComputedRuntime

func registerHandOutBenchmarks() {
    let items = Array(0..<elementCount)

    // Two states with the same inputs (a new state value each call, as a view body gets).
    func pair() -> (ScoreState, ScoreState) {
        var first = ScoreState(items: items)
        var second = first
        first.unrelated = 1
        second.unrelated = 2
        return (first, second)
    }
    func plainPair() -> (ScorePlainState, ScorePlainState) {
        var first = ScorePlainState(items: items)
        var second = first
        first.unrelated = 1
        second.unrelated = 2
        return (first, second)
    }

    measure("11 hand out: String selector hit (createSelector)", configuration(.mega)) {
        let (first, second) = pair()
        blackHole(scoreText(first))
        return SelectorPair(first: first, second: second)
    } _: { benchmark, states in
        for i in benchmark.scaledIterations {
            blackHole(scoreText(i & 1 == 0 ? states.first : states.second))
        }
    }

    measure("11 hand out: String selector hit (last-input memo)", configuration(.mega)) {
        let (first, second) = plainPair()
        let memo = ScoreLastInputMemo()
        blackHole(memo(first))
        return (memo, SelectorPair(first: first, second: second))
    } _: { benchmark, setup in
        let (memo, states) = setup
        for i in benchmark.scaledIterations {
            blackHole(memo(i & 1 == 0 ? states.first : states.second))
        }
    }

    // The same baselines over a hand-written state of ScoreState's layout (a shared title).
    func layoutPair() -> (ScoreLayoutState, ScoreLayoutState) {
        var first = ScoreLayoutState(items: items)
        var second = first
        first.unrelated = 1
        second.unrelated = 2
        return (first, second)
    }

    measure("11 hand out: String selector hit (last-input memo, same layout)", configuration(.mega)) {
        let (first, second) = layoutPair()
        let memo = ScoreLastInputMemo()
        blackHole(memo(first))
        return (memo, SelectorPair(first: first, second: second))
    } _: { benchmark, setup in
        let (memo, states) = setup
        for i in benchmark.scaledIterations {
            blackHole(memo(i & 1 == 0 ? states.first : states.second))
        }
    }

    measure("11 hand out: parameterized String selector hit (last-input memo per argument, same layout)", configuration(.mega)) {
        let (first, second) = layoutPair()
        let memo = PagesArgumentMemo()
        blackHole(memo(10, first))
        return (memo, SelectorPair(first: first, second: second))
    } _: { benchmark, setup in
        let (memo, states) = setup
        for i in benchmark.scaledIterations {
            blackHole(memo(10, i & 1 == 0 ? states.first : states.second))
        }
    }

    measure("11 hand out: didSet cache kept in a variable (same layout)", configuration(.mega)) {
        let (first, second) = layoutPair()
        return SelectorPair(first: first, second: second)
    } _: { benchmark, states in
        var kept: [Int] = []
        for i in benchmark.scaledIterations {
            kept = (i & 1 == 0 ? states.first : states.second).evens
            blackHole(kept)
        }
    }

    measure("11 hand out: generated selector of a computed array, Selectors.evens(state)", configuration(.mega)) {
        let state = ScoreState(items: items)
        blackHole(ScoreState.Selectors.evens(state))
        return state
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(ScoreState.Selectors.evens(state))
        }
    }

    measure("11 hand out: state.computed.evens", configuration(.mega)) {
        let state = ScoreState(items: items)
        blackHole(state.computed.evens)
        return state
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(state.computed.evens)
        }
    }

    // The copy-out read: the array kept in a variable (the previous one released), as a view
    // model keeps what it shows; from two states in turn, so that the read is not hoisted out of
    // the loop, and each value kept is handed to `blackHole`, or the optimizer drops every
    // assignment but the last.
    measure("11 hand out: state.computed.evens kept in a variable", configuration(.mega)) {
        let (first, second) = pair()
        blackHole(first.computed.evens)
        blackHole(second.computed.evens)
        return SelectorPair(first: first, second: second)
    } _: { benchmark, states in
        var kept: [Int] = []
        for i in benchmark.scaledIterations {
            kept = (i & 1 == 0 ? states.first : states.second).computed.evens
            blackHole(kept)
        }
    }

    measure("11 hand out: didSet cache kept in a variable", configuration(.mega)) {
        var first = ModelDidSetState(items: items)
        var second = first
        first.unrelated = 1
        second.unrelated = 2
        return SelectorPair(first: first, second: second)
    } _: { benchmark, states in
        var kept: [Int] = []
        for i in benchmark.scaledIterations {
            kept = (i & 1 == 0 ? states.first : states.second).evens
            blackHole(kept)
        }
    }

    measure("11 hand out: parameterized String selector hit", configuration(.mega)) {
        let (first, second) = pair()
        blackHole(pagesText(10)(first))
        return SelectorPair(first: first, second: second)
    } _: { benchmark, states in
        for i in benchmark.scaledIterations {
            blackHole(pagesText(10)(i & 1 == 0 ? states.first : states.second))
        }
    }

    measure("11 hand out: parameterized String selector hit (last-input memo per argument)", configuration(.mega)) {
        let (first, second) = plainPair()
        let memo = PagesArgumentMemo()
        blackHole(memo(10, first))
        return (memo, SelectorPair(first: first, second: second))
    } _: { benchmark, setup in
        let (memo, states) = setup
        for i in benchmark.scaledIterations {
            blackHole(memo(10, i & 1 == 0 ? states.first : states.second))
        }
    }

    measure("11 hand out: state.computed.banner over a @Shared field (cached)", configuration(.mega)) {
        let state = ScoreState(items: items)
        blackHole(state.computed.banner)
        return state
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(state.computed.banner)
        }
    }

    measure("11 hand out: state.computed.header over a nested state's @Shared field (cached)", configuration(.mega)) {
        let screen = ScoreScreen(board: ScoreState(items: items))
        blackHole(screen.computed.header)
        return screen
    } _: { benchmark, screen in
        for _ in benchmark.scaledIterations {
            blackHole(screen.computed.header)
        }
    }

    measure("11 hand out: read the @Shared value (state.title)", configuration(.mega)) {
        ScoreState(items: items)
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(state.title)
        }
    }
}
