// Selectors: one parameter, several parameters, `_` labels, a cache size, and none at all.

import ComputedRuntime

public struct LibraryStateSpec: Equatable, Sendable {
  var todos: [Todo] = []
  var query: String = ""

  var openTodos: [Todo] { todos.filter { !$0.done } }

  /// The open todos of one owner.
  // computedgen: cache 8
  func todos(ownedBy owner: Int) -> [Todo] {
    openTodos.filter { $0.owner == owner }
  }
  func matching(_ prefix: String, limit: Int) -> [Todo] {
    Array(todos.filter { $0.title.hasPrefix(prefix) }.prefix(limit))
  }
  // computedgen: from todos
  func count(done: Bool) -> Int { todos.count { $0.done == done } }
  func queryLength() -> Int { query.count }
}
