import ComputedRuntime
import Foundation
@testable import GoldenStates
import Testing

/// Selectors over a nested state whose `@Shared` value another holder changes: every cache over a
/// state keys on the nested states' shared stamps, as computed values do. (Found by a
/// differential test: a parameterized selector over `child.computed.x` returned the value of
/// before the change.) `Fixtures/Specs/Shared.statespec`'s `ParentFeature` and `AppShell`, and
/// `Nested.statespec`'s `SessionBadge`, which nests `ChildState` from the other spec file.
@Suite("Selectors over nested states' @Shared values", .serialized)
struct NestedSharedSelectorTests {
    @Test("a parameterized selector follows a change made through another holder")
    func parameterizedFollowsOtherHolder() {
        let session = Shared(value: Session(userName: "guest"))
        let parent = ParentFeature(child: ChildState(session: session))
        #expect(ParentFeature.Selectors.greeting("hi ")(parent) == "hi guest")
        session.withLock { $0.userName = "ada" }
        #expect(ParentFeature.Selectors.greeting("hi ")(parent) == "hi ada")
        #expect(ParentFeature.Selectors.labelled("@", width: 3)(parent) == "@ad")
    }

    @Test("a parameterized selector follows a write through the child")
    func parameterizedFollowsWriteThroughChild() {
        let session = Shared(value: Session(userName: "guest"))
        let parent = ParentFeature(child: ChildState(session: session))
        #expect(ParentFeature.Selectors.greeting("> ")(parent) == "> guest")
        let holder = ChildState(session: session)
        holder.session.userName = "grace"
        #expect(ParentFeature.Selectors.greeting("> ")(parent) == "> grace")
    }

    @Test("a selector without parameters, and one two levels up, follow the change")
    func plainAndDeeper() {
        let session = Shared(value: Session(userName: "guest"))
        let parent = ParentFeature(child: ChildState(session: session))
        let shell = AppShell(feature: ParentFeature(child: ChildState(session: session)))
        #expect(ParentFeature.Selectors.nameLength()(parent) == 5)
        #expect(AppShell.Selectors.header("to ")(shell) == "to guest")
        session.withLock { $0.userName = "alan" }
        #expect(ParentFeature.Selectors.nameLength()(parent) == 4)
        #expect(AppShell.Selectors.header("to ")(shell) == "to alan")
    }

    @Test("across spec files: a selector of SessionBadge over Shared.statespec's ChildState")
    func acrossSpecFiles() {
        let session = Shared(value: Session(userName: "ab"))
        let badge = SessionBadge(child: ChildState(session: session), count: 0)
        #expect(SessionBadge.Selectors.badge(times: 2)(badge) == "abab")
        session.withLock { $0.userName = "c" }
        #expect(SessionBadge.Selectors.badge(times: 2)(badge) == "cc")
    }

    @Test("still a cache: no recomputation until the nested value or the field changes")
    func staysCached() {
        let session = Shared(value: Session(userName: "guest"))
        var parent = ParentFeature(child: ChildState(session: session))
        let selector = ParentFeature.Selectors.greeting("cached ")
        #expect(selector(parent) == "cached guest")
        let once = selector.recomputations
        #expect(selector(parent) == "cached guest")
        parent.title = "unrelated"
        #expect(selector(parent) == "cached guest")
        #expect(selector.recomputations == once)
        session.withLock { $0.userName = "ada" }
        #expect(selector(parent) == "cached ada")
        #expect(selector(parent) == "cached ada")
        #expect(selector.recomputations == once + 1)
        parent.child = ChildState(session: Shared(value: Session(userName: "new")))
        #expect(selector(parent) == "cached new")
        #expect(selector.recomputations == once + 2)
    }

    @Test("createSelector over the field's selector keys on the nested stamps; the field selector is unversioned")
    func userSelectorOverField() {
        let session = Shared(value: Session(userName: "guest"))
        let parent = ParentFeature(child: ChildState(session: session))
        let field = ParentFeature.Selectors.child
        #expect(!field.isVersioned)
        let upper = createSelector(field) { child in child.session.userName.uppercased() }
        #expect(upper(parent) == "GUEST")
        #expect(upper(parent) == "GUEST")
        #expect(upper.recomputations == 1)
        session.withLock { $0.userName = "ada" }
        #expect(upper(parent) == "ADA")
        #expect(upper.recomputations == 2)
        // A field without nested @Shared values keeps its one-stamp version.
        #expect(ParentFeature.Selectors.title.isVersioned)
    }

    @Test("a value over another spec file's state, read by its @Shared field's path only, follows the change")
    func fieldPathAcrossSpecFiles() {
        // `SessionInitial` (Nested.statespec) reads `child.session.userName` of Shared.statespec's
        // `ChildState`: the generator knows from the target's other specs that it holds @Shared.
        let session = Shared(value: Session(userName: "ada"))
        let state = SessionInitial(child: ChildState(session: session))
        #expect(state.computed.initial == "a")
        session.withLock { $0.userName = "grace" }
        #expect(state.computed.initial == "g")
    }
}
