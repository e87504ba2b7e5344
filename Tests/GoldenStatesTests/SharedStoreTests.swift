import ConcurrencyTestSupport
import Foundation
@testable import GoldenStates
import Observation
import Testing

@testable import ComputedRuntime

/// A store whose state holds `@Shared` fields hears every change of them, whoever makes it
/// (another store, another holder, a write through a snapshot, the storage), with a commit's
/// rules: an equal value notifies nobody, an observer of another member is not told.
///
/// Each test makes its own references (`Shared(value:)`), so that no key is shared with another
/// test running at the same time.
@Suite("Stores follow their states' @Shared fields")
struct SharedStoreTests {
    /// A parent state with references of its own.
    func parentState(user: String = "guest") -> AppState {
        AppState(
            title: "Home",
            session: Shared(value: Session(userName: user)),
            settings: Shared(value: Settings()),
            launchCount: Shared(value: 0)
        )
    }

    /// The user names a store's subscribers received.
    final class Received: @unchecked Sendable {
        let names = LockedBox<[String]>([])
        var value: [String] { names.withLock { $0 } }
        func append(_ name: String) { names.withLock { $0.append(name) } }
    }

    @Test("a commit through a child store that shares the reference reaches the parent's subscribers, once")
    func childStoreCommitReachesParent() {
        let parent = Store(parentState())
        let child = Store(ChildState(session: parent.state.$session))
        let received = Received()
        let subscription = parent.subscribe { received.append($0.session.userName) }

        child.commit { $0.session = Session(userName: "ada") }
        #expect(received.value == ["ada"])
        #expect(parent.state.computed.greeting == "Home, ada")

        child.commit { $0.session = Session(userName: "ada") }  // equal: no write
        #expect(received.value == ["ada"])
        withExtendedLifetime(subscription) {}
    }

    @Test("writes through another holder, withLock and a store's state snapshot each notify once; equal ones nobody")
    func writesAnywhere() {
        let store = Store(parentState())
        let received = Received()
        let subscription = store.subscribe { received.append($0.session.userName) }
        let otherHolder = ChildState(session: store.state.$session)

        otherHolder.session = Session(userName: "ada")
        store.state.$session.withLock { $0.userName = "grace" }
        store.state.session = Session(userName: "alan")  // nonmutating: writes the shared value
        store.state.session = Session(userName: "alan")  // equal
        store.state.$session.withLock { $0.userName = "alan" }  // equal
        #expect(received.value == ["ada", "grace", "alan"])
        withExtendedLifetime(subscription) {}
    }

    @Test("a commit whose mutation writes the shared field is one change, not two, and does not deadlock")
    func writeInsideCommit() {
        let store = Store(parentState())
        let received = Received()
        let subscription = store.subscribe { received.append($0.session.userName) }
        store.commit { state in
            state.session = Session(userName: "ada")
            state.title = "Inbox"
        }
        #expect(received.value == ["ada"])
        store.commit { $0.session = Session(userName: "ada") }  // equal: no change at all
        #expect(received.value == ["ada"])
        withExtendedLifetime(subscription) {}
    }

    @Test("Observation: the observers of the field and of computed values over it are told, others not")
    func observers() {
        let store = Store(parentState())
        let notified = LockedBox<[String]>([])
        let reads: [(String, @Sendable () -> Void)] = [
            ("greeting", { _ = store.computed.greeting }),
            ("headline", { _ = store.computed.headline }),
            ("isLarge", { _ = store.computed.isLarge }),
            ("title", { _ = store.title }),
        ]
        for (name, read) in reads {
            withObservationTracking { read() } onChange: { notified.withLock { $0.append(name) } }
        }
        let otherHolder = ChildState(session: store.state.$session)
        otherHolder.session = Session(userName: "guest")  // equal
        #expect(notified.withLock { $0 }.isEmpty)
        otherHolder.session = Session(userName: "ada")
        #expect(notified.withLock { $0 }.sorted() == ["greeting", "headline"])
    }

    @Test("select, states and derived stores see a change made through another holder")
    func selectAndDerived() async {
        let store = Store(parentState())
        let greeting = store.derived(AppState.Selectors.greeting)
        var values = store.select(AppState.Selectors.greeting).makeAsyncIterator()
        #expect(await values.next() == "Home, guest")

        ChildState(session: store.state.$session).session = Session(userName: "ada")
        #expect(await values.next() == "Home, ada")
        #expect(greeting.value == "Home, ada")
    }

