import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Observation
import Testing

@testable import ComputedRuntime

/// A mail client's rows over the generated `InboxState` (Fixtures/Specs/Inbox.statespec): each row
/// observes its message through `store.scope(\.messages, id:)`, beside views of the derived
/// values; a commit re-renders the rows of the messages it changed and the views whose values
/// changed, nothing else.
@Suite("Generated InboxState: row scopes")
struct InboxRowScopeTests {
    @Test("a toggled message re-renders its row and the unread count, not the other rows")
    func rowsAndDerivedValues() {
        let store = Store(InboxState(messages: InboxStateTests.messages(200)))
        let rows = (0..<200).map { store.scope(\.messages, id: $0) }
        let rendered = Collected([Int]())
        for (id, row) in rows.enumerated() {
            withObservationTracking { _ = row.state?.isRead } onChange: { rendered.withLock { $0.append(id) } }
        }
        let countChanged = Collected(0)
        withObservationTracking { _ = store.computed.unreadTotal } onChange: { countChanged.withLock { $0 += 1 } }
        let unreadBefore = store.state.computed.unreadTotal
        let hub = store.rowScopeHub(for: \.messages)
        let comparedBefore = hub.comparedRows

        store.commit { $0.messages[id: 7]?.isRead.toggle() }
        #expect(rendered.value == [7])
        #expect(countChanged.value == 1)
        #expect(store.state.computed.unreadTotal == unreadBefore + (InboxStateTests.message(7).isRead ? 1 : -1))

        // Another field: no row, and the count is untouched.
        store.commit { $0.query = "Subject 1" }
        #expect(rendered.value == [7])
        // One row compared its message, for both commits together.
        #expect(hub.comparedRows - comparedBefore == 1)
        withExtendedLifetime(rows) {}
    }
}
