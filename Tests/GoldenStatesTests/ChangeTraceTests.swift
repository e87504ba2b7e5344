import Foundation
import GoldenStates
import Observation
import Testing

@testable import ComputedRuntime

/// `ChangeTrace`: why each value recomputed, what a cutoff spared, what a commit changed and whom
/// it woke, on the generated fixture states.
@Suite("Change trace: causes, cutoffs and notifications")
struct ChangeTraceTests {
    @Test("a recomputation names the inputs that moved; a cutoff names the values it spared")
    func causesAndCutoffs() throws {
        var state = CutoffState(items: [100, 400, 500])
        let trace = ChangeTrace.record { _ in
            _ = state.computed.summary
            state.items.append(200)          // under the threshold: level 1 recomputes to an equal result
            _ = state.computed.summary
            state.threshold = 450            // level 1 changes, and so does everything above it
            _ = state.computed.summary
        }
        let level1 = trace.recomputations(of: \CutoffState.computed.filteredArray)
        #expect(level1.count == 3)
        #expect(level1[0].isFirstComputation && level1[0].causes.isEmpty)
        #expect(level1[1].inputs == ["items"] && level1[1].isCutOff)
        #expect(level1[1].readers == ["filteredCount"])
        #expect(level1[1].explanation.contains("its result was equal") && level1[1].explanation.contains("spared filteredCount"))
        #expect(level1[2].inputs == ["threshold"] && !level1[2].isCutOff)
        let cause = try #require(level1[2].causes.first)
        #expect(cause.from != nil && cause.from != cause.to)

        // Spared by the cutoff: level 2 and level 3 were verified and kept, not recomputed.
        let level2 = trace.refreshes(of: \CutoffState.computed.filteredCount)
        #expect(level2.map(\.recomputed) == [true, false, true])
        #expect(level2[2].inputs == ["filteredArray"])
        let level3 = trace.recomputations(of: \CutoffState.computed.summary)
        #expect(level3.count == 2)
        #expect(level3[1].inputs == ["filteredCount", "threshold"])
        #expect(trace.cutOffs.map(\.value.name) == ["filteredArray"])

        let statistics = trace.statistics(of: \CutoffState.computed.filteredArray)
        #expect(statistics.recomputations == 3 && statistics.cutOffs == 1 && statistics.keptCount == 0)
        #expect(trace.statistics(of: \CutoffState.computed.filteredCount).keptCount == 1)
        #expect(trace.why(\CutoffState.computed.summary).hasPrefix("summary recomputed because filteredCount v"))
    }

    @Test("why a value did not recompute: none of its inputs moved, or it was never refreshed")
    func whyNot() {
        var state = CutoffState(items: [1, 2, 3])
        let trace = ChangeTrace.record { _ in
            _ = state.computed.greeting
            state.items.append(4)            // greeting does not read items: not even stale
            _ = state.computed.greeting
            _ = state.computed.filteredCount
        }
        #expect(trace.recomputations(of: \CutoffState.computed.greeting).count == 1)
        #expect(trace.why(\CutoffState.computed.greeting) == "greeting was computed for the first time")
        #expect(trace.why(\CutoffState.computed.uncutCount).contains("did no work in this trace"))
    }

    @Test("a nested state's member is named as the body reads it")
    func nestedMember() {
        var library = Library()
        let trace = ChangeTrace.record { _ in
            _ = library.computed.doubled
            library.shelf.books.append("Dune")
            _ = library.computed.doubled
        }
        let last = trace.recomputations(of: \Library.computed.doubled).last
        #expect(last?.inputs == ["shelf.computed.total"])
    }

    @Test("a ListView value names the list as the cause of its update")
    func listView() {
        var mail = InboxState(messages: IdentifiedList((0..<20).map { Message(id: $0, subject: "m\($0)", date: Date(timeIntervalSince1970: Double($0)), read: $0 % 2 == 0) }))
        let trace = ChangeTrace.record { _ in
            _ = mail.computed.unread
            mail.messages[id: 3]?.isRead = true
            _ = mail.computed.unread
        }
        let unread = trace.recomputations(of: \InboxState.computed.unread)
        #expect(unread.count == 2)
        #expect(unread.last?.inputs == ["messages"])
    }

    @Test("a commit records the fields it changed and whom it woke; an equal write changes nothing")
    func commits() {
        let store = Store(CutoffState(items: [1, 500]))
        let delivered = Counter()
        let subscription = store.subscribe { _ in delivered.increment() }
        defer { subscription.cancel() }
        let trace = ChangeTrace.record { _ in
            withObservationTracking { _ = store.computed.filteredCount } onChange: {}
            withObservationTracking { _ = store.computed.greeting } onChange: {}
            store.commit { $0.items.append(600) }
            store.commit { $0.items = $0.items }     // equal: no change, nobody told
        }
        let commits = trace.commits
        #expect(commits.count == 2)
        #expect(commits[0].changedFields == ["items"])
        #expect(commits[0].notifications.contains { $0.observer == .observation && $0.member == "computed.filteredCount" })
        #expect(commits[0].notifications.contains { $0.observer == .subscribers(count: 1) })
        #expect(!commits[0].notifications.contains { $0.member == "computed.greeting" })
        #expect(commits[0].observersNotWoken == 1)   // greeting's observer sleeps on
        #expect(commits[1].changed.isEmpty && commits[1].notifications.isEmpty)
        #expect(delivered.value == 1)
    }

