// A standalone harness for callgrind (Benchmarks/profile.sh builds it): the hot loops of the
// benchmarks whose target is missed, next to their baselines, without package-benchmark (whose
// malloc interposer valgrind cannot run). It is compiled with swiftc from the same generated
// files and Baselines.swift as the benchmark target, so the code is the benchmarked code.
//
// Usage: ComputedGenProfile SCENARIO [OPERATIONS]; callgrind collects only `profiledRun`.

import BenchModel
import ComputedRuntime
import Foundation
import Observation

@inline(never) @_optimize(none)
func blackHole<T>(_: T) {}

@inline(never)
func profiledRun(_ body: () -> Void) {
    body()
}

@inline(never)
func areEqual<State: Equatable>(_ lhs: State, _ rhs: State) -> Bool {
    lhs == rhs
}

// Each loop is a function of its initial state, with the state in a local `var` or `let` (as in
// the benchmarks); closures capturing a `var` would change the code being measured.

@inline(never) func readCached(_ state: ReadState, _ n: Int) { for _ in 0..<n { blackHole(state.computed.evens) } }
@inline(never) func readStored(_ state: StoredReadState, _ n: Int) { for _ in 0..<n { blackHole(state.evens) } }

@inline(never) func writeInput(_ initial: ReadState, _ n: Int) {
    var state = initial
    for i in 0..<n { state.items[i & 8_191] = i }
    blackHole(state)
}

@inline(never) func writePlain(_ initial: StoredReadState, _ n: Int) {
    var state = initial
    for i in 0..<n { state.items[i & 8_191] = i }
    blackHole(state)
}

@inline(never) func unrelatedWriteRead(_ initial: ReadState, _ n: Int) {
    var state = initial
    for i in 0..<n {
        state.unrelated = i
        blackHole(state.computed.evens)
    }
}

@inline(never) func plainUnrelatedWriteRead(_ initial: StoredReadState, _ n: Int) {
    var state = initial
    for i in 0..<n {
        state.unrelated = i
        blackHole(state.evens)
    }
}

@inline(never) func selectorHits(_ first: SelectionState, _ second: SelectionState, _ selector: StateSelector<SelectionState, Int>, _ n: Int) {
    for i in 0..<n { blackHole(selector(i & 1 == 0 ? first : second)) }
}

@inline(never) func recombineHits(
    _ first: PlainSelectionState, _ second: PlainSelectionState,
    _ memo: EquatableMemo<PlainSelectionState, [Int], Int, Int>, _ n: Int
) {
    for i in 0..<n { blackHole(memo(i & 1 == 0 ? first : second)) }
}

@inline(never) func equalities<State: Equatable>(_ lhs: State, _ rhs: State, _ n: Int) {
    for _ in 0..<n { blackHole(areEqual(lhs, rhs)) }
}

@inline(never) func commits(_ store: Store<StoreBenchState>, _ n: Int) {
    for _ in 0..<n {
        store.commit { $0.count += 1 }
        blackHole(store.state.computed.c9)
    }
}

// Measure 10's commits (`count += 1`, nothing read back). The `across-` variants commit to states
// of the BenchModel library (another module), as the benchmark's cross-module rows do.

@inline(never) func storeCommits(_ store: Store<StoreBenchState>, _ n: Int) {
    for _ in 0..<n { store.commit { $0.count &+= 1 } }
}

@inline(never) func acrossStoreCommits(_ store: Store<ModelStoreState>, _ n: Int) {
    for _ in 0..<n { store.commit { $0.count &+= 1 } }
}

@inline(never) func acrossPlainStoreCommits(_ store: Store<ModelPlainStoreState>, _ n: Int) {
    for _ in 0..<n { store.commit { $0.count &+= 1 } }
}

@inline(never) func acrossGeneratedWrites(_ initial: ModelStoreState, _ n: Int) {
    var state = initial
    for _ in 0..<n { state.count &+= 1 }
    blackHole(state)
}

