import ComputedRuntime
import Foundation
import Observation
import Testing

extension PluginEndToEndTests {
    /// The plugin-generated `TodoState` in a `Store`, unchanged: commits, computed values through the
    /// store, distinct selections that ignore unrelated commits, derived stores and assignment.
    ///
    /// Nested in the serialized `PluginEndToEndTests` suite: both read `TodoState`'s process-wide
    /// recomputation counters, so they must not run at the same time.
    @Suite("Generated state in a Store")
    struct StoreEndToEndTests {
        static let todos = [
            Todo(title: "milk", done: false, owner: 1),
            Todo(title: "bread", done: true, owner: 2),
        ]

        @Test("commit, state.computed and store.computed")
        func commitAndComputed() {
            let store = Store(TodoState(todos: Self.todos))
            #expect(store.state.computed.visibleCount == 2)
            store.commit { $0.query = "mil" }
            #expect(store.computed.visibleCount == 1)  // Verge's store.computed shortcut
            #expect(store.state.computed.header == "Todos (1)")
        }

        @Test("select yields the current value, then only when a commit changes it")
        func selectIgnoresUnrelatedCommits() async {
            let store = Store(TodoState(todos: Self.todos))
            var counts = store.select(TodoState.Selectors.visibleCount).makeAsyncIterator()
            #expect(await counts.next() == 2)
            store.commit { $0.title = "Other" }       // not an input of visibleCount
            store.commit { $0.unread = 5 }            // not an input either
            store.commit { $0.query = "zzz" }         // an input: nothing matches, 2 → 0
            #expect(await counts.next() == 0)
            store.commit { $0.filter = .active }      // an input; the count stays 0: not repeated
            store.commit { $0.query = "" }            // 1 active todo
            #expect(await counts.next() == 1)
        }

        @Test("concurrent commits to a generated state lose no update and keep caches consistent")
        func concurrentCommits() async {
            let store = Store(TodoState())
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for index in 0..<100 {
                            store.commit { $0.todos.append(Todo(title: "\(worker)-\(index)", done: index.isMultiple(of: 2), owner: worker)) }
                            _ = store.state.computed.visibleCount
                        }
                    }
                }
            }
            let state = store.state
            #expect(state.todos.count == 400)
            #expect(state.computed.visibleCount == 400)
            #expect(state.computed.doneCount == 200)
        }

        @Test("a derived store of a computed value, assigned into another store")
        func derivedAndAssign() {
            let source = Store(TodoState(todos: Self.todos))
            let target = Store(TodoState())
            let link = source.derived(TodoState.Selectors.visibleCount).assign(to: target.assignee(\.unread))
            #expect(target.unread == 2)
            source.commit { $0.todos.append(Todo(title: "eggs")) }
            #expect(target.unread == 3)
            link.cancel()
        }

        @Test("Observation sees a commit after a view read a computed value")
        func observation() {
            let store = Store(TodoState(todos: Self.todos))
            let fired = LockedFlag()
            withObservationTracking {
                _ = store.state.computed.visibleCount
            } onChange: {
                fired.set()
            }
            store.commit { $0.query = "bread" }
            #expect(fired.isSet)
        }
    }

}

/// A thread-safe flag for observation callbacks.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.withLock { value = true }
    }

    var isSet: Bool {
        lock.withLock { value }
    }
}
