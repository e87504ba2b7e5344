import ComputedRuntime
import SwiftFormSpecs
import Testing

/// The states the plugin generated from `SwiftFormSpecs/Library.state.swift`, a spec written as plain
/// Swift in another target: their values agree with the plain types', and they are memoized.
@Suite("Swift-form specs, generated through the plugin from another target")
struct SwiftFormEndToEndTests {
    static let books = [
        Book(id: 1, title: "Walden"),
        Book(id: 2, title: "Dubliners", isRead: true),
        Book(id: 3, title: "Beloved"),
    ]

    @Test("the generated state and the plain type give the same values, edit after edit")
    func agreesWithPlainType() {
        var state = Shelf()
        var plain = ShelfSpec.empty
        func expectSame(_ step: String) {
            #expect(Array(state.computed.unread) == Array(plain.unread), "\(step)")
            #expect(state.computed.unreadCount == plain.unreadCount, "\(step)")
            #expect(state.computed.caption == plain.caption, "\(step)")
            #expect(state.computed.isFull == plain.isFull, "\(step)")
            #expect(Shelf.Selectors.titles(startingWith: "D")(state) == plain.titles(startingWith: "D"), "\(step)")
        }
        expectSame("empty")
        for book in Self.books {
            state.books.append(book)
            plain.books.append(book)
            expectSame("after appending \(book.title)")
        }
        state.books[id: 1]?.isRead = true
        plain.books[id: 1]?.isRead = true
        expectSame("after reading Walden")
        state.capacity = -5
        plain.capacity = -5
        #expect(state.capacity == 0)
        expectSame("after an edge write")
        state.label = "Nightstand"
        plain.label = "Nightstand"
        expectSame("after relabelling")
        #expect(state.computed.caption == "Nightstand: 1 unread")
    }

    @Test("a nested state's computed values are read through 'computed', and follow the child's edits")
    func nested() {
        var library = Library()
        library.shelf.books.append(contentsOf: Self.books)
        // Dubliners is read: Beloved and Walden are not, and Beloved comes first by title.
        #expect(library.computed.summary == "Library: Shelf: 2 unread")
        #expect(library.computed.firstUnread == "Beloved")
        library.shelf.books[id: 3]?.isRead = true
        #expect(library.computed.summary == "Library: Shelf: 1 unread")
        #expect(library.computed.firstUnread == "Walden")
        library.shelf.label = "Attic"
        #expect(library.computed.summary == "Library: Attic: 1 unread")
    }

    @Test("a value is computed once until one of its inputs changes")
    func memoized() {
        var state = Shelf()
        state.books.append(contentsOf: Self.books)
        RecomputationCounter.counting { counts in
            _ = state.computed.caption
            #expect(counts[Shelf.Selectors.caption] == 1)
            _ = state.computed.caption
            state.capacity = 3  // not an input of caption
            _ = state.computed.caption
            #expect(counts[Shelf.Selectors.caption] == 1)
            state.label = "Other"
            _ = state.computed.caption
            #expect(counts[Shelf.Selectors.caption] == 2)
        }
    }
}
