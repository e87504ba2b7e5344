@testable import ComputedRuntime
import Foundation
@testable import GoldenStates
import Observation
import Testing

/// A parent's computed values over a nested state whose `@Shared` value another holder changes
/// (`Fixtures/Specs/Shared.statespec`'s `ParentFeature` and `AppShell`, and `Nested.statespec`'s
/// `SessionBadge`, which nests `ChildState` from the other spec file). Each reference is made
/// here, so the tests do not depend on the process-wide in-memory keys.
@Suite("Nested states' @Shared values", .serialized)
struct NestedSharedTests {
    @Test("a parent's value over a nested state's computed value follows a change made elsewhere")
    func parentFollowsChild() {
        let session = Shared(value: Session(userName: "guest"))
        let state = ParentFeature(child: ChildState(session: session))
        #expect(state.computed.childName == "guest")
        session.withLock { $0.userName = "ada" }
        #expect(state.child.computed.name == "ada")
        #expect(state.computed.childName == "ada")
    }

    @Test("the value stays cached until the nested value changes, and is computed once per change")
    func cachedBetweenChanges() {
        // `SessionBadge` is used by this suite only, so its counters are this test's.
        let session = Shared(value: Session(userName: "guest"))
        var badge = SessionBadge(child: ChildState(session: session), count: 1)
        let counter = SessionBadge.Selectors.badge
        #expect(badge.computed.badge == "guest (1)")
        let once = counter.recomputations
        #expect(badge.computed.badge == "guest (1)")
        #expect(counter.recomputations == once)
        session.withLock { $0.userName = "ada" }
        #expect(badge.computed.badge == "ada (1)")
        #expect(badge.computed.badge == "ada (1)")
        #expect(counter.recomputations == once + 1)
        badge.count = 2
        #expect(badge.computed.badge == "ada (2)")
        #expect(counter.recomputations == once + 2)
        let plain = SessionBadge.Selectors.plain
        #expect(badge.computed.plain == 4)
        let plainOnce = plain.recomputations
        session.withLock { $0.userName = "grace" }
        #expect(badge.computed.plain == 4)  // reads no nested @Shared value
        #expect(plain.recomputations == plainOnce)
    }

    @Test("two levels up, through a computed value or a field path, and across spec files")
    func deeperAndAcrossFiles() {
        let session = Shared(value: Session(userName: "guest"))
        var shell = AppShell(feature: ParentFeature(child: ChildState(session: session)))
        let badge = SessionBadge(child: ChildState(session: session), count: 3)
        #expect(shell.computed.header == "Signed in as guest")
        #expect(shell.computed.initial == "g")
        #expect(badge.computed.badge == "guest (3)")

        session.withLock { $0.userName = "ada" }
        #expect(shell.computed.header == "Signed in as ada")
        #expect(shell.computed.initial == "a")
        #expect(badge.computed.badge == "ada (3)")

        // A nested state handed another reference is written, as any field is.
        shell.feature.child = ChildState(session: Shared(value: Session(userName: "grace")))
        #expect(shell.computed.header == "Signed in as grace")
        session.withLock { $0.userName = "alan" }
        #expect(shell.computed.header == "Signed in as grace")
        #expect(badge.computed.badge == "alan (3)")
    }

    @Test("a copy of the state follows the same reference; a copy's own write does not reach the original")
    func copies() {
        let session = Shared(value: Session(userName: "guest"))
        let original = ParentFeature(child: ChildState(session: session))
        #expect(original.computed.childName == "guest")
        var copy = original
        session.withLock { $0.userName = "ada" }
        #expect(copy.computed.childName == "ada")
        copy.child = ChildState(session: Shared(value: Session(userName: "grace")))
        #expect(copy.computed.childName == "grace")
        #expect(original.computed.childName == "ada")
    }

    @Test("values that read no nested @Shared value keep the plain memo")
    func plainValuesUntouched() {
        // `Library.doubled` nests a state without `@Shared` values: still the plain memo.
        var badge = SessionBadge(child: ChildState(session: Shared(value: Session())), count: 1)
        #expect(badge.computed.plain == 2)
        badge.count = 4
        #expect(badge.computed.plain == 8)
        var library = Library(shelf: Shelf(books: ["a"]))
        #expect(library.computed.doubled == 2)
        library.shelf.books.append("b")
        #expect(library.computed.doubled == 4)
    }

    @Test("in a store: subscribers and observers of the parent's value hear a change made elsewhere")
    func store() {
        let session = Shared(value: Session(userName: "guest"))
        let store = Store(ParentFeature(child: ChildState(session: session)))
        #expect(store.computed.childName == "guest")  // cached before the change
        let names = LockedBox<[String]>([])
        let subscription = store.subscribe { state in names.withLock { $0.append(state.computed.childName) } }
        let notified = LockedBox(0)
        withObservationTracking { _ = store.computed.childName } onChange: { notified.withLock { $0 += 1 } }

        session.withLock { $0.userName = "ada" }
        #expect(names.withLock { $0 } == ["ada"])
        #expect(notified.withLock { $0 } == 1)
        #expect(store.computed.childName == "ada")
        withExtendedLifetime(subscription) {}
    }

    @Test("many threads read while another holder writes: every read after a write sees it")
    func concurrentReads() async {
        let session = Shared(value: Session(userName: "0"))
        let state = ParentFeature(child: ChildState(session: session))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<500 {
                        let before = Int(session.wrappedValue.userName) ?? -1
                        let read = Int(state.computed.childName) ?? -1
                        #expect(read >= before)
                    }
                }
            }
            group.addTask {
                for step in 1...500 {
                    session.withLock { $0.userName = "\(step)" }
                }
            }
        }
        #expect(state.computed.childName == "500")
    }
}
