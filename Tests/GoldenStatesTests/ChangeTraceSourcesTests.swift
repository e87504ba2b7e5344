import ComputedRuntime
import Foundation
@testable import GoldenStates
import Observation
import Testing

/// `ChangeTrace` beyond plain computed values: lists followed or evaluated in full (and why),
/// selectors and their caches, values over `@Shared` fields changed elsewhere, scoped stores and
/// rows, and the development checks each of them has.
@Suite("Change trace: lists, selectors, @Shared, scoped stores and rows")
struct ChangeTraceSourcesTests {
    static func inbox(_ count: Int = 20) -> InboxState {
        InboxState(messages: IdentifiedList((0..<count).map {
            Message(id: $0, subject: "m\($0)", date: Date(timeIntervalSince1970: Double($0)), read: $0 % 2 == 0, flagged: $0 % 5 == 0)
        }))
    }

    @Test("a ListView or fold says whether it followed the list's changes, or why it evaluated in full")
    func listEvaluations() throws {
        var mail = Self.inbox()
        let trace = ChangeTrace.record { _ in
            _ = mail.computed.unread
            _ = mail.computed.matching
            _ = mail.computed.unreadTotal
            mail.messages[id: 3]?.isRead = true          // an edit: followed
            _ = mail.computed.unread
            _ = mail.computed.unreadTotal
            _ = mail.computed.matching
            mail.query = "m1"                            // another input of `matching`: in full
            _ = mail.computed.matching
            mail.messages = IdentifiedList(mail.messages.reversed())   // a new list: in full
            _ = mail.computed.unread
        }
        let unread = trace.recomputations(of: \InboxState.computed.unread)
        #expect(unread.map(\.evaluation) == [.full(.first), .followed, .full(.changesUnavailable)])
        #expect(unread[1].explanation == "unread recomputed because \(unread[1].causes[0]) moved; it followed the list's changes")
        #expect(trace.recomputations(of: \InboxState.computed.unreadTotal).last?.evaluation == .followed)
        let matching = try #require(trace.recomputations(of: \InboxState.computed.matching).last)
        #expect(matching.evaluation == .full(.otherInputsMoved) && matching.inputs == ["query"])
        #expect(trace.log.contains("; evaluated in full: the list's changes were unknown"))
        // Values that are not lists have no evaluation.
        #expect(trace.recomputations.filter { $0.value.name == "unreadCount" }.allSatisfy { $0.evaluation == nil })
    }

    @Test("marking message 3 read: unread followed the list, flaggedCount was cut off, only row 3 woke")
    func rowsWoken() throws {
        let store = Store(Self.inbox())
        let rows = (0..<20).map { store.scope(\.messages, id: $0) }
        let subscriptions = rows.map { $0.subscribe { _ in } }
        defer { subscriptions.forEach { $0.cancel() } }
        _ = store.computed.unread
        _ = store.computed.flaggedCount
        let trace = ChangeTrace.record { _ in
            store.commit { $0.messages[id: 3]?.isRead = true }
            _ = store.computed.unread
            _ = store.computed.flaggedCount
        }
        let unread = try #require(trace.recomputations(of: \InboxState.computed.unread).first)
        #expect(unread.inputs == ["messages"] && unread.evaluation == .followed && !unread.isCutOff)
        let flagged = try #require(trace.recomputations(of: \InboxState.computed.flaggedCount).first)
        #expect(flagged.isCutOff && flagged.evaluation == .followed)
        #expect(trace.wokenRows == ["3"])
        #expect(trace.notifications.contains { $0.observer == .row(id: "3") && $0.member == "messages" })
        #expect(trace.log.contains("woke row 3 of messages"))
    }

