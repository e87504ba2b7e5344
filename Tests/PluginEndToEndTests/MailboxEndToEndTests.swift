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

    @Test("a view of a view follows its view's changes; another input of its body evaluates it in full")
    func viewOfAView() {
        RecomputationCounter.counting { counts in
            var box = Mailbox(mails: Self.mails(500), sender: "ann")
            #expect(box.computed.inboxFromSender.map(\.id) == [0, 2, 4])
            #expect(counts[IncrementalListCounters.fullRecomputations] == 2)      // the inbox, then its view
            box.mails[id: 2]?.isArchived = true
            #expect(box.computed.inboxFromSender.map(\.id) == [0, 4, 6])
            #expect(box.computed.inboxFromSender.changes.removals == [1] && box.computed.inboxFromSender.changes.insertions == [2])
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 2)      // both followed one change
            #expect(counts[IncrementalListCounters.fullRecomputations] == 2)
            box.sender = "bob"
            #expect(box.computed.inboxFromSender.map(\.id) == [1, 3, 5])
            #expect(counts[IncrementalListCounters.fullRecomputations] == 3)
        }
    }

    @Test("sections by sender follow the list, a renamed sender sorts them again, counts per sender follow the list")
    func sectionsAndCounts() {
        RecomputationCounter.counting { counts in
            var box = Mailbox(mails: Self.mails(100), senderNames: ["ann": "Zoe", "bob": "Adam"])
            #expect(box.computed.bySender.keys == ["bob", "ann"])
            #expect(box.computed.inboxBySender.dictionary == ["ann": 50, "bob": 50])
            let full = counts[IncrementalListCounters.fullRecomputations]
            box.mails[id: 3]?.isArchived = true
            box.mails.append(Mail(id: 500, sender: "cy", subject: "hi", received: Date(timeIntervalSince1970: 500)))
            let sections = box.computed.bySender
            #expect(sections.keys == ["bob", "ann", "cy"])
            #expect(sections.changes.insertions == [2] && sections.changes.changedKeys == ["bob", "cy"])
            #expect(sections[0].elements.map(\.id) == box.mails.elements.filter { $0.sender == "bob" && !$0.isArchived }.map(\.id))
            #expect(box.computed.inboxBySender["bob"] == 49 && box.computed.inboxBySender.changedKeys == ["bob", "cy"])
            box.senderNames["cy"] = "Aaron"
            #expect(box.computed.bySender.keys == ["cy", "bob", "ann"])
            #expect(box.computed.bySender.changes.moves == [.init(from: 2, to: 0)])
            #expect(counts[IncrementalListCounters.fullRecomputations] == full)
        }
    }
}