@inline(never) func acrossLockedCommits(_ locked: ModelLockedStoreState, _ n: Int) {
    for _ in 0..<n { locked.commit { $0.count &+= 1 } }
}

// Measure 8: an input write, then a read through a recomputation that gives an equal array
// (cut off: `evenCount` is kept) or, `@NoCutoff`, counts again.
@inline(never) func recomputeCutoff(_ initial: PropagationState, _ n: Int) {
    var state = initial
    for i in 0..<n {
        state.items[1] = 2 * i + 1
        blackHole(state.computed.evenCount)
    }
}
@inline(never) func recomputeUncut(_ initial: PropagationState, _ n: Int) {
    var state = initial
    for i in 0..<n {
        state.items[1] = 2 * i + 1
        blackHole(state.computed.evenCountUncut)
    }
}

// Measure 12's bulk load (OPERATIONS is the number of messages: one load) and its one-message
// edits followed by a read of the fold or of the count over the view (OPERATIONS edits on
// 100,000 messages).

@inline(never) func inboxBulkLoad(_ messages: [BenchMessage]) {
    blackHole(BenchInbox(messages: IdentifiedList(messages)).computed.unread)
}

@inline(never) func inboxBulkBaseline(_ messages: [BenchMessage]) {
    blackHole(InboxBaselines.unread(messages))
}

@inline(never) func inboxToggles(_ box: InboxProfileBox, _ n: Int, readFold: Bool) {
    let count = box.state.messages.count
    for i in 0..<n {
        box.state.messages[id: (i &* 7_919) % count]?.isRead.toggle()
        if readFold { blackHole(box.state.computed.unreadTotal) } else { blackHole(box.state.computed.unreadCount) }
    }
}

/// One toggle + read of the unread view (measure 12's row), profiled alone: with
/// `inbox-view-toggle-disturbed`, a full pass over a 32 MB array runs between two, outside the
/// profile, as in the row "caches disturbed" (callgrind's `--cache-sim=yes` then says which
/// functions miss the caches).
@inline(never) func inboxViewToggle(_ box: InboxProfileBox, _ i: Int) {
    let count = box.state.messages.count
    box.state.messages[id: (i &* 7_919) % count]?.isRead.toggle()
    blackHole(box.state.computed.unread)
}

/// Issue 34's composite target (measure 14, FeedReader.swift): one article of 50,000 marked read
/// or unread, then the timeline's count and first article, the 300 feeds' counts and the total.
final class FeedReaderProfileBox {
    var state: BenchFeedReader
    init() {
        state = BenchFeedReader(articles: IdentifiedList(FeedsBaselines.articles(50_000, feeds: 300)))
        feedReaderRead(&state)
    }
}

/// Measure 14's read, as the benchmark makes it (`FeedReader.swift`): the state borrowed in place
/// (`inout`), not read through the box, which would copy the state into each refresh call.
@inline(never) func feedReaderRead(_ state: inout BenchFeedReader) {
    let timeline = state.computed.timeline
    blackHole(timeline.count)
    blackHole(timeline.first)
    let counts = state.computed.unreadCounts
    var folderCounts = [Int](repeating: 0, count: 30)
    for feed in 0..<300 {
        let unread = counts[feed]
        blackHole(unread)
        folderCounts[feed % 30] += unread
    }
    blackHole(folderCounts)
    blackHole(state.computed.unreadTotal)
}

@inline(never) func feedReaderToggle(_ box: FeedReaderProfileBox, _ i: Int) {
    box.state.articles[id: (i &* 7_919) % 50_000]?.isRead.toggle()
    feedReaderRead(&box.state)
}

@inline(never) func disturbCaches(_ values: inout [Int]) {
    values.withUnsafeMutableBufferPointer { buffer in
        for index in buffer.indices { buffer[index] &+= 1 }
    }
    blackHole(values[values.count / 2])
}

#if canImport(Glibc)
import Glibc