    @Test("reads through a store that found the value cached are counted per value, not recorded")
    func cacheHits() {
        let store = Store(CutoffState(items: [100, 400]))
        let trace = ChangeTrace.record { _ in
            _ = store.computed.filteredCount     // first read: computed
            _ = store.computed.filteredCount     // cached
            _ = store.computed.filteredCount     // cached
            // The reads armed the store's observation of filteredCount: the commit checks it,
            // recomputing it, so the read after the commit finds it cached.
            store.commit { $0.threshold = 50 }
            _ = store.computed.filteredCount
        }
        let numbers = trace.statistics(of: \CutoffState.computed.filteredCount)
        #expect(numbers.cacheHits == 3 && numbers.recomputations == 2)
        #expect(trace.events.count == trace.refreshes.count + trace.commits.count)   // hits are not events
        #expect(trace.dependencyGraph(of: CutoffState.self).contains("filteredCount<br/>2 recomputed · 3 cache hits"))
    }

    @Test("why a view re-rendered: the member it observed and the commit that changed it")
    func whyWoken() {
        let store = Store(CutoffState(items: [100, 400]))
        let trace = ChangeTrace.record { _ in
            withObservationTracking { _ = store.computed.filteredCount } onChange: {}
            withObservationTracking { _ = store.computed.greeting } onChange: {}
            store.commit { $0.items.append(900) }
        }
        let commit = trace.commits.last
        #expect(trace.whyWoken(\CutoffState.computed.filteredCount)
            == "Observation of computed.filteredCount was woken by commit #\(commit?.sequence ?? -1) of CutoffState, which changed items (\(commit?.changed.first?.version.description ?? ""))")
        #expect(trace.whyWoken(\CutoffState.computed.greeting).hasPrefix("no recorded commit woke the observers of computed.greeting"))
    }

    @Test("a scoped store is named when woken; comparisons that did not wake it are counted")
    func scopedStores() {
        let store = Store(Self.inbox())
        let query = store.scope(\.query)
        let subscription = query.subscribe { _ in }
        defer { subscription.cancel() }
        let trace = ChangeTrace.record { _ in
            store.commit { $0.query = "m" }
            store.commit { $0.messages[id: 1]?.isFlagged = true }
        }
        let woken = trace.notifications.filter { if case .scopedStore = $0.observer { true } else { false } }
        #expect(woken.map(\.description) == ["scoped Store<String> (query)"])
        #expect(trace.scopeComparisons["InboxState → Store<String>"] == ChangeTrace.ScopeComparisons(compared: 2, woken: 1))
    }

    @Test("many rows scoped through scope(\\.list[id:]) are warned about, with scope(_:id:) as the fix")
    func rowScopeWarning() {
        let store = Store(Self.inbox(300))
        let rows = (0..<300).map { store.scope(\.messages[id: $0]) }
        let subscriptions = rows.map { $0.subscribe { _ in } }
        defer { subscriptions.forEach { $0.cancel() } }
        let trace = ChangeTrace.record { _ in
            store.commit { $0.messages[id: 7]?.isRead.toggle() }
        }
        #expect(trace.scopeComparisons["InboxState → Store<Optional<Message>>"] == ChangeTrace.ScopeComparisons(compared: 300, woken: 1))
        let warning = trace.warnings.first { $0.contains("scoped stores") }
        #expect(warning?.hasPrefix("warning: scoped stores InboxState → Store<Optional<Message>> compared their state 300 times") == true)
        #expect(warning?.contains("scope(\\.list, id: id)") == true)
        // The same rows made with scope(_:id:) compare only the row of the element edited.
        let efficient = Store(Self.inbox(300))
        let good = (0..<300).map { efficient.scope(\.messages, id: $0) }
        let goodSubscriptions = good.map { $0.subscribe { _ in } }
        defer { goodSubscriptions.forEach { $0.cancel() } }
        let quiet = ChangeTrace.record { _ in
            efficient.commit { $0.messages[id: 7]?.isRead.toggle() }
        }
        #expect(quiet.warnings.isEmpty && quiet.wokenRows == ["7"])
    }

    @Test("a list replaced between reads is warned about: evaluated in full instead of followed")
    func fullEvaluationWarning() {
        var mail = Self.inbox()
        let trace = ChangeTrace.record { _ in
            _ = mail.computed.unread
            for round in 0..<4 {
                var messages = Array(mail.messages)
                messages[round].isRead.toggle()
                mail.messages = IdentifiedList(messages)    // a new list every time
                _ = mail.computed.unread
            }
        }
        let warning = trace.warnings.first { $0.contains("InboxState.unread") }
        #expect(warning?.hasPrefix("warning: InboxState.unread was evaluated in full 4 times after list edits: the list's changes were unknown") == true)
        #expect(warning?.contains("edit it in place") == true)
    }

    @Test("a selector's recomputation names its inputs; each argument of a parameterized one is its own value")
    func selectors() throws {
        var library = LibraryState(todos: [Todo(title: "a", owner: 1), Todo(title: "b", owner: 3)])
        let trace = ChangeTrace.record { _ in
            _ = LibraryState.Selectors.todos(ownedBy: 3)(library)
            _ = LibraryState.Selectors.queryLength()(library)
            library.todos.append(Todo(title: "c", owner: 3))
            library.query = "milk"
            _ = LibraryState.Selectors.todos(ownedBy: 3)(library)
            _ = LibraryState.Selectors.queryLength()(library)
        }
        let owned = trace.selectorRefreshes(of: "todos(ownedBy:)").filter(\.recomputed)
        #expect(owned.map(\.value.description) == ["LibraryState.todos(ownedBy:) for 3", "LibraryState.todos(ownedBy:) for 3"])
        #expect(owned.last?.inputs == ["openTodos"])
        let length = try #require(trace.selectorRefreshes(of: "queryLength()").last)
        #expect(length.recomputed && length.inputs == ["query"])
        #expect(trace.log.contains("recomputed LibraryState.queryLength() in "))
    }

    @Test("a parameterized selector whose cache is too small is warned about, with the size it needs")
    func cacheMissWarning() {
        let byOwner = createParameterizedSelector(LibraryState.Selectors.todos, capacity: 4, name: "byOwner") { (owner: Int, todos: [Todo]) in
            todos.filter { $0.owner == owner }
        }
        let library = LibraryState(todos: (0..<6).map { Todo(title: "t\($0)", owner: $0) })
        let trace = ChangeTrace.record { _ in
            for _ in 0..<3 {
                for owner in 0..<6 { _ = byOwner(owner)(library) }   // six arguments in turn, four kept
            }
        }
        #expect(trace.cacheMisses.count == 18)
        #expect(trace.cacheMisses.last?.evicted != nil && trace.cacheMisses.last?.capacity == 4)
        let warning = trace.warnings.first { $0.contains("byOwner") }
        #expect(warning?.hasPrefix("warning: LibraryState.byOwner missed its cache 18 times, 12 of them for arguments it had evicted") == true)
        #expect(warning?.contains("`cache 6`") == true)
        // A cache that holds every argument in use is not warned about.
        let roomy = createParameterizedSelector(LibraryState.Selectors.todos, capacity: 8, name: "roomy") { (owner: Int, todos: [Todo]) in todos.count + owner }
        let quiet = ChangeTrace.record { _ in
            for _ in 0..<3 { for owner in 0..<6 { _ = roomy(owner)(library) } }
        }
        #expect(quiet.cacheMisses.count == 6 && quiet.warnings.isEmpty)
    }

    @Test("a value over a @Shared field changed elsewhere names the shared field; the store's commit wakes its observers")
    func sharedChangedElsewhere() throws {
        let session = Shared(value: Session(userName: "guest"))
        let state = ChildState(session: session)
        let store = Store(ChildState(session: session))
        _ = state.computed.name
        let trace = ChangeTrace.record { _ in
            withObservationTracking { _ = store.computed.name } onChange: {}
            session.withLock { $0.userName = "ada" }     // written elsewhere: through the reference
            _ = state.computed.name
        }
        let name = try #require(trace.recomputations(of: "name", in: ChildState.self).last)
        #expect(name.inputs == ["session"] && !name.isFirstComputation && !name.isCutOff)
        let commit = try #require(trace.commits.last)
        #expect(commit.state == "ChildState" && commit.changedFields == ["session"])
        #expect(commit.notifications.contains { $0.observer == .observation && $0.member == "computed.name" })
    }
}

