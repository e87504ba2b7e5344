import Foundation
import GoldenStates
import Observation
import Testing

@testable import ComputedRuntime

/// Writes through a store's members (`store.query = "milk"`, `store.shelf.label = "x"`, through
/// scopes) and through the key paths SwiftUI's `@Bindable` turns into bindings: each is a commit,
/// with a commit's rules for what changed and who is told.
@Suite("Store: writable members and key paths")
struct StoreWriteTests {
    /// Calls `write` with every subscriber call and every notified observer of `reads` counted.
    struct Effects {
        var published = 0
        var notified: [String] = []
    }

    func effects(
        of write: () -> Void,
        store: Store<TodoState>,
        observing reads: [String: @Sendable () -> Void]
    ) -> Effects {
        let published = Counter()
        let subscription = store.subscribe { _ in published.increment() }
        let notified = LockedBox<[String]>([])
        for (name, read) in reads {
            withObservationTracking { read() } onChange: { notified.withLock { $0.append(name) } }
        }
        write()
        withExtendedLifetime(subscription) {}
        return Effects(published: published.value, notified: notified.withLock { $0 }.sorted())
    }

    @Test("store.query = x commits, and tells the observers of query and of what it changed, nobody else")
    func assignField() {
        let store = Store(TodoState(todos: [Todo(title: "milk"), Todo(title: "bread")]))
        let reads: [String: @Sendable () -> Void] = [
            "query": { _ = store.query },
            "filter": { _ = store.filter },
            "todos": { _ = store.todos },
            "visibleCount": { _ = store.computed.visibleCount },
            "doneCount": { _ = store.computed.doneCount },
        ]
        let first = effects(of: { store.query = "milk" }, store: store, observing: reads)
        #expect(store.state.query == "milk")
        #expect(store.query == "milk")
        #expect(first.published == 1)
        #expect(first.notified == ["query", "visibleCount"])

        // The same value again: no commit at all.
        let again = effects(of: { store.query = "milk" }, store: store, observing: reads)
        #expect(again.published == 0)
        #expect(again.notified == [])

        // A different query that keeps the same visible todos: visibleCount is cut off.
        let cutOff = effects(of: { store.query = "mil" }, store: store, observing: reads)
        #expect(cutOff.published == 1)
        #expect(cutOff.notified == ["query"])
    }

    @Test("an @Edge field is assigned through its middleware")
    func assignEdgeField() {
        let store = Store(TodoState())
        store.badge = 250
        #expect(store.badge == 99)
        let version = store.state.$badge.version
        store.badge = 99                               // equal: no write, the stamp stays
        #expect(store.state.$badge.version == version)
        store.commit { $0.badge = 99 }                 // a commit's assignment always counts
        #expect(store.state.$badge.version != version)
    }

    @Test("a write of an equal value notifies no observer, also with a subscriber-free store")
    func equalWriteObservation() {
        let store = Store(TodoState(query: "a"))
        #expect(!fires({ _ = store.query }, after: { store.query = "a" }))
        #expect(!fires({ _ = store.state }, after: { store.query = "a" }))
        #expect(fires({ _ = store.query }, after: { store.query = "b" }))
        #expect(fires({ _ = store.state }, after: { store.query = "c" }))
        #expect(!fires({ _ = store.filter }, after: { store.query = "d" }))
    }

    @Test("the members of a nested state are written in place, one by one")
    func assignNestedMember() {
        let store = Store(Library(shelf: Shelf(books: ["a"], label: "l")))
        #expect(fires({ _ = store.shelf.label }, after: { store.shelf.label = "m" }))
        #expect(store.state.shelf.label == "m")
        #expect(!fires({ _ = store.shelf.books }, after: { store.shelf.label = "n" }))
        #expect(!fires({ _ = store.shelf.computed.total }, after: { store.shelf.label = "o" }))
        #expect(!fires({ _ = store.computed.doubled }, after: { store.shelf.label = "p" }))
        #expect(fires({ _ = store.computed.caption }, after: { store.shelf.label = "q" }))
        #expect(fires({ _ = store.shelf.computed.total }, after: { store.shelf.books = ["a", "b"] }))
        #expect(store.computed.doubled == 4)

        // An equal value: no commit, so not even the nested state's field moves.
        let calls = Counter()
        let subscription = store.subscribe { _ in calls.increment() }
        #expect(!fires({ _ = store.shelf.value }, after: { store.shelf.label = "q" }))
        #expect(!fires({ _ = store.state }, after: { store.shelf.books = ["a", "b"] }))
        #expect(calls.value == 0)
        store.shelf.label = "r"
        #expect(calls.value == 1)
        withExtendedLifetime(subscription) {}

        // Two levels down.
        let building = Store(Building())
        #expect(fires({ _ = building.library.shelf.books }, after: { building.library.shelf.books = ["x"] }))
        #expect(!fires({ _ = building.library.name }, after: { building.library.shelf.label = "y" }))
        #expect(building.state.library.shelf.label == "y")
        #expect(building.computed.deepTotal == 2)
    }