    @Test("the log has a block per commit, with the work that followed it")
    func log() {
        let store = Store(CutoffState(items: [100, 400]))
        let trace = ChangeTrace.record { _ in
            _ = store.computed.summary
            store.commit { $0.items.append(50) }
            _ = store.computed.summary
        }
        let log = trace.log
        #expect(log.contains("computed CutoffState.filteredArray in "))
        #expect(log.contains("commit #"))
        #expect(log.contains("CutoffState: items"))
        #expect(log.contains("recomputed CutoffState.filteredArray in "))
        #expect(log.contains(": items v"))
        #expect(log.contains("; cut off, spared filteredCount"))
        #expect(log.contains("kept CutoffState.filteredCount in "))
    }

    @Test("scopes nest, record only their own task's work, and stop when they return")
    func scopes() async {
        let state = CutoffState(items: [1])
        var inner: ChangeTrace?
        let outer = ChangeTrace.record { _ in
            _ = state.computed.greeting
            inner = ChangeTrace.record { _ in
                _ = state.computed.filteredCount
            }
        }
        #expect(outer.recomputations.map(\.value.name).sorted() == ["filteredArray", "filteredCount", "greeting"])
        #expect(inner?.recomputations.map(\.value.name).sorted() == ["filteredArray", "filteredCount"])
        // Work after the scope returned, and work of another task, is not recorded.
        _ = state.computed.summary
        #expect(outer.recomputations.count == 3)
        let other = CutoffState(items: [5])
        let traced = await ChangeTrace.record { _ in
            await Task.detached { _ = other.computed.uncutCount }.value
        }
        #expect(traced.recomputations.isEmpty)
    }

    @Test("the process-wide trace records every thread's work until it stops")
    func processWide() async {
        let trace = ChangeTrace.startRecording()
        let state = CutoffState(items: [7, 900])
        await Task.detached { _ = state.computed.tokenID }.value
        ChangeTrace.stopRecording()
        // (Tests running at the same time add their work too: the trace is process-wide, and
        // their events can push this one out of the ring, so ask the statistics, which count
        // every event.)
        #expect(trace.statistics(of: \CutoffState.computed.tokenID).recomputations >= 1)
        let recorded = trace.events.count
        _ = state.computed.uncutArray
        #expect(trace.events.count == recorded)
        #expect(ProcessTrace.current == nil)
    }

    @Test("a value that mostly recomputes to an equal result is warned about, with the inputs that caused it")
    func wastedWorkWarning() {
        var state = CutoffState(items: [100, 400])
        let trace = ChangeTrace.record { _ in
            _ = state.computed.filteredCount
            for value in 0..<12 {
                state.items.append(value)        // under the threshold: filteredArray is cut off each time
                _ = state.computed.filteredCount
            }
            state.threshold = 10
            _ = state.computed.filteredCount
        }
        let warnings = trace.warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: CutoffState.filteredArray recomputed 14 times to an equal result 12 times (86%), most often after items moved") == true)
        #expect(trace.log.hasSuffix(warnings[0] + "\n"))
        // A value cut off now and then is not warned about.
        var quiet = CutoffState(items: [1])
        let other = ChangeTrace.record { _ in
            for value in 0..<12 {
                quiet.threshold = value % 2 == 0 ? 0 : 5
                _ = quiet.computed.filteredArray
            }
        }
        #expect(other.warnings.isEmpty)
    }

    @Test("the ring keeps the last events; statistics count them all")
    func ring() {
        var state = CutoffState(items: [1])
        let trace = ChangeTrace.record(capacity: 4) { _ in
            for value in 0..<10 {
                state.threshold = value
                _ = state.computed.filteredArray
            }
        }
        #expect(trace.events.count == 4)
        #expect(trace.droppedCount == 6)
        #expect(trace.statistics(of: \CutoffState.computed.filteredArray).recomputations == 10)
        let sequences = trace.events.map(\.sequence)
        #expect(sequences == Array(6..<10))
    }

    @Test("the Chrome trace: slices, flows from the commit to what it caused, counters")
    func chromeTrace() throws {
        let store = Store(CutoffState(items: [100, 400]))
        let subscription = store.subscribe { _ in }
        defer { subscription.cancel() }
        let trace = ChangeTrace.record { _ in
            _ = store.computed.summary
            store.commit { $0.threshold = 50 }
            _ = store.computed.summary
        }
        let json = try #require(try JSONSerialization.jsonObject(with: trace.chromeTraceJSON()) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.contains { $0["cat"] as? String == "commit" && $0["name"] as? String == "commit CutoffState" })
        #expect(slices.contains { $0["cat"] as? String == "recompute" && $0["name"] as? String == "CutoffState.filteredArray" })
        #expect(slices.contains { $0["cat"] as? String == "notify" })
        for slice in slices {
            #expect(slice["ts"] is Double || slice["ts"] is Int)
            #expect((slice["dur"] as? Double ?? 0) > 0)
        }
        if ProcessInfo.processInfo.environment["COMPUTEDGEN_DEBUG_TRACE"] != nil { print(trace.log) }
        let starts = events.filter { $0["ph"] as? String == "s" }.compactMap { $0["id"] as? Int }
        let finishes = events.filter { $0["ph"] as? String == "f" }.compactMap { $0["id"] as? Int }
        #expect(!starts.isEmpty && Set(starts) == Set(finishes))
        // filteredArray and summary read threshold: two cause flows, plus the notification's.
        #expect(starts.count >= 3)
        #expect(events.contains { $0["ph"] as? String == "C" && $0["name"] as? String == "recomputations" })
    }
}
