import ComputedRuntime
import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Testing

/// The golden output of `Fixtures/Specs/Inbox.statespec`: computed values declared as `ListView`s
/// follow their `IdentifiedList`'s changes, recompute in full when another input of their body
/// moved, and keep the rules of every computed value (cutoff, independent copies).
///
/// Each test counts in its own scope (`RecomputationCounter.counting`): the incremental counters
/// are process-wide.
@Suite("Generated InboxState: incremental ListView values")
struct InboxStateTests {
    typealias S = InboxState.Selectors

    /// `count` messages, dated by id; every third is read, every fifth flagged.
    static func messages(_ count: Int) -> IdentifiedList<Message> {
        IdentifiedList((0..<count).map(message))
    }

    static func message(_ id: Int) -> Message {
        Message(id: id, subject: "Subject \(id)", date: Date(timeIntervalSince1970: Double(id)),
                read: id % 3 == 0, flagged: id % 5 == 0)
    }

    /// The spec's bodies, evaluated on a plain `Array`.
    struct Expected {
        let messages: [Message]
        let query: String

        var unread: [Message] { messages.filter { !$0.isRead }.sorted { $0.date < $1.date } }
        var latest: [Message] { Array(messages.sorted { $0.date > $1.date }.prefix(10)) }
        var matching: [Message] {
            messages.filter { query.isEmpty || $0.subject.localizedCaseInsensitiveContains(query) }.sorted { $0.date > $1.date }
        }
        var flaggedSubjects: [String] { messages.filter(\.isFlagged).map(\.subject) }
        var lastDated: [Message] { messages.filter { $0.date == messages.last?.date } }

        init(_ state: InboxState) {
            messages = state.messages.elements
            query = state.query
        }
    }

    /// Every view of `state` equals the plain-`Array` evaluation of its body.
    func expectEqualToArrays(_ state: InboxState, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = Expected(state)
        #expect(Array(state.computed.unread) == expected.unread, sourceLocation: sourceLocation)
        #expect(state.computed.unreadCount == expected.unread.count, sourceLocation: sourceLocation)
        #expect(Array(state.computed.latest) == expected.latest, sourceLocation: sourceLocation)
        #expect(Array(state.computed.matching) == expected.matching, sourceLocation: sourceLocation)
        #expect(Array(state.computed.flaggedSubjects) == expected.flaggedSubjects, sourceLocation: sourceLocation)
        #expect(Array(state.computed.lastDated) == expected.lastDated, sourceLocation: sourceLocation)
    }