    @Test("writes through a scoped store commit through the parent, with the same rules")
    func assignThroughScope() {
        let store = Store(Building())
        let library = store.scope(\.library)
        let shelf = library.scope(\.shelf)
        #expect(fires({ _ = store.computed.deepTotal }, after: { shelf.books = ["a", "b"] }))
        #expect(store.state.library.shelf.books == ["a", "b"])
        #expect(fires({ _ = library.name }, after: { library.name = "City" }))
        #expect(store.state.library.name == "City")
        #expect(fires({ _ = library.shelf.label }, after: { library.shelf.label = "Fiction" }))
        #expect(!fires({ _ = shelf.books }, after: { library.shelf.label = "Poetry" }))

        let calls = Counter()
        let subscription = shelf.subscribe { _ in calls.increment() }
        shelf.label = "Poetry"                          // equal: nothing
        library.name = "City"                           // equal: nothing
        #expect(calls.value == 0)
        shelf.label = "Drama"
        #expect(calls.value == 1)
        withExtendedLifetime(subscription) {}

        // A row's store: one element of an array.
        let todos = Store(TodoState(todos: [Todo(title: "milk"), Todo(title: "bread")]))
        let row = todos.scope(\.todos[1])
        #expect(fires({ _ = todos.computed.doneCount }, after: { row.done = true }))
        #expect(todos.state.todos[1].done)
        #expect(!fires({ _ = row.title }, after: { todos.commit { $0.todos[0].title = "oat milk" } }))
    }

    @Test("\\Store<State>.member is a ReferenceWritableKeyPath, and writing through it commits")
    func referenceWritableKeyPaths() {
        // What SwiftUI's `Bindable.subscript(dynamicMember: ReferenceWritableKeyPath<Value, Subject>)`
        // requires: `$store.query`, `$store.shelf.label`, `$store.settings.fontSize`.
        let query: ReferenceWritableKeyPath<Store<TodoState>, String> = \.query
        let filter: ReferenceWritableKeyPath<Store<TodoState>, Filter> = \.filter
        let label: ReferenceWritableKeyPath<Store<Library>, String> = \.shelf.label
        let shelf: ReferenceWritableKeyPath<Store<Library>, Shelf> = \.shelf
        let fontSize: ReferenceWritableKeyPath<Store<AppState>, Double> = \.settings.fontSize
        let done: ReferenceWritableKeyPath<Store<Todo>, Bool> = \.done

        let store = Store(TodoState())
        #expect(fires({ _ = store[keyPath: query] }, after: { store[keyPath: query] = "milk" }))
        #expect(!fires({ _ = store.query }, after: { store[keyPath: query] = "milk" }))
        #expect(!fires({ _ = store.query }, after: { store[keyPath: filter] = .done }))
        #expect(store.state.filter == .done)

        let library = Store(Library())
        #expect(fires({ _ = library.shelf.label }, after: { library[keyPath: label] = "Fiction" }))
        #expect(!fires({ _ = library.shelf.books }, after: { library[keyPath: label] = "Poetry" }))
        #expect(library.shelf.label == "Poetry")
        // The whole nested state, as `$store.shelf` would bind it.
        var copy = library[keyPath: shelf]
        copy.label = "Drama"
        #expect(!fires({ _ = library.shelf.books }, after: { library[keyPath: shelf] = copy }))
        #expect(library.shelf.label == "Drama")
        // The same, assigned directly: `store.shelf` reads through `StoreMembers`, and an
        // assignment of a whole `Shelf` goes to the writable member.
        copy.label = "Essays"
        #expect(fires({ _ = library.shelf.label }, after: { library.shelf = copy }))
        #expect(library.shelf.value.label == "Essays")

        // A value inside a field that is not a generated state (as `$store.todos[0].title`, or
        // `$store.settings.fontSize` above): read, changed, and written back whole. (Not written
        // through `fontSize`: AppState's settings are shared with other tests, in a file.)
        let title: ReferenceWritableKeyPath<Store<TodoState>, String> = \.todos[0].title
        let list = Store(TodoState(todos: [Todo(title: "milk"), Todo(title: "tea")]))
        #expect(fires({ _ = list.computed.visibleCount }, after: { list.query = "milk" }))
        #expect(fires({ _ = list.computed.visibleCount }, after: { list[keyPath: title] = "oat" }))
        #expect(!fires({ _ = list.todos }, after: { list[keyPath: title] = "oat" }))
        #expect(!fires({ _ = list.computed.doneCount }, after: { list[keyPath: title] = "soy milk" }))
        #expect(list.state.todos.map(\.title) == ["soy milk", "tea"])
        _ = fontSize

        let todos = Store(TodoState(todos: [Todo(title: "milk")]))
        let row = todos.scope(\.todos[0])
        row[keyPath: done] = true
        #expect(todos.state.todos[0].done)
    }

    @Test("a binding built the way SwiftUI builds one from a Bindable commits each set")
    func bindingLikeSwiftUI() {
        // SwiftUI's `Binding` from `Bindable`: get and set through the reference-writable key path.
        struct Binding<Value> {
            let get: () -> Value
            let set: (Value) -> Void
            init<Root: AnyObject>(_ root: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>) {
                get = { root[keyPath: keyPath] }
                set = { root[keyPath: keyPath] = $0 }
            }
        }
        let store = Store(TodoState(todos: [Todo(title: "milk")]))
        let text = Binding(store, \.query)
        let calls = Counter()
        let subscription = store.subscribe { _ in calls.increment() }
        // A text field sets the binding on every keystroke, sometimes with the same text.
        for typed in ["m", "mi", "mi", "mil", "mil"] { text.set(typed) }
        #expect(text.get() == "mil")
        #expect(calls.value == 3)
        #expect(store.computed.visibleCount == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test("writes from many threads are each one commit; none is lost")
    func concurrentWrites() async {
        let store = Store(CutoffState())
        let names = (0..<200).map { "name \($0)" }
        await withTaskGroup(of: Void.self) { group in
            for name in names {
                group.addTask { store.name = name }
                group.addTask { _ = store.name }
            }
        }
        #expect(names.contains(store.name))
        let calls = Counter()
        let subscription = store.subscribe { _ in calls.increment() }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { store.threshold = index >= 0 ? 7 : 8 }
            }
        }
        #expect(calls.value == 1)  // the first write of 7 changed it; the other 99 were equal
        withExtendedLifetime(subscription) {}
    }
}
