// A callgrind harness for the cross-module layout (measure 9): the states, the selector and the
// hand-written baselines are in the BenchModel library, this executable is another module.
// Benchmarks/profile-cross-module.sh builds it; callgrind collects only `profiledRun`.
//
// Usage: CrossModuleProfile SCENARIO [OPERATIONS]
// The `-pair` scenarios take the states out of a struct captured by a closure, as the benchmark
// closures do: that copy retains every reference the state holds (one per memo cell of a
// generated state), which the benchmark's times include.
import BenchModel
import ComputedRuntime

@inline(never) @_optimize(none)
func blackHole<T>(_: T) {}

@inline(never)
func profiledRun(_ body: () -> Void) { body() }

@inline(never) func selectorHits(_ first: ModelState, _ second: ModelState, _ n: Int) {
    for i in 0..<n { blackHole(modelOverThreshold(i & 1 == 0 ? first : second)) }
}
@inline(never) func memoHits(_ memo: ModelLastInputMemo, _ first: ModelPlainState, _ second: ModelPlainState, _ n: Int) {
    for i in 0..<n { blackHole(memo(i & 1 == 0 ? first : second)) }
}
@inline(never) func cachedReads(_ state: ModelState, _ n: Int) {
    for _ in 0..<n { blackHole(state.computed.evens) }
}
@inline(never) func didSetReads(_ state: ModelDidSetState, _ n: Int) {
    for _ in 0..<n { blackHole(state.evens) }
}
@inline(never) func writeUnrelated(_ initial: ModelState, _ n: Int) {
    var state = initial
    for i in 0..<n { state.unrelated = i; blackHole(state.unrelated) }
}
@inline(never) func writeUnrelatedPlain(_ initial: ModelPlainState, _ n: Int) {
    var state = initial
    for i in 0..<n { state.unrelated = i; blackHole(state.unrelated) }
}
@inline(never) func appendRemove(_ initial: ModelState, _ n: Int) {
    var state = initial
    for i in 0..<n { state.items.append(i); blackHole(state.items.removeLast()) }
}
@inline(never) func appendRemovePlain(_ initial: ModelPlainState, _ n: Int) {
    var state = initial
    for i in 0..<n { state.items.append(i); blackHole(state.items.removeLast()) }
}

@inline(never) func commitsObserved(_ store: Store<ModelState>, _ n: Int) {
    for _ in 0..<n { store.commit { $0.unrelated &+= 1 } }
}
@inline(never) func commitsSubscribed(_ store: Store<ModelState>, _ n: Int) {
    for _ in 0..<n { store.commit { $0.unrelated &+= 1 } }
}

struct SelectorPair<State>: @unchecked Sendable {
    let first: State
    let second: State
}
// The benchmark's shape: the pair captured by the measured closure.
@inline(never) func runBody<T>(_ value: T, _ body: @escaping (T) -> Void) { body(value) }

/// Two generated states that differ only in `unrelated` (which the selector does not read), the
/// selector's value already cached: every call is a hit.
func selectorStates(_ items: [Int]) -> SelectorPair<ModelState> {
    var first = ModelState(items: items)
    var second = first
    second.unrelated = 1
    first.unrelated = 2
    blackHole(modelOverThreshold(first))
    return SelectorPair(first: first, second: second)
}

/// The same two states, hand-written, with the memo's value cached.
func memoStates(_ items: [Int], _ memo: ModelLastInputMemo) -> SelectorPair<ModelPlainState> {
    var first = ModelPlainState(items: items)
    var second = first
    second.unrelated = 1
    first.unrelated = 2
    blackHole(memo(first))
    return SelectorPair(first: first, second: second)
}

