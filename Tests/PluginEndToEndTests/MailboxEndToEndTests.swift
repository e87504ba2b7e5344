import ComputedRuntime
import Foundation
import Testing

/// `Mailbox.statespec` through the plugin: its `ListView` values follow the list's changes.
@Suite("Plugin-generated ListView values")
struct MailboxEndToEndTests {
    static func mails(_ count: Int) -> IdentifiedList<Mail> {
        IdentifiedList((0..<count).map { id in
            Mail(id: id, sender: id % 2 == 0 ? "ann" : "bob", subject: "#\(id)", received: Date(timeIntervalSince1970: Double(id)))
        })
    }

    @Test("an edit is followed, a new sender is evaluated in full, and both equal the Array evaluation")
    func followsTheList() {
        RecomputationCounter.counting { counts in
            var box = Mailbox(mails: Self.mails(500), sender: "ann")
            #expect(box.computed.inboxCount == 500)
            #expect(Array(box.computed.fromSender) == ["#498", "#496", "#494"])
            box.mails[id: 10]?.isArchived = true
            box.mails.append(Mail(id: 900, sender: "ann", subject: "new", received: Date(timeIntervalSince1970: 900)))
            #expect(box.computed.inboxCount == 500)
            #expect(Array(box.computed.fromSender) == ["new", "#498", "#496"])
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 2)
            box.sender = "bob"
            #expect(Array(box.computed.fromSender) == ["#499", "#497", "#495"])
            #expect(counts[IncrementalListCounters.fullRecomputations] == 3)
            let expected = box.mails.elements.filter { !$0.isArchived }.sorted { $0.received < $1.received }
            #expect(Array(box.computed.inbox) == expected)
        }
    }
}