    @Test("a nested state's shared field is followed too")
    func nestedState() {
        let session = Shared(value: Session(userName: "guest"))
        let store = Store(ParentFeature(child: ChildState(session: session)))
        let received = Received()
        let subscription = store.subscribe { received.append($0.computed.childName) }
        session.withLock { $0.userName = "ada" }
        #expect(received.value == ["ada"])
        #expect(store.computed.childName == "ada")
        withExtendedLifetime(subscription) {}
    }

    @Test("a state that now holds another reference is followed by that one, and the old one is let go")
    func replacedReference() {
        let store = Store(parentState())
        let old = store.state.$session
        let received = Received()
        let subscription = store.subscribe { received.append($0.session.userName) }
        let new = Shared(value: Session(userName: "new"))
        store.commit { $0 = AppState(title: "Home", session: new, settings: $0.$settings, launchCount: $0.$launchCount) }
        #expect(received.value == ["new"])

        old.withLock { $0.userName = "old" }
        #expect(received.value == ["new"])
        new.withLock { $0.userName = "ada" }
        #expect(received.value == ["new", "ada"])
        #expect(old.box.subscriberCount == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test("a store nobody listens to does not follow; the last subscriber's cancel stops following")
    func followsOnlyWhileListened() {
        let state = parentState()
        let session = state.$session
        let store = Store(state)  // (reading `store.state` would observe the whole state, until a change)
        #expect(session.box.subscriberCount == 0)
        let subscription = store.subscribe { _ in }
        #expect(session.box.subscriberCount == 1)
        subscription.cancel()
        #expect(session.box.subscriberCount == 0)
        session.withLock { $0.userName = "ada" }  // nobody listens: nothing to do
        #expect(store.state.computed.greeting == "Home, ada")
    }

    @Test("a change of the file behind a .fileStorage field reaches the store's subscribers")
    func fileChange() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SharedStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("settings.json")
        let settings = Shared(wrappedValue: Settings(), .fileStorage(url))
        let store = Store(AppState(title: "Home", session: Shared(value: Session()), settings: settings, launchCount: Shared(value: 0)))
        let sizes = LockedBox<[Double]>([])
        let subscription = store.subscribe { state in sizes.withLock { $0.append(state.settings.fontSize) } }

        try JSONEncoder().encode(Settings(fontSize: 22, theme: "dark")).write(to: url)
        try settings.reload()  // now, rather than within the watcher's latency
        // The watcher may have seen the file first: its thread then delivers the change.
        _ = waitOnThisThread { !sizes.withLock { $0 }.isEmpty }
        #expect(sizes.withLock { $0 } == [22])
        #expect(store.state.computed.isLarge)
        try settings.reload()  // the same content again: no change
        Thread.sleep(forTimeInterval: 0.1)
        #expect(sizes.withLock { $0 } == [22])
        withExtendedLifetime(subscription) {}
    }

    @Test("a scoped store of a state with a shared field hears that field's changes")
    func scopedStore() {
        let session = Shared(value: Session(userName: "guest"))
        let store = Store(ParentFeature(child: ChildState(session: session)))
        let child = store.scope(\.child)
        let received = Received()
        let subscription = child.subscribe { received.append($0.session.userName) }
        session.withLock { $0.userName = "ada" }
        #expect(received.value == ["ada"])
        withExtendedLifetime(subscription) {}
    }

    @Test("writes racing from many threads and commits: every change is published, none twice, no deadlock")
    func concurrentWrites() async {
        let store = Store(parentState())
        let received = Received()
        let subscription = store.subscribe { received.append($0.session.userName) }
        let session = store.state.$session
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for step in 0..<200 {
                        if task.isMultiple(of: 2) {
                            session.withLock { $0.userName = "w\(task)-\(step)" }
                        } else {
                            store.commit { $0.session = Session(userName: "c\(task)-\(step)") }
                        }
                    }
                }
            }
        }
        // The last change published is the final value (a published state reads the shared value
        // when delivered, so earlier deliveries may already show later values).
        #expect(received.value.last == store.state.session.userName)
        #expect(!received.value.isEmpty)
        withExtendedLifetime(subscription) {}
    }
}