// Measure 11: values handed out.
@inline(never) func stringSelectorHits(_ first: ScoreState, _ second: ScoreState, _ n: Int) {
    for i in 0..<n { blackHole(scoreText(i & 1 == 0 ? first : second)) }
}
@inline(never) func stringMemoHits(_ memo: ScoreLastInputMemo, _ first: ScorePlainState, _ second: ScorePlainState, _ n: Int) {
    for i in 0..<n { blackHole(memo(i & 1 == 0 ? first : second)) }
}
@inline(never) func computedSelectorHits(_ state: ScoreState, _ n: Int) {
    for _ in 0..<n { blackHole(ScoreState.Selectors.evens(state)) }
}
@inline(never) func parameterizedHits(_ first: ScoreState, _ second: ScoreState, _ n: Int) {
    for i in 0..<n { blackHole(pagesText(10)(i & 1 == 0 ? first : second)) }
}
@inline(never) func viewReads(_ state: BenchInbox, _ n: Int) {
    for _ in 0..<n { blackHole(state.computed.unread) }
}
@inline(never) func sharedMemoHits(_ state: ScoreState, _ n: Int) {
    for _ in 0..<n { blackHole(state.computed.banner) }
}
let arguments = CommandLine.arguments
let scenario = arguments.count > 1 ? arguments[1] : ""
let operations = arguments.count > 2 ? Int(arguments[2])! : 100_000
let items = Array(0..<10_000)
let large = Array(0..<100_000)
switch scenario {
case "selector-hit":
    let pair = selectorStates(items)
    profiledRun { selectorHits(pair.first, pair.second, operations) }
case "memo-hit":
    let memo = ModelLastInputMemo()
    let pair = memoStates(items, memo)
    profiledRun { memoHits(memo, pair.first, pair.second, operations) }
case "write-unrelated":
    let state = ModelState(items: items)
    profiledRun { writeUnrelated(state, operations) }
case "write-unrelated-plain":
    let state = ModelPlainState(items: items)
    profiledRun { writeUnrelatedPlain(state, operations) }
case "append-remove":
    let state = ModelState(items: large)
    blackHole(state.computed.evenCount)
    profiledRun { appendRemove(state, operations) }
case "cached-read":
    let state = ModelState(items: items)
    blackHole(state.computed.evens)
    profiledRun { cachedReads(state, operations) }
case "cached-read-didset":
    let state = ModelDidSetState(items: items)
    profiledRun { didSetReads(state, operations) }
case "append-remove-plain":
    let state = ModelPlainState(items: large)
    profiledRun { appendRemovePlain(state, operations) }
case "commit-observed":
    let store = Store(ModelState(items: items))
    _ = store.items  // the store observes a member: every commit finds out what changed
    profiledRun { commitsObserved(store, operations) }
case "commit-subscribed":
    let store = Store(ModelState(items: items))
    let subscription = store.subscribe { blackHole($0.unrelated) }
    profiledRun { commitsSubscribed(store, operations) }
    withExtendedLifetime(subscription) {}
case "selector-hit-pair":
    let pair = selectorStates(items)
    profiledRun { runBody(pair) { pair in for i in 0..<operations { blackHole(modelOverThreshold(i & 1 == 0 ? pair.first : pair.second)) } } }
case "memo-hit-pair":
    let memo = ModelLastInputMemo()
    let pair = memoStates(items, memo)
    profiledRun { runBody((memo, pair)) { setup in let (memo, pair) = setup; for i in 0..<operations { blackHole(memo(i & 1 == 0 ? pair.first : pair.second)) } } }
case "string-selector-hit":
    var first = ScoreState(items: items)
    var second = first
    first.unrelated = 1
    second.unrelated = 2
    blackHole(scoreText(first))
    profiledRun { stringSelectorHits(first, second, operations) }
case "string-memo-hit":
    let memo = ScoreLastInputMemo()
    var first = ScorePlainState(items: items)
    var second = first
    first.unrelated = 1
    second.unrelated = 2
    blackHole(memo(first))
    profiledRun { stringMemoHits(memo, first, second, operations) }
case "computed-selector-hit":
    let state = ScoreState(items: items)
    blackHole(state.computed.evens)
    profiledRun { computedSelectorHits(state, operations) }
case "parameterized-hit":
    var first = ScoreState(items: items)
    var second = first
    first.unrelated = 1
    second.unrelated = 2
    blackHole(pagesText(10)(first))
    profiledRun { parameterizedHits(first, second, operations) }
case "view-read":
    let state = BenchInbox(messages: IdentifiedList(InboxBaselines.messages(10_000)))
    blackHole(state.computed.unread)
    profiledRun { viewReads(state, operations) }
case "shared-memo-hit":
    let state = ScoreState(items: items)
    blackHole(state.computed.banner)
    profiledRun { sharedMemoHits(state, operations) }
case "copy-out":
    var first = ScoreState(items: items)
    var second = first
    first.unrelated = 1
    second.unrelated = 2
    blackHole(first.computed.evens)
    blackHole(second.computed.evens)
    let pair = SelectorPair(first: first, second: second)
    profiledRun {
        runBody(pair) { pair in
            var kept: [Int] = []
            for i in 0..<operations {
                kept = (i & 1 == 0 ? pair.first : pair.second).computed.evens
                blackHole(kept)
            }
        }
    }
case "copy-out-didset":
    var first = ModelDidSetState(items: items)
    var second = first
    first.unrelated = 1
    second.unrelated = 2
    let pair = SelectorPair(first: first, second: second)
    profiledRun {
        runBody(pair) { pair in
            var kept: [Int] = []
            for i in 0..<operations {
                kept = (i & 1 == 0 ? pair.first : pair.second).evens
                blackHole(kept)
            }
        }
    }
default:
    print("unknown scenario")
}
