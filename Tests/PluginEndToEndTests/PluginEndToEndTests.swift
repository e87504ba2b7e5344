import ComputedRuntime
import Foundation
import Testing

/// The generated API as users meet it: the specs next to this file are compiled by the ComputedGen
/// build-tool plugin applied to this test target (`plugins: ["ComputedGen"]` in Package.swift),
/// not by the golden files of Fixtures/.
///
/// That this target compiles at all also proves that `.statespec` files need no `resources:` or
/// `exclude:` entry, and that a spec in a subfolder (`Inbox/Folder.statespec`) generates. Two specs
/// of the same name in different folders are built by ExamplesTests (SameNameSpecs.swift) in a
/// child build: Swift warns about their `#sourceLocation`s, which would flood `swift test` here.
///
/// Recomputation counters are process-wide per computed, so every test measures deltas, and the
/// suite is serialized.
@Suite("Plugin-generated states", .serialized)
struct PluginEndToEndTests {
    let sample = [
        Todo(title: "milk", owner: 1),
        Todo(title: "bread", done: true, owner: 2),
        Todo(title: "mild cheese", owner: 1),
    ]

    @Test("a computed runs once, then reads from its cache")
    func memoizes() {
        let state = TodoState(todos: sample)
        let visible = TodoState.Selectors.visibleTodos
        let before = visible.recomputations
        for _ in 0..<5 {
            #expect(state.computed.visibleTodos.count == 3)
        }
        #expect(visible.recomputations == before + 1)
    }

    @Test("a write recomputes exactly the computed values it feeds")
    func invalidatesOnlyDependents() {
        var state = TodoState(todos: sample)
        let visible = TodoState.Selectors.visibleTodos
        let done = TodoState.Selectors.doneCount
        let header = TodoState.Selectors.header
        _ = (state.computed.visibleTodos, state.computed.doneCount, state.computed.header)
        let before = (visible.recomputations, done.recomputations, header.recomputations)

        state.unread = 4  // read by nothing
        state.avatar = Avatar(url: "me.png")  // read by nothing
        _ = (state.computed.visibleTodos, state.computed.doneCount, state.computed.header)
        #expect(visible.recomputations == before.0)
        #expect(done.recomputations == before.1)
        #expect(header.recomputations == before.2)

        state.title = "Groceries"  // feeds only `header`
        #expect(state.computed.header == "Groceries (3)")
        #expect(visible.recomputations == before.0)
        #expect(header.recomputations == before.2 + 1)

        state.query = "mil"  // feeds visibleTodos → visibleCount → header, not doneCount
        #expect(state.computed.visibleTodos.map(\.title) == ["milk", "mild cheese"])
        #expect(state.computed.doneCount == 1)
        #expect(visible.recomputations == before.0 + 1)
        #expect(done.recomputations == before.1)

        state.todos.append(Todo(title: "mild salsa", done: true))  // feeds everything
        #expect(state.computed.doneCount == 2)
        #expect(done.recomputations == before.1 + 1)
    }

    @Test("computed on computed: a chain follows its root input")
    func computedOnComputed() {
        var state = TodoState(todos: sample)
        let count = TodoState.Selectors.visibleCount
        let header = TodoState.Selectors.header
        #expect(state.computed.header == "Todos (3)")
        let before = (count.recomputations, header.recomputations)
        #expect(state.computed.header == "Todos (3)")
        #expect(count.recomputations == before.0)
        #expect(header.recomputations == before.1)

        state.filter = .done
        #expect(state.computed.header == "Todos (1)")
        state.filter = .active
        #expect(state.computed.visibleCount == 2)
        #expect(state.computed.header == "Todos (2)")
        #expect(count.recomputations == before.0 + 2)
        #expect(header.recomputations == before.1 + 2)
    }

    @Test("selectors: fields, computed values, and parameterized ones cached per argument")
    func selectors() {
        var state = TodoState(todos: sample)
        #expect(TodoState.Selectors.todos(state) == sample)
        #expect(TodoState.Selectors.visibleCount(state) == 3)
        #expect(TodoState.Selectors.todos(ownedBy: 1)(state).map(\.title) == ["milk", "mild cheese"])
        #expect(TodoState.Selectors.todos(ownedBy: 2)(state).map(\.title) == ["bread"])
        #expect(TodoState.Selectors.matching("mil", limit: 1)(state) == ["milk"])
        #expect(TodoState.Selectors.matching("mil", limit: 5)(state) == ["milk", "mild cheese"])

        let owner1 = TodoState.Selectors.todos(ownedBy: 1)
        let owner2 = TodoState.Selectors.todos(ownedBy: 2)
        let before = owner1.recomputations
        _ = (owner1(state), owner2(state), owner1(state))
        #expect(owner1.recomputations == before)  // both arguments still cached

        state.todos.removeAll { $0.owner == 1 }
        #expect(owner1(state).isEmpty)
        #expect(owner2(state).map(\.title) == ["bread"])
        #expect(owner1.recomputations > before)
    }

    @Test("Edge fields: versions and middleware")
    func edges() {
        var state = TodoState()
        let badgeVersion = state.$badge.version
        state.badge = 250
        #expect(state.badge == 99)  // onSet clamps
        #expect(state.$badge.version != badgeVersion)

        let avatarVersion = state.$avatar.version
        state.avatar = Avatar(url: "a.png")
        #expect(state.$avatar.wrappedValue?.url == "a.png")
        #expect(state.$avatar.version != avatarVersion)

        let initial = TodoState(badge: 1_000)
        #expect(initial.badge == 99)  // middleware also applies to the initial value
    }

    @Test("generated Equatable: fields by version or value, Edge fields by version, caches never")
    func equatable() {
        let state = TodoState(todos: sample)
        var other = state
        #expect(state == other)
        other.query = "x"
        #expect(state != other)
        other.query = ""
        #expect(state == other)  // new stamp, equal value
        _ = other.computed.visibleTodos
        #expect(state == other)
        other.avatar = nil  // same value, new version: Avatar is not Equatable
        #expect(state != other)
    }

    @Test("generated Codable and Hashable skip caches and default missing keys")
    func codable() throws {
        var settings = SettingsState(recent: ["a", "b"])
        settings.fontSize = 20
        #expect(settings.computed.isLarge)
        let data = try JSONEncoder().encode(settings)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(!json.contains("isLarge"))
        let decoded = try JSONDecoder().decode(SettingsState.self, from: data)
        #expect(decoded == settings)
        #expect(decoded.hashValue == settings.hashValue)
        #expect(decoded.computed.recentCount == 2)

        let partial = try JSONDecoder().decode(SettingsState.self, from: Data(#"{"recent": ["x"]}"#.utf8))
        #expect(partial.theme == "light")
        #expect(partial.fontSize == 14)
        #expect(!partial.computed.isLarge)
    }

    @Test("a spec in a subfolder generates")
    func specInSubfolder() {
        var inbox = InboxFolder()
        inbox.messages = ["hi", "there"]
        #expect(inbox.computed.unreadCount == 2)
    }
}
