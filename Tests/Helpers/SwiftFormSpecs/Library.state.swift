// Specs written as plain Swift: this target compiles them as they are (so a Swift error in a body is
// reported here, once), and PluginEndToEndTests, which depends on this target and applies the
// ComputedGen plugin, gets the memoized states `Shelf` and `Library` generated from them.

import ComputedRuntime

/// A shelf of books.
package struct ShelfSpec: Equatable {
  package var books: IdentifiedList<Book> = []
  package var label: String = "Shelf"
  @Edge(onSet: { $0 = max($0, 0) }) package var capacity: Int = 10

  /// The unread books, by title: a view maintained per change in the generated state.
  package var unread: ListView<Book> { books.filter { !$0.isRead }.sorted(by: \.title).evaluated() }
  /// How many books are unread: a fold of the list.
  package var unreadCount: Int { books.count(where: { !$0.isRead }).evaluated() }
  package var caption: String { "\(label): \(unreadCount) unread" }
  // computedgen: from books, capacity
  package var isFull: Bool { get { books.count >= capacity } }

  // computedgen: cache 8
  package func titles(startingWith prefix: String) -> [String] {
    books.filter { $0.title.hasPrefix(prefix) }.map(\.title)
  }
}

/// A library holding a shelf: reads the shelf's computed values through `shelf.caption`, which the
/// generated state reads as `shelf.computed.caption`.
package struct LibrarySpec {
  package var shelf: ShelfSpec = ShelfSpec()
  package var name: String = "Library"

  package var summary: String { "\(name): \(shelf.caption)" }
  package var firstUnread: String? { shelf.unread.first?.title }
}
