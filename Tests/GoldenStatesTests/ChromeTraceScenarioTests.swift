import ComputedRuntime
import Foundation
import GoldenStates
import Observation
import Testing

/// A realistic change trace for `scripts/check-trace-viewer.sh`: a todo screen's store with a view
/// observing two of its values and a subscriber, six commits (an append, a rename that the done
/// count cuts off, a query, a toggle, a write nobody reads), then a three-level cutoff chain. The
/// script runs this test with `COMPUTEDGEN_TRACE_VIEWER_OUTPUT=path.json`, checks the file against
/// the Trace Event Format and opens it in the Perfetto UI and the Catapult trace viewer.
@Suite("A recorded Chrome trace, as the trace viewer check opens it")
struct ChromeTraceScenarioTests {
    @Test("a todo screen's commits, recomputations, cutoffs and notifications, written as a Chrome trace")
    func todoScreen() throws {
        let store = Store(TodoState(todos: [
            Todo(title: "milk", owner: 1),
            Todo(title: "bread", done: true, owner: 2),
            Todo(title: "mild cheese", owner: 1),
        ]))
        let delivered = Counter()
        let subscription = store.subscribe { _ in delivered.increment() }
        defer { subscription.cancel() }
        var chain = CutoffState(items: [100, 400, 500])
        let trace = ChangeTrace.record { _ in
            // The view's body, re-armed after each commit as SwiftUI re-renders.
            func render() {
                withObservationTracking {
                    _ = store.computed.visibleCount
                    _ = store.computed.doneCount
                } onChange: {}
            }
            render()
            store.commit { $0.todos.append(Todo(title: "oat milk", owner: 2)) }
            render()
            store.commit { $0.todos[0].title = "whole milk" }   // doneCount recomputes to an equal count
            render()
            store.commit { $0.query = "milk" }
            render()
            store.commit { $0.todos[1].done = false }
            render()
            store.commit { $0.unread = 3 }                     // nothing reads unread
            render()
            _ = chain.computed.summary
            chain.items.append(200)                            // under the threshold: cut off at level 1
            _ = chain.computed.summary
            chain.threshold = 450
            _ = chain.computed.summary
        }

        #expect(trace.commits.count == 5)
        #expect(trace.commits.map(\.changedFields) == [["todos"], ["todos"], ["query"], ["todos"], ["unread"]])
        #expect(trace.commits.allSatisfy { !$0.notifications.isEmpty })
        #expect(delivered.value == 5)
        #expect(trace.cutOffs.contains { $0.value.name == "doneCount" && $0.inputs == ["todos"] })
        #expect(trace.cutOffs.contains { $0.value.name == "filteredArray" && $0.inputs == ["items"] })
        #expect(trace.recomputations(of: \TodoState.computed.visibleTodos).map(\.inputs) == [[], ["todos"], ["todos"], ["query"], ["todos"]])
        #expect(trace.recomputations(of: \CutoffState.computed.summary).last?.inputs == ["filteredCount", "threshold"])

        let data = trace.chromeTraceJSON()
        try expectUnambiguousFlowBindings(data, notifications: trace.notifications.count)
        if let path = ProcessInfo.processInfo.environment["COMPUTEDGEN_TRACE_VIEWER_OUTPUT"] {
            try data.write(to: URL(fileURLWithPath: path))
            // The state's dependency graph annotated with this trace, which the script draws with
            // Graphviz.
            let graph = URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("dot")
            try Data(trace.dependencyGraph(of: TodoState.self, format: .dot).utf8).write(to: graph)
        }
    }

    /// Every flow event binds to the slice enclosing its time (`"s"`, and `"f"` with `"bp": "e"`).
    /// Where one slice ends and another starts, viewers disagree on which encloses it (the Catapult
    /// viewer takes the one that ends): each flow event's time must lie in a slice and end none.
    private func expectUnambiguousFlowBindings(_ data: Data, notifications: Int) throws {
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        func nanoseconds(_ value: Any?) -> Int64 { Int64((((value as? Double) ?? 0) * 1_000).rounded()) }
        let slices = events.filter { $0["ph"] as? String == "X" }.map { slice in
            (start: nanoseconds(slice["ts"]), end: nanoseconds(slice["ts"]) + nanoseconds(slice["dur"]), name: slice["name"] as? String ?? "")
        }
        let flows = events.filter { ["s", "f"].contains($0["ph"] as? String) }
        #expect(notifications > 0 && flows.count >= 2 * notifications)   // an s and an f for each, and the causes'
        for flow in flows {
            let time = nanoseconds(flow["ts"])
            let ending = slices.filter { $0.end == time }.map(\.name)
            #expect(ending.isEmpty, "flow \(flow["id"] ?? "?") \(flow["ph"] ?? "?") at \(time) ns: where \(ending) ends")
            #expect(slices.contains { $0.start <= time && time < $0.end }, "flow \(flow["id"] ?? "?") at \(time) ns: in no slice")
        }
    }
}
