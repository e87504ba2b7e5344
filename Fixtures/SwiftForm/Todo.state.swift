// The example from the design document: fields, Edge middleware, inferred and explicit inputs,
// computed on computed, and a parameterized selector.
import Foundation
import ComputedRuntime

/// The todo list screen.
public struct TodoStateSpec: Equatable, Sendable {
  /// Every todo, in display order.
  var todos: [Todo] = []
  var filter: Filter = .all
  var query: String = ""

  @Edge var avatar: Avatar? = nil
  @Edge(assert: { $0 >= 0 }) var unread: Int = 0
  @Edge(onSet: { $0 = min($0, 99) }) var badge: Int = 0

  /// The todos the list shows.
  var visibleTodos: [Todo] {
    todos.filter { filter.includes($0) && (query.isEmpty || $0.title.contains(query)) }
  }
  var visibleCount: Int { visibleTodos.count }
  // computedgen: from todos
  var doneCount: Int { todos.count(where: \.done) }

  func todos(ownedBy owner: Int) -> [Todo] { todos.filter { $0.owner == owner } }
}
