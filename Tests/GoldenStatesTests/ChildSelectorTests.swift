import ComputedRuntime
import GoldenStates
import Testing

/// A child state's generated selector read through the parent state and its store.
@Suite("Child selectors through a parent")
struct ChildSelectorTests {
    let total = Shelf.Selectors.total.through(\Library.shelf)

    @Test("the lifted selector has the child's value and version, and moves only when they do")
    func versionFollowsTheChild() {
        var library = Library()
        #expect(total.isVersioned)
        #expect(total(library) == 0)
        let before = total.version(library)
        library.name = "city"           // not the child
        library.shelf.label = "new"     // the child, but not what `total` reads
        #expect(total.version(library) == before)
        library.shelf.books.append("Dune")
        #expect(total(library) == 1)
        #expect(total.version(library) != before)
        #expect(total.version(library) == Shelf.Selectors.total.version(library.shelf))
    }

    @Test("a parent store selects and derives the child's computed value; counts go to the child's counter")
    func throughAStore() {
        RecomputationCounter.counting { counts in
            let store = Store(Library())
            let derived = store.derived(total)
            #expect(derived.value == 0)
            store.commit { $0.shelf.label = "renamed" }
            store.commit { $0.name = "city" }
            #expect(derived.value == 0)
            store.commit { $0.shelf.books.append("Dune") }
            #expect(derived.value == 1)
            #expect(counts[total] == counts[Shelf.Selectors.total])
            #expect(counts[Shelf.Selectors.total] == 2)
        }
    }
}