@Suite("Change trace: threads")
struct ChangeTraceThreadTests {
    @Test("work on several threads: each event names its thread, and each thread's slices nest on its own track")
    func threads() async throws {
        let trace = await ChangeTrace.record { _ in
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        var state = CutoffState(items: [100, 400])
                        for value in 0..<200 {
                            state.threshold = value + task
                            _ = state.computed.summary
                        }
                    }
                }
            }
        }
        #expect(trace.events.allSatisfy { $0.thread > 0 })
        let json = try #require(try JSONSerialization.jsonObject(with: trace.chromeTraceJSON()) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }
        let tracks = Dictionary(grouping: slices) { $0["tid"] as? Int ?? 0 }
        #expect(Set(tracks.keys) == Set(trace.events.map { Int($0.thread) }))
        // On one track, two slices are disjoint or one holds the other (in nanoseconds).
        var overlaps = 0
        for (_, track) in tracks {
            let spans = track.map { slice -> (Int, Int) in
                let start = Int(((slice["ts"] as? Double ?? 0) * 1000).rounded())
                return (start, start + Int(((slice["dur"] as? Double ?? 0) * 1000).rounded()))
            }.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 > $1.1) }
            var open: [Int] = []
            for (start, end) in spans {
                while let last = open.last, last <= start { open.removeLast() }
                if let last = open.last, end > last { overlaps += 1 }
                open.append(end)
            }
        }
        #expect(overlaps == 0)
        let names = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
        #expect(names.count == tracks.count)
    }
}

