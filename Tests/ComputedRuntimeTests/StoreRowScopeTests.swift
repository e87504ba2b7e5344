import ConcurrencyTestSupport
import Foundation
import Observation
import Testing

@testable import ComputedRuntime

private struct Message: Identifiable, Equatable, Sendable {
    var id: Int
    var subject = ""
    var isRead = false
}

private struct Mailbox: Equatable, Sendable {
    var messages: IdentifiedList<Message> = IdentifiedList((0..<5).map { Message(id: $0, subject: "m\($0)") })
    var other = 0
}

@Suite("Store: row scopes of an IdentifiedList")
struct StoreRowScopeTests {
    /// Subscribes to each row, collecting the elements each one is told of.
    private func subscribeRows(_ rows: [Store<Message?>]) -> (Collected<[Int: [Message?]]>, [StoreSubscription]) {
        let seen = Collected([Int: [Message?]]())
        let subscriptions = rows.enumerated().map { index, row in
            row.subscribe { message in seen.withLock { $0[index, default: []].append(message) } }
        }
        return (seen, subscriptions)
    }

    @Test("a row reads and commits its element through the store, and is nil while the list holds no such id")
    func readAndCommit() {
        let store = Store(Mailbox())
        let row = store.scope(\.messages, id: 3)
        #expect(row.state?.subject == "m3")
        row.commit { $0?.isRead = true }
        #expect(store.state.messages[id: 3]?.isRead == true)
        store.commit { _ = $0.messages.remove(id: 3) }
        #expect(row.state == nil)
        row.commit { $0 = Message(id: 3, subject: "again") }
        #expect(store.state.messages[id: 3]?.subject == "again")
    }

    @Test("a commit reaches the rows of the elements it changed, and only when the element really changed")
    func onlyChangedRows() {
        let store = Store(Mailbox())
        let rows = (0..<5).map { store.scope(\.messages, id: $0) }
        let (seen, subscriptions) = subscribeRows(rows)
        store.commit { $0.messages[id: 1]?.isRead = true }
        store.commit { $0.other += 1 }                                  // not the list
        store.commit { $0.messages[id: 2]?.subject = "m2" }             // an equal element
        store.commit { $0.messages.move(id: 4, toOffset: 0) }                  // a move
        store.commit { $0.messages.append(Message(id: 9)) }             // an element no row shows
        store.commit { _ = $0.messages.remove(id: 3) }
        #expect(seen.value[0] == nil)
        #expect(seen.value[1] == [Message(id: 1, subject: "m1", isRead: true)])
        #expect(seen.value[2] == nil)
        #expect(seen.value[3] == [nil])
        #expect(seen.value[4] == nil)
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a commit compares the rows of the elements it changed, not every row")
    func costFollowsChanges() {
        let store = Store(Mailbox(messages: IdentifiedList((0..<1_000).map { Message(id: $0) })))
        let rows = (0..<1_000).map { store.scope(\.messages, id: $0) }
        let (seen, subscriptions) = subscribeRows(rows)
        let hub = store.rowScopeHub(for: \.messages)
        #expect(hub.rowCount == 1_000)
        let before = hub.comparedRows
        store.commit { $0.messages[id: 500]?.isRead = true }
        #expect(hub.comparedRows - before == 1)
        store.commit { $0.other += 1 }
        #expect(hub.comparedRows - before == 1)
        #expect(seen.value.count == 1)
        // A list replaced by another value has no record of what changed: every row compares,
        // and only the rows whose element changed are told.
        store.commit { $0.messages = IdentifiedList((0..<1_000).map { Message(id: $0, isRead: $0 == 7) }) }
        #expect(hub.comparedRows - before == 1 + 1_000)
        #expect(Set(seen.value.keys) == [500, 7])
        #expect(store.listenerCountForTests == 1)  // one listener for every row
        withExtendedLifetime(subscriptions) {}
    }

    @Test("rows observed through Observation are told of their own element only, and let go with the row")
    func observation() {
        let store = Store(Mailbox())
        let fired = Collected([Int]())
        do {
            let rows = (0..<3).map { store.scope(\.messages, id: $0) }
            for (index, row) in rows.enumerated() {
                withObservationTracking { _ = row.state } onChange: { fired.withLock { $0.append(index) } }
            }
            #expect(store.listenerCountForTests == 1)
            store.commit { $0.messages[id: 2]?.isRead = true }
            #expect(fired.value == [2])
        }
        #expect(store.listenerCountForTests == 0)
        #expect(!store.isListenedForTests)
        #expect(store.rowScopeHub(for: \.messages).rowCount == 0)
    }

    @Test("a row added while others listen starts from the current element, and commits made meanwhile are not missed")
    func lateRows() async {
        let store = Store(Mailbox())
        let first = store.scope(\.messages, id: 0)
        let (seen, subscriptions) = subscribeRows([first])
        store.commit { $0.messages[id: 1]?.subject = "changed before the row" }
        let late = store.scope(\.messages, id: 1)
        let lateSeen = Collected([Message?]())
        let subscription = late.subscribe(includingCurrent: true) { message in lateSeen.withLock { $0.append(message) } }
        await withTaskGroup(of: Void.self) { group in
            for step in 0..<50 {
                group.addTask { store.commit { $0.messages[id: 1]?.subject = "s\(step)" } }
            }
        }
        #expect(lateSeen.value.first??.subject == "changed before the row")
        #expect(lateSeen.value.last??.subject == store.state.messages[id: 1]?.subject)
        #expect(seen.value.isEmpty)
        withExtendedLifetime((subscriptions, subscription)) {}
    }
}