/// The process's resident memory in bytes (`/proc/self/statm`). Between two steps that only
/// allocate, its growth is what they allocated (rounded to pages), which at 10^6 messages is
/// megabytes: `mallinfo2` would be exact, but Swift's Glibc module does not import `malloc.h`.
func allocatedBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

/// Measure 12's memory per message (run without valgrind): the input array, the
/// `IdentifiedList` made from it, and what each derived value of `BenchInbox` keeps, as bytes
/// allocated between steps, per message and against the input array.
@inline(never) func inboxMemory(_ count: Int) {
    var mark = allocatedBytes()
    var rows: [(String, Int)] = []
    func step(_ name: String) {
        let now = allocatedBytes()
        rows.append((name, now - mark))
        mark = now
    }
    let messages = InboxBaselines.messages(count)
    step("input [BenchMessage]")
    let list = IdentifiedList(messages)
    step("IdentifiedList (elements, labels, id index, change record)")
    var state = BenchInbox(messages: list)
    step("BenchInbox holding the list (shared, not copied)")
    blackHole(state.computed.unread)
    step("unread: filter + sort view (its tree), 2/3 of the messages")
    blackHole(state.computed.latest)
    step("latest: sort + prefix 10 (a tree of every message)")
    blackHole(state.computed.unreadTotal)
    step("unreadTotal: count(where:) fold (its total)")
    let input = rows[0].1
    print("messages: \(count)")
    for (name, bytes) in rows {
        let padded = name.padding(toLength: 70, withPad: " ", startingAt: 0)
        print(padded + String(format: "%12d bytes %8.1f B/message %6.2f× the input", bytes,
                              Double(bytes) / Double(count), Double(bytes) / Double(input)))
    }
    state.messages[id: 0]?.isRead.toggle()
    blackHole(state)
}
#endif

final class InboxProfileBox {
    var state: BenchInbox
    init(_ count: Int) {
        state = BenchInbox(messages: IdentifiedList(InboxBaselines.messages(count)))
        blackHole(state.computed.unreadCount)
        blackHole(state.computed.unreadTotal)
    }
}

let arguments = CommandLine.arguments
let scenario = arguments.count > 1 ? arguments[1] : "help"
let operations = arguments.count > 2 ? Int(arguments[2])! : 100_000
let items = Array(0..<10_000)