    @Test("a view whose closure reads its list too is evaluated in full after each change of the list")
    func listReadInAClosure() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: Self.messages(20))
            #expect(state.computed.lastDated.map(\.id) == [19])
            state.messages.append(Message(id: 20, subject: "Same day", date: Date(timeIntervalSince1970: 19)))
            #expect(state.computed.lastDated.map(\.id) == [19, 20])
            // A newer last message: the previous last date's messages leave, though not edited.
            state.messages.append(Message(id: 21, subject: "Later", date: Date(timeIntervalSince1970: 50)))
            #expect(state.computed.lastDated.map(\.id) == [21])
            #expect(counts[IncrementalListCounters.fullRecomputations] == 3)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 0)
            expectEqualToArrays(state)
        }
    }

    @Test("the example of Docs/SpecLanguage.md (compiled here, as the document says)")
    func documentedExample() {
        var mail = InboxState(messages: [
            Message(id: 1, subject: "Lunch?", date: Date(timeIntervalSince1970: 100)),
            Message(id: 2, subject: "Invoice", date: Date(timeIntervalSince1970: 50)),
        ])
        #expect(mail.computed.unread.map(\.id) == [2, 1])        // evaluated in full: the first read
        mail.messages[id: 2]?.isRead = true                     // in place, recorded by the list
        let unread = mail.computed.unread                       // follows one change, O(log n)
        #expect(unread.map(\.id) == [1])
        #expect(unread.changes.removals == [0])                 // for a list view's animation
        #expect(mail.computed.unreadCount == 1)
    }

    @Test("a one-message edit updates the view incrementally, with its changes")
    func oneEditIsIncremental() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: Self.messages(1_000))
            let before = Array(state.computed.unread)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            state.messages[id: 7]?.isRead = true
            let unread = state.computed.unread
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 1)
            #expect(unread.changes.isIncremental)
            #expect(unread.changes.removals == [before.firstIndex { $0.id == 7 }!])
            #expect(unread.changes.insertions.isEmpty)
            #expect(before.applying(unread.changes.difference) == Array(unread))
            expectEqualToArrays(state)
        }
    }

    @Test("insertions and removals are followed too; the top 10 changes only when a newest message arrives")
    func insertAndRemove() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: Self.messages(100))
            let latest = state.computed.latest
            let latestVersion = S.latest.version(state)
            state.messages.insert(Message(id: 1_000, subject: "Old", date: Date(timeIntervalSince1970: -1)), at: 0)
            #expect(S.latest.version(state) == latestVersion)       // not in the top 10: cut off
            state.messages.append(Message(id: 1_001, subject: "New", date: Date(timeIntervalSince1970: 1_000)))
            let newest = state.computed.latest
            #expect(S.latest.version(state) != latestVersion)
            #expect(newest.first?.id == 1_001)
            #expect(newest.changes.insertions == [0])
            #expect(newest.changes.removals == [9])
            #expect(Array(latest).applying(newest.changes.difference) == Array(newest))
            _ = state.messages.remove(id: 1_001)
            #expect(Array(state.computed.latest) == Array(latest))
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 3)
            expectEqualToArrays(state)
        }
    }

    @Test("a new query evaluates the view that reads it in full; a message edit after it is followed")
    func queryChangeIsFull() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: Self.messages(200))
            _ = state.computed.matching
            state.query = "subject 1"
            let matching = state.computed.matching
            #expect(counts[IncrementalListCounters.fullRecomputations] == 2)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 0)
            #expect(!matching.changes.isIncremental)
            #expect(Array(matching) == Expected(state).matching)
            state.messages[id: 15]?.subject = "Nothing"
            #expect(Array(state.computed.matching) == Expected(state).matching)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 2)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 1)
            // The other views do not read the query: a new query leaves them as they were.
            _ = state.computed.unread
            let unreadVersion = S.unread.version(state)
            state.query = "7"
            #expect(S.unread.version(state) == unreadVersion)
            expectEqualToArrays(state)
        }
    }

    @Test("an edit that leaves a view as it was keeps its version: nothing that reads it recomputes")
    func cutoff() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: Self.messages(100))
            _ = state.computed.unreadCount
            let unreadVersion = S.unread.version(state)
            state.messages[id: 3]?.subject = "Read already"             // a read message: not in the view
            let subject = state.messages[id: 4]!.subject
            state.messages[id: 4]?.subject = subject                    // an equal value
            #expect(state.computed.unreadCount == Expected(state).unread.count)
            #expect(S.unread.version(state) == unreadVersion)
            #expect(counts[S.unreadCount] == 1)
            state.messages[id: 4]?.isRead = true
            #expect(state.computed.unreadCount == Expected(state).unread.count)
            #expect(S.unread.version(state) != unreadVersion)
            #expect(counts[S.unreadCount] == 2)
        }
    }

    @Test("copies edited differently each stay correct, with their own changes")
    func divergingCopies() {
        RecomputationCounter.counting { _ in
            var a = InboxState(messages: Self.messages(300))
            let shared = Array(a.computed.unread)
            var b = a
            a.messages[id: 1]?.isRead = true
            b.messages[id: 2]?.isRead = true
            b.messages.append(Message(id: 500, subject: "B only", date: Date(timeIntervalSince1970: 0.5)))
            let unreadA = a.computed.unread
            let unreadB = b.computed.unread
            #expect(Array(unreadA) == Expected(a).unread)
            #expect(Array(unreadB) == Expected(b).unread)
            #expect(shared.applying(unreadA.changes.difference) == Array(unreadA))
            #expect(shared.applying(unreadB.changes.difference) == Array(unreadB))
            for round in 0..<20 {
                a.messages[id: 10 + round]?.isRead.toggle()
                b.messages[id: 40 + round]?.date = Date(timeIntervalSince1970: Double(-round))
                expectEqualToArrays(a)
                expectEqualToArrays(b)
            }
        }
    }

    @Test("random edits of a state and its copies: every read equals the Array evaluation, every change set applies")
    func randomEdits() {
        var generator = SeededGenerator(seed: 28)
        var states = [InboxState(messages: Self.messages(200))]
        var previous = [[Message]](repeating: [], count: 1)
        var previousVersion = [VersionStamp?](repeating: nil, count: 1)
        var nextID = 10_000
        for step in 0..<3_000 {
            let which = Int.random(in: 0..<states.count, using: &generator)
            var state = states[which]
            let ids = state.messages.ids
            switch Int.random(in: 0..<10, using: &generator) {
            case 0:
                state.messages.insert(Self.message(nextID), at: Int.random(in: 0...ids.count, using: &generator))
                nextID += 1
            case 1 where !ids.isEmpty:
                _ = state.messages.remove(id: ids.randomElement(using: &generator)!)
            case 2 where !ids.isEmpty:
                state.messages[id: ids.randomElement(using: &generator)!]?.date = Date(timeIntervalSince1970: .random(in: 0..<300, using: &generator))
            case 3 where !ids.isEmpty:
                state.messages.move(fromOffset: Int.random(in: 0..<ids.count, using: &generator), toOffset: Int.random(in: 0..<ids.count, using: &generator))
            case 4:
                state.query = ["", "1", "2", "subject 1"].randomElement(using: &generator)!
            case 5 where states.count < 4:
                states.append(state)                   // a copy, which diverges from here
                previous.append(previous[which])
                previousVersion.append(previousVersion[which])
            case 6 where Int.random(in: 0..<30, using: &generator) == 0:
                state.messages.replaceAll(with: (0..<Int.random(in: 0..<150, using: &generator)).map(Self.message))
            default:
                if let id = ids.randomElement(using: &generator) { state.messages[id: id]?.isRead.toggle() }
            }
            states[which] = state
            guard Int.random(in: 0..<3, using: &generator) == 0 else { continue }
            let view = state.computed.unread
            let version = S.unread.version(state)
            if version != previousVersion[which] {
                #expect(previous[which].applying(view.changes.difference) == Array(view), "step \(step)")
            } else {
                #expect(Array(view) == previous[which], "step \(step)")
            }
            previous[which] = Array(view)
            previousVersion[which] = version
            expectEqualToArrays(state)
        }
    }

    @Test("a store's observer of a ListView value is notified only when the view's content changed")
    func storeObservation() {
        let store = Store(InboxState(messages: Self.messages(50)))
        let read = { _ = store.computed.unread }
        #expect(!fires(read, after: { store.commit { $0.messages[id: 3]?.subject = "Read already" } }))
        #expect(!fires(read, after: { store.commit { $0.query = "x" } }))
        #expect(!fires(read, after: { store.commit { $0.messages[id: 4]?.subject = "Subject 4" } }))
        #expect(fires(read, after: { store.commit { $0.messages[id: 4]?.isRead = true } }))
        #expect(fires(read, after: { store.commit { $0.messages.append(Self.message(100)) } }))
        #expect(!fires({ _ = store.computed.latest }, after: { store.commit { $0.messages[id: 1]?.isRead = true } }))
        #expect(Array(store.computed.unread) == Expected(store.state).unread)
    }
}
