// A small todo list driven by TodoState, which the ComputedGen plugin generated from
// TodoSpecs/Todo.state.swift (the same program as Examples/TodoList's, from the Swift form).
//
// Each step writes to the state (or not), then reads every computed value three times. The table
// shows the values read and how many times each computed body has run so far: a body runs again
// only after one of its inputs really changed, never for a plain read, an unrelated write or an
// assignment of an equal value; and a value recomputed to what it was stops there (renaming a
// todo the filter hides reruns visibleTodos, to the same list, but not visibleCount).

import Foundation
import TodoSpecs

/// Body runs so far, per computed value.
func runs() -> [Int] {
    [
        TodoState.Selectors.visibleTodos.recomputations,
        TodoState.Selectors.visibleCount.recomputations,
        TodoState.Selectors.doneCount.recomputations,
        TodoState.Selectors.summary.recomputations,
    ]
}

func column(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

/// Applies `write`, reads every computed value three times, and prints one row of the table.
func step(_ state: inout TodoState, _ description: String, _ write: (inout TodoState) -> Void = { _ in }) {
    write(&state)
    var visible: [Todo] = []
    var summary = ""
    for _ in 1...3 {
        visible = state.computed.visibleTodos
        summary = state.computed.summary
        _ = (state.computed.visibleCount, state.computed.doneCount)
    }
    let titles = visible.isEmpty ? "-" : visible.map(\.title).joined(separator: ", ")
    let counts = runs().map { String($0) }.joined(separator: " ")
    print(column(description, 26) + column(titles, 22) + column(summary, 24) + counts)
}

var state = TodoState()
print("TodoState is generated from TodoSpecs/Todo.state.swift by the ComputedGen build plugin.")
print("Each step reads every computed value 3 times; the last column counts body runs so far")
print("(visibleTodos visibleCount doneCount summary).")
print()
print(column("step", 26) + column("visibleTodos", 22) + column("summary", 24) + "runs")
step(&state, "add milk, bread, cheese") { state in
    state.todos.append(Todo(title: "milk", owner: "ana"))
    state.todos.append(Todo(title: "bread", owner: "ben"))
    state.todos.append(Todo(title: "cheese", owner: "ana"))
}
step(&state, "no write")
step(&state, "unread = 250 (unrelated)") { $0.unread = 250 }
step(&state, "complete bread") { $0.todos[1].done = true }
step(&state, "filter = .active") { $0.filter = .active }
step(&state, "query = \"ch\"") { $0.query = "ch" }
step(&state, "query = \"ch\" (equal)") { $0.query = "ch" }
step(&state, "rename bread (hidden)") { $0.todos[1].title = "rye bread" }
print()
print("unread was clamped to \(state.unread) by its @Edge onSet middleware; nothing reads it, so nothing recomputed.")
let ana = TodoState.Selectors.todos(ownedBy: "ana")
for _ in 1...3 { _ = ana(state) }
print("todos(ownedBy: \"ana\"): \(ana(state).map(\.title).joined(separator: ", ")) (selector body ran \(ana.recomputations) time(s) for 4 calls)")
