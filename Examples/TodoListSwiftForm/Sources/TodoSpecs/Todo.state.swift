// The state of the todo list, as plain Swift. The ComputedGen plugin generates the memoized
// TodoState from this file when the package builds; edit it and build again.
import ComputedRuntime

/// A todo list: the todos, how they are filtered, and a badge count.
struct TodoStateSpec: Equatable {
  var todos: [Todo] = []
  var filter: Filter = .all
  var query: String = ""
  @Edge(onSet: { $0 = min($0, 99) }) var unread: Int = 0

  /// The todos the list shows: those the filter keeps whose title contains the query.
  var visibleTodos: [Todo] {
    todos.filter { filter.includes($0) && (query.isEmpty || $0.title.contains(query)) }
  }
  var visibleCount: Int { visibleTodos.count }
  // computedgen: from todos
  var doneCount: Int { todos.count(where: \.done) }
  var summary: String { "\(visibleCount) shown, \(doneCount) of \(todos.count) done" }

  func todos(ownedBy owner: String) -> [Todo] { todos.filter { $0.owner == owner } }
}
