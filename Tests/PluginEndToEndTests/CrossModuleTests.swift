import ComputedRuntime
import GoldenStates
import Testing

/// Selectors over a state of another module that holds `@Shared` values (`CrossModule.statespec`
/// nests GoldenStates' `AppState`): the generator cannot see that module's spec, and the caches
/// still key on the nested state's shared stamps.
@Suite("Selectors over another module's @Shared values")
struct CrossModuleSharedTests {
    /// An `AppState` with references of its own, so the test does not share the process-wide keys.
    static func app(_ name: String) -> (AppState, Shared<Session>) {
        let session = Shared(value: Session(userName: name))
        let app = AppState(title: "Home", session: session, settings: Shared(value: Settings()), launchCount: Shared(value: 0))
        return (app, session)
    }

    @Test("a parameterized selector and one without parameters follow a change made through another holder")
    func followsOtherHolder() {
        let (app, session) = Self.app("guest")
        var shell = CrossModuleShell(app: app)
        let greeting = CrossModuleShell.Selectors.greeting("> ")
        #expect(greeting(shell) == "> Home, guest!")
        #expect(CrossModuleShell.Selectors.sessionName()(shell) == "guest")
        let once = greeting.recomputations
        #expect(greeting(shell) == "> Home, guest!")
        #expect(greeting.recomputations == once)

        session.withLock { $0.userName = "ada" }
        #expect(greeting(shell) == "> Home, ada!")
        #expect(CrossModuleShell.Selectors.sessionName()(shell) == "ada")
        #expect(greeting.recomputations == once + 1)

        shell.suffix = "?"
        #expect(greeting(shell) == "> Home, ada?")
    }
}