@Suite("Change trace: the dependency graph")
struct ChangeTraceGraphTests {
    static func record() -> ChangeTrace {
        var state = CutoffState(items: [100, 400])
        return ChangeTrace.record { _ in
            _ = state.computed.summary
            for value in 0..<9 {
                state.items.append(value)        // under the threshold: filteredArray is cut off
                _ = state.computed.summary
            }
        }
    }

    @Test("Mermaid: fields, values annotated with the trace's counts, an arrow per input, colored by what they did")
    func mermaid() {
        let graph = Self.record().dependencyGraph(of: CutoffState.self)
        #expect(graph.hasPrefix("flowchart LR\n"))
        #expect(graph.contains("    f_items[\"items\"]\n"))
        #expect(graph.contains("    v_filteredArray(\"filteredArray<br/>10 recomputed · 9 cut off<br/>"))
        #expect(graph.contains("    v_filteredCount(\"filteredCount<br/>1 recomputed · 9 kept<br/>"))
        #expect(graph.contains("    f_items --> v_filteredArray\n"))
        #expect(graph.contains("    v_filteredArray --> v_filteredCount\n"))
        #expect(graph.contains("    v_greeting(\"greeting<br/>not refreshed\")"))
        #expect(graph.contains("\n    class v_filteredArray wasteful\n"))   // 9 of 10 recomputations equal
    }

    @Test("DOT: the same graph, with a nested state's member on its arrow")
    func dot() {
        var library = Library()
        let trace = ChangeTrace.record { _ in
            _ = library.computed.doubled
            library.shelf.books.append("Dune")
            _ = library.computed.doubled
        }
        let graph = trace.dependencyGraph(of: Library.self, format: .dot)
        #expect(graph.hasPrefix("digraph \"Library\" {\n    rankdir=LR;\n"))
        #expect(graph.contains("    \"f_shelf\" -> \"v_doubled\" [label=\"computed.total\"];\n"))
        #expect(graph.contains("\"v_doubled\" [label=\"doubled\\n2 recomputed\\n"))
        #expect(graph.hasSuffix("}\n"))
    }
}
