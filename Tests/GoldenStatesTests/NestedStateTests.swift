import ComputedRuntime
import GoldenStates
import Testing

/// Nested member inputs in the golden output of `Fixtures/Specs/Nested.statespec`.
///
/// Only this suite uses these states, and it is serialized, so counter deltas are exact.
@Suite("Generated nested states: members as inputs", .serialized)
struct NestedStateTests {
    func library() -> Library {
        let library = Library(shelf: Shelf(books: ["a", "b"], label: "fiction"))
        _ = library.computed.doubled
        _ = library.computed.firstBook
        _ = library.computed.caption
        _ = library.computed.shelves
        return library
    }

    @Test("writing a member a computed does not read leaves it: shelf.label and doubled")
    func unreadMember() {
        var library = library()
        let doubled = Library.Selectors.doubled.recomputations
        let first = Library.Selectors.firstBook.recomputations
        let caption = Library.Selectors.caption.recomputations
        let shelves = Library.Selectors.shelves.recomputations
        library.shelf.label = "poetry"
        #expect(library.computed.doubled == 4)
        #expect(library.computed.firstBook == "a")
        #expect(library.computed.caption == "poetry: 2")
        #expect(library.computed.shelves == 1)
        #expect(Library.Selectors.doubled.recomputations == doubled)       // reads shelf.computed.total
        #expect(Library.Selectors.firstBook.recomputations == first)       // reads shelf.books
        #expect(Library.Selectors.caption.recomputations == caption + 1)   // reads shelf.label
        #expect(Library.Selectors.shelves.recomputations == shelves + 1)   // reads shelf whole
    }

    @Test("writing a member a computed reads recomputes it")
    func readMember() {
        var library = library()
        let doubled = Library.Selectors.doubled.recomputations
        library.shelf.books.append("c")
        #expect(library.computed.doubled == 6)
        #expect(Library.Selectors.doubled.recomputations == doubled + 1)
    }

    @Test("two levels deep: building.library.shelf.computed.total")
    func twoLevels() {
        var building = Building(library: library())
        #expect(building.computed.deepTotal == 3)
        let deep = Building.Selectors.deepTotal.recomputations
        building.library.shelf.label = "poetry"
        building.library.name = "Central"
        #expect(building.computed.deepTotal == 3)
        #expect(Building.Selectors.deepTotal.recomputations == deep)
        building.library.shelf.books.removeAll()
        #expect(building.computed.deepTotal == 1)
        #expect(Building.Selectors.deepTotal.recomputations == deep + 1)
    }

    @Test("member versions are exposed through MemberVersioned")
    func memberVersions() {
        var shelf = Shelf(books: ["a"])
        let books = memberVersion(of: shelf, "books")
        let total = memberVersion(of: shelf, "computed.total")
        #expect(books != nil && total != nil)
        #expect(memberVersion(of: shelf, "unknown") == nil)
        #expect(memberVersion(of: 42, "anything") == nil)
        shelf.label = "x"
        #expect(memberVersion(of: shelf, "books") == books)
        #expect(memberVersion(of: shelf, "computed.total") == total)
        shelf.books = ["b"]  // a new value, same count: total is cut off
        #expect(memberVersion(of: shelf, "books") != books)
        #expect(memberVersion(of: shelf, "computed.total") == total)
    }
}
