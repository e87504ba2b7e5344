import ComputedRuntime
import Foundation
@testable import GoldenStates
import Testing

/// Exercises the golden output of `Fixtures/Specs/Shared.statespec`.
///
/// Its `@Shared` keys are process-wide, so the suite is serialized and each test sets the values
/// it relies on first.
@Suite("Generated @Shared fields", .serialized)
struct SharedStateTests {
    init() {
        let state = AppState()
        state.session = Session()
        state.settings = Settings()
        state.launchCount = 0
    }

    @Test("two states declaring the same key share the value")
    func sameKeyShares() {
        let first = AppState(title: "One")
        let second = AppState(title: "Two")
        first.session = Session(userName: "ada")
        #expect(second.session.userName == "ada")
        #expect(first.$session.isSameReference(as: second.$session))
    }

    @Test("a computed over a shared field follows writes made through another holder")
    func computedFollowsOtherHolders() {
        let state = AppState(title: "Home")
        let greeting = AppState.Selectors.greeting
        let headline = AppState.Selectors.headline
        #expect(state.computed.greeting == "Home, guest")
        let before = (greeting.recomputations, headline.recomputations)
        #expect(state.computed.greeting == "Home, guest")  // cached
        #expect(greeting.recomputations == before.0)

        let otherHolder = AppState()
        otherHolder.$session.withLock { $0.userName = "grace" }
        #expect(state.computed.greeting == "Home, grace")
        #expect(state.computed.headline == "HOME, GRACE")  // through another computed
        #expect(greeting.recomputations == before.0 + 1)
        #expect(headline.recomputations == before.1 + 1)
    }

    @Test("the state's own fields still invalidate as usual; unrelated values stay cached")
    func ownFieldsInvalidate() {
        var state = AppState(title: "Home")
        _ = state.computed.titleLength
        _ = state.computed.isLarge
        let isLarge = AppState.Selectors.isLarge
        let before = isLarge.recomputations
        state.title = "Inbox"
        #expect(state.computed.titleLength == 5)
        #expect(state.computed.greeting == "Inbox, guest")
        #expect(state.computed.isLarge == false)
        #expect(isLarge.recomputations == before)  // settings did not change
    }

    @Test("a child state handed the parent's reference sees and makes the same writes")
    func childGetsParentsReference() {
        let parent = AppState()
        let child = ChildState(session: parent.$session)
        child.session = Session(userName: "child")
        #expect(parent.session.userName == "child")
        #expect(child.computed.name == "child")
        parent.session = Session(userName: "parent")
        #expect(child.computed.name == "parent")
        // ChildState's own key is not the parent's.
        #expect(!ChildState().$session.isSameReference(as: parent.$session))
    }

    @Test("file and UserDefaults storage are written")
    func persistence() throws {
        let state = AppState()
        state.settings = Settings(fontSize: 20, theme: "dark")
        try state.$settings.save()
        let stored = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: FixtureStorage.settingsURL))
        #expect(stored.fontSize == 20)
        #expect(state.computed.isLarge)

        state.$launchCount.withLock { $0 += 1 }
        #expect(FixtureStorage.defaults.integer(forKey: "fixture.launchCount") == state.launchCount)
    }

    @Test("== compares shared values; Codable leaves shared fields to their storage")
    func equalityAndCoding() throws {
        let state = AppState(title: "A")
        let other = AppState(title: "A")
        #expect(state == other)  // same shared references, same title
        let json = try #require(String(data: JSONEncoder().encode(state), encoding: .utf8))
        #expect(json.contains("\"title\""))
        #expect(!json.contains("session"))
        let decoded = try JSONDecoder().decode(AppState.self, from: Data(json.utf8))
        #expect(decoded == state)
    }

    @Test("shared selectors are versioned by the reference's stamp")
    func sharedSelectors() {
        let state = AppState()
        let version = AppState.Selectors.session.version(state)
        #expect(version != nil)
        state.session = Session(userName: "new")
        #expect(AppState.Selectors.session.version(state) != version)
        #expect(AppState.Selectors.session(state).userName == "new")
    }
}
