import ComputedRuntime
import Foundation
import Testing

@testable import GoldenStates

/// Exercises the golden outputs of the smaller fixture specs, compiled as-is.
@Suite("Generated fixture states", .serialized)
struct FixtureStatesTests {
    @Test("a chain of computed values recomputes only what a write reaches")
    func counterChain() {
        var state = CounterState(count: 3)
        let doubled = CounterState.Selectors.doubled
        let quadrupled = CounterState.Selectors.quadrupled
        let next = CounterState.Selectors.next
        #expect(state.computed.next == 4)
        #expect(state.computed.summary == "Counter: 3 (next 4)")
        let counts = (doubled.recomputations, quadrupled.recomputations, next.recomputations)

        state.step = 10  // feeds `next` (and `summary` through it), not `doubled`
        #expect(state.computed.next == 13)
        #expect(doubled.recomputations == counts.0)
        #expect(quadrupled.recomputations == counts.1)
        #expect(next.recomputations == counts.2 + 1)

        state.count = 5  // feeds the whole chain
        #expect(state.computed.quadrupled == 20)
        #expect(state.computed.summary == "Counter: 5 (next 15)")
        #expect(doubled.recomputations == counts.0 + 1)
        #expect(quadrupled.recomputations == counts.1 + 1)
    }

    @Test("label feeds only summary")
    func unrelatedField() {
        var state = CounterState()
        _ = state.computed.next
        let before = CounterState.Selectors.next.recomputations
        state.label = "Other"
        #expect(state.computed.summary == "Other: 0 (next 1)")
        #expect(CounterState.Selectors.next.recomputations == before)
    }

    @Test("every form of @Edge middleware")
    func edgeMiddleware() {
        var state = ProfileState()
        state.badge = 120
        #expect(state.badge == 99)
        #expect(state.computed.badgeText == "99+")
        state.name = "  Ada  "
        #expect(state.name == "Ada")
        state.score = -5
        #expect(state.score == 0)
        state.score = 7
        #expect(state.score == 7)
        let version = state.$score.version
        state.score += 1
        #expect(state.$score.version != version)
        #expect(!state.computed.hasAvatar)
        state.avatar = Avatar(url: "x")
        #expect(state.computed.hasAvatar)
    }

    @Test("onSet middleware applies to the initial value")
    func edgeInitialValue() {
        let state = ProfileState(badge: 500, name: " Grace ")
        #expect(state.badge == 99)
        #expect(state.name == "Grace")
    }

    @Test("selectors with several parameters, underscore labels and no parameters")
    func selectorForms() {
        var state = LibraryState(todos: [
            Todo(title: "alpha", done: false, owner: 1),
            Todo(title: "almond", done: true, owner: 1),
            Todo(title: "beta", done: false, owner: 2),
            Todo(title: "alps", done: false, owner: 2),
        ])
        #expect(LibraryState.Selectors.todos(ownedBy: 1)(state).map(\.title) == ["alpha"])
        #expect(LibraryState.Selectors.matching("al", limit: 2)(state).map(\.title) == ["alpha", "almond"])
        #expect(LibraryState.Selectors.count(done: true)(state) == 1)
        #expect(LibraryState.Selectors.count(done: false)(state) == 3)
        state.query = "abc"
        #expect(LibraryState.Selectors.queryLength()(state) == 3)
    }

    @Test("a protocol of the app named in the spec's header is adopted, its requirement met by a field")
    func appProtocol() {
        var state = SettingsState(recent: [])
        state.theme = "dark"
        let provider: any ThemeProviding = state
        #expect(provider.theme == "dark")
    }

    @Test("Codable round trip skips caches and fills missing keys with defaults")
    func codable() throws {
        var state = SettingsState(recent: ["a", "b"])
        state.fontSize = 20
        #expect(state.computed.isLarge)
        let data = try JSONEncoder().encode(state)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(!json.contains("isLarge"))
        let decoded = try JSONDecoder().decode(SettingsState.self, from: data)
        #expect(decoded == state)
        #expect(decoded.computed.recentCount == 2)

        let partial = try JSONDecoder().decode(SettingsState.self, from: Data(#"{"recent": []}"#.utf8))
        #expect(partial.theme == "light")
        #expect(partial.fontSize == 14)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SettingsState.self, from: Data("{}".utf8))
        }
    }

    @Test("Hashable agrees with ==")
    func hashable() {
        let state = SettingsState(recent: ["a"])
        var other = SettingsState(recent: ["a"])
        #expect(state == other)
        #expect(state.hashValue == other.hashValue)
        other.theme = "dark"
        #expect(state != other)
        #expect(Set([state, other, SettingsState(recent: ["a"])]).count == 2)
    }

    @Test("keywords in backticks work as names")
    func keywords() throws {
        var state = `Protocol`(default: 2, class: "abc", open: true, consuming: 4)
        #expect(state.computed.nonisolated == 5)
        #expect(state.computed.return == 5)
        #expect(`Protocol`.Selectors.where(in: 4)(state))
        state.default = 0
        #expect(!`Protocol`.Selectors.where(in: 4)(state))
        let decoded = try JSONDecoder().decode(`Protocol`.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
        var pair = Pair(first: 1, second: 2)
        pair.second = 5
        #expect(pair.computed.sum == 6)
    }

    @Test("print shows fields, not storage")
    func mirror() {
        let text = String(describing: CounterState(count: 2))
        #expect(text.contains("count: 2"))
        #expect(!text.contains("_extended"))
    }
}