switch scenario {
case "read-cached":
    let state = ReadState(items: items)
    blackHole(state.computed.evens)
    profiledRun { readCached(state, operations) }
case "recompute-cutoff":
    let state = PropagationState(items: items)
    blackHole(state.computed.evenCount)
    profiledRun { recomputeCutoff(state, operations) }
case "recompute-uncut":
    let state = PropagationState(items: items)
    blackHole(state.computed.evenCountUncut)
    profiledRun { recomputeUncut(state, operations) }
case "read-stored":
    let state = StoredReadState(items: items)
    profiledRun { readStored(state, operations) }
case "write-input":
    let state = ReadState(items: items)
    blackHole(state.computed.evenCount)
    profiledRun { writeInput(state, operations) }
case "write-plain":
    let state = StoredReadState(items: items)
    profiledRun { writePlain(state, operations) }
case "unrelated-write-read":
    let state = ReadState(items: items)
    blackHole(state.computed.evens)
    profiledRun { unrelatedWriteRead(state, operations) }
case "plain-unrelated-write-read":
    let state = StoredReadState(items: items)
    profiledRun { plainUnrelatedWriteRead(state, operations) }
case "selector-hit":
    var first = SelectionState(items: items, threshold: 5_000)
    first.unrelated = 1
    var second = first
    second.unrelated = 2
    let selector = createSelector(SelectionState.Selectors.items, SelectionState.Selectors.threshold) {
        items, threshold in items.count(where: { $0 > threshold })
    }
    blackHole(selector(first))
    profiledRun { selectorHits(first, second, selector, operations) }
case "recombine-hit":
    var first = PlainSelectionState(items: items, threshold: 5_000)
    first.unrelated = 1
    var second = first
    second.unrelated = 2
    let memo = EquatableMemo({ (state: PlainSelectionState) in state.items }, { $0.threshold }) {
        items, threshold in items.count(where: { $0 > threshold })
    }
    blackHole(memo(first))
    profiledRun { recombineHits(first, second, memo, operations) }
case "equal-generated":
    let lhs = WideState()
    var rhs = lhs
    rhs.field19.toggle()
    profiledRun { equalities(lhs, rhs, operations) }
case "equal-synthesized":
    let lhs = WideBaseline()
    var rhs = lhs
    rhs.field19.toggle()
    profiledRun { equalities(lhs, rhs, operations) }
case "store-commit":
    let store = Store(StoreBenchState(count: 0, items: Array(0..<1_000)))
    profiledRun { commits(store, operations) }
case "commit-no-listener":
    let store = Store(StoreBenchState(count: 0, items: Array(0..<1_000)))
    profiledRun { storeCommits(store, operations) }
case "commit-observed-other":
    // An observer of `items` (never notified: the commits write `count`).
    let store = Store(StoreBenchState(count: 0, items: Array(0..<1_000)))
    withObservationTracking { blackHole(store.items.count) } onChange: {}
    profiledRun { storeCommits(store, operations) }
case "across-commit-no-listener":
    let store = Store(ModelStoreState(count: 0, items: Array(0..<1_000)))
    profiledRun { acrossStoreCommits(store, operations) }
case "across-commit-plain-state":
    let store = Store(ModelPlainStoreState(count: 0, items: Array(0..<1_000)))
    profiledRun { acrossPlainStoreCommits(store, operations) }
case "across-generated-write":
    profiledRun { acrossGeneratedWrites(ModelStoreState(count: 0, items: Array(0..<1_000)), operations) }
case "across-nslock-commit":
    let locked = ModelLockedStoreState(ModelPlainStoreState(count: 0, items: Array(0..<1_000)))
    profiledRun { acrossLockedCommits(locked, operations) }
case "across-commit-observed-other":
    let store = Store(ModelStoreState(count: 0, items: Array(0..<1_000)))
    withObservationTracking { blackHole(store.items.count) } onChange: {}
    profiledRun { acrossStoreCommits(store, operations) }
case "inbox-bulk-load":
    let messages = InboxBaselines.messages(operations)
    profiledRun { inboxBulkLoad(messages) }
case "inbox-bulk-baseline":
    let messages = InboxBaselines.messages(operations)
    profiledRun { inboxBulkBaseline(messages) }
case "inbox-memory":
    #if canImport(Glibc)
    inboxMemory(operations)
    #endif
case "inbox-fold-toggle", "inbox-count-toggle":
    let box = InboxProfileBox(100_000)
    profiledRun { inboxToggles(box, operations, readFold: scenario == "inbox-fold-toggle") }
case "feed-count-rows", "feed-count-rows-keypath":
    // Measure 10's 10^4 sidebar rows: each subscribes to one feed's unread count.
    let store = Store(BenchFeeds(articles: IdentifiedList(FeedsBaselines.articles(50_000, feeds: 10_000))))
    let rows = (0..<10_000).map { feed in
        scenario == "feed-count-rows"
            ? store.derived(\.computed.unreadCounts, key: feed) : store.derived(\.computed.unreadCounts[feed])
    }
    let subscriptions = rows.map { $0.subscribe { blackHole($0) } }
    if CommandLine.arguments.count > 3 {
        // Observed as a view does: tracked again after each change.
        final class Tracker: @unchecked Sendable {
            let row: Derived<Int>
            init(_ row: Derived<Int>) { self.row = row; track() }
            func track() { withObservationTracking { blackHole(row.value) } onChange: { self.track() } }
        }
        blackHole(rows.map(Tracker.init))
    }
    profiledRun {
        for step in 0..<operations {
            store.commit { $0.articles[id: (step &* 7_919) % 50_000]?.isRead.toggle() }
        }
    }
    withExtendedLifetime((rows, subscriptions)) {}  // a token does not keep its derived store alive
case "inbox-view-toggle", "inbox-view-toggle-disturbed":
    // OPERATIONS edits of 10^6 messages, each profiled alone.
    let box = InboxProfileBox(1_000_000)
    blackHole(box.state.computed.unread)
    var values = [Int](repeating: 0, count: scenario == "inbox-view-toggle" ? 0 : 1 << 22)
    for i in 0..<operations {
        profiledRun { inboxViewToggle(box, i) }
        if !values.isEmpty { disturbCaches(&values) }
    }
case "feed-reader-toggle", "feed-reader-toggle-disturbed":
    let box = FeedReaderProfileBox()
    var values = [Int](repeating: 0, count: scenario == "feed-reader-toggle" ? 0 : 1 << 22)
    // Two edits before collecting (toggled back): the first incremental update instantiates
    // generic metadata once per process, which is not a cost per edit.
    feedReaderToggle(box, 0)
    feedReaderToggle(box, 0)
    for i in 0..<operations {
        profiledRun { feedReaderToggle(box, i) }
        if !values.isEmpty { disturbCaches(&values) }
    }
case "join-rename", "join-rename-disturbed", "join-toggle", "join-toggle-disturbed":
    // Measure 16: a feed renamed (or an article toggled) in a joined timeline of 50,000 articles
    // over 300 feeds, then the sections read.
    let articles = FeedsBaselines.articles(50_000, feeds: 300)
    var state = BenchJoinedReader(articles: IdentifiedList(articles), feeds: IdentifiedList(JoinedReaderBaselines.feeds(300, folders: 30)))
    blackHole(state.computed.byFolder.count)
    var values = [Int](repeating: 0, count: scenario.hasSuffix("disturbed") ? 1 << 22 : 0)
    let rename = scenario.hasPrefix("join-rename")
    // Renames from "feed 300" on: the first 300 names would be the feeds' own (equal rows, no
    // edit downstream). One edit before collecting: the first incremental update instantiates
    // generic metadata once per process.
    let first = rename ? 300 : 0
    state.feeds[id: 299]?.name = "warm"
    blackHole(state.computed.byFolder.count)
    // PROFILE_TIMING=1: the median time of an operation, printed (run without valgrind, to compare
    // two builds process by process; the benchmark's figures are measure 16's).
    let timing = ProcessInfo.processInfo.environment["PROFILE_TIMING"] != nil
    var durations: [Duration] = []
    let clock = ContinuousClock()
    for i in first..<(first + operations) {
        let start = clock.now
        profiledRun {
            if rename {
                state.feeds[id: i % 300]?.name = "feed \(i)"
            } else {
                state.articles[id: (i &* 7_919) % 50_000]?.isRead.toggle()
            }
            blackHole(state.computed.byFolder.count)
        }
        if timing { durations.append(clock.now - start) }
        if !values.isEmpty { disturbCaches(&values) }
    }
    if timing {
        durations.sort()
        print("median \(durations[durations.count / 2])")
    }
default:
    print("""
        usage: ComputedGenProfile SCENARIO [OPERATIONS]
        scenarios: read-cached read-stored write-input write-plain unrelated-write-read
                   plain-unrelated-write-read selector-hit recombine-hit equal-generated
                   equal-synthesized store-commit commit-no-listener commit-observed-other
                   across-commit-no-listener across-commit-plain-state across-generated-write
                   across-nslock-commit across-commit-observed-other
                   inbox-bulk-load inbox-bulk-baseline (OPERATIONS: messages)
                   inbox-fold-toggle inbox-count-toggle
                   feed-count-rows feed-count-rows-keypath
                   inbox-view-toggle inbox-view-toggle-disturbed (10^6 messages)
                   feed-reader-toggle feed-reader-toggle-disturbed
                   inbox-memory (OPERATIONS: messages; run it without valgrind)
        """)
}
