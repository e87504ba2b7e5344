// Members of nested states are inputs: a computed value that reads `shelf.computed.total` or
// `shelf.books` depends on those members only, at any depth; one that reads `shelf` whole
// depends on all of it.

import ComputedRuntime

public struct ShelfSpec: Sendable {
  var books: [String] = []
  var label: String = ""
  var total: Int { books.count }
}

public struct LibrarySpec: Sendable {
  var shelf: ShelfSpec = ShelfSpec()
  var name: String = ""
  var doubled: Int { shelf.total * 2 }
  var firstBook: String? { shelf.books.first }
  var caption: String { "\(shelf.label): \(shelf.books.count)" }
  var shelves: Int { [shelf].count }
}

public struct BuildingSpec: Sendable {
  var library: LibrarySpec = LibrarySpec()
  var deepTotal: Int { library.shelf.total + 1 }
}

// A state of another spec file (`ChildState`, in Shared.statespec), read through `.computed`:
// the generator cannot see that it holds a `@Shared` value, and keys the cache on whatever
// `@Shared` values the runtime finds in it.
struct SessionBadgeSpec {
  var child: ChildStateSpec = ChildStateSpec()
  var count: Int = 0

  var badge: String { "\(child.name) (\(count))" }
  var plain: Int { count * 2 }

  func badge(times: Int) -> String { String(repeating: child.name, count: times) }
}

/// Reads `ChildState` (declared in Shared.statespec) by its `@Shared` field's path only: the
/// plugin gives every spec the others of its target, so the value still follows the session.
struct SessionInitialSpec {
  var child: ChildStateSpec = ChildStateSpec()

  var initial: String { String(child.session.userName.prefix(1)) }
}
