import ComputedRuntime
import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Testing

/// The folds of `Fixtures/Specs/Inbox.statespec` (`unreadTotal`, `flaggedCount`,
/// `unreadSubjectLength`, `matchingCount`): computed values whose body counts or sums an
/// `IdentifiedList` field follow its changes in O(changes), without the sorted views, evaluate in
/// full when another input of the body moved, and keep the rules of every computed value.
@Suite("Generated InboxState: incremental folds")
struct InboxFoldTests {
    typealias S = InboxState.Selectors

    /// The spec's fold bodies, evaluated on a plain `Array`.
    struct Expected: Equatable, CustomStringConvertible {
        var unreadTotal: Int
        var flaggedCount: Int
        var unreadSubjectLength: Int
        var matchingCount: Int

        init(_ state: InboxState) {
            let messages = state.messages.elements
            let query = state.query
            unreadTotal = messages.count(where: { !$0.isRead })
            flaggedCount = messages.filter(\.isFlagged).count
            unreadSubjectLength = messages.filter { !$0.isRead }.reduce(0) { $0 + $1.subject.count }
            matchingCount = messages.count { query.isEmpty || $0.subject.localizedCaseInsensitiveContains(query) }
        }

        init(reading state: InboxState) {
            unreadTotal = state.computed.unreadTotal
            flaggedCount = state.computed.flaggedCount
            unreadSubjectLength = state.computed.unreadSubjectLength
            matchingCount = state.computed.matchingCount
        }

        var description: String { "(\(unreadTotal), \(flaggedCount), \(unreadSubjectLength), \(matchingCount))" }
    }

    @Test("a one-message edit updates the count by following the change, without the sorted view")
    func oneEditIsIncremental() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: InboxStateTests.messages(1_000))
            #expect(state.computed.unreadTotal == 666)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            state.messages[id: 7]?.isRead = true
            #expect(state.computed.unreadTotal == 665)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 1)
            #expect(counts[S.unreadTotal] == 2)
            #expect(counts[S.unread] == 0)                      // the view was never brought up to date
            state.messages.append(InboxStateTests.message(1_001))
            _ = state.messages.remove(id: 8)
            #expect(state.computed.unreadTotal == 665)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 2)
            #expect(Expected(reading: state) == Expected(state))
        }
    }

    @Test("a new query counts the fold that reads it in full; a message edit after it is followed")
    func queryChangeIsFull() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: InboxStateTests.messages(200))
            _ = state.computed.matchingCount
            _ = state.computed.unreadTotal
            state.query = "subject 1"
            #expect(state.computed.matchingCount == Expected(state).matchingCount)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 3)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 0)
            // The other folds do not read the query: nothing to do.
            #expect(state.computed.unreadTotal == Expected(state).unreadTotal)
            #expect(counts[S.unreadTotal] == 1)
            state.messages[id: 15]?.subject = "Nothing"
            #expect(state.computed.matchingCount == Expected(state).matchingCount)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 3)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 1)
        }
    }

    @Test("an edit that leaves a count as it was keeps its version (cutoff)")
    func cutoff() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: InboxStateTests.messages(100))
            _ = state.computed.unreadTotal
            let version = S.unreadTotal.version(state)
            state.messages[id: 3]?.subject = "Read already"
            #expect(state.computed.unreadTotal == Expected(state).unreadTotal)
            #expect(S.unreadTotal.version(state) == version)
            #expect(counts[S.unreadTotal] == 2)
            state.messages[id: 4]?.isRead = true
            #expect(state.computed.unreadTotal == Expected(state).unreadTotal)
            #expect(S.unreadTotal.version(state) != version)
        }
    }

    @Test("copies edited differently each count their own list")
    func divergingCopies() {
        RecomputationCounter.counting { _ in
            var a = InboxState(messages: InboxStateTests.messages(300))
            _ = Expected(reading: a)
            var b = a
            a.messages[id: 1]?.isRead = true
            b.messages[id: 2]?.isRead = true
            b.messages.append(InboxStateTests.message(500))
            #expect(Expected(reading: a) == Expected(a))
            #expect(Expected(reading: b) == Expected(b))
            for round in 0..<20 {
                a.messages[id: 10 + round]?.isRead.toggle()
                b.messages[id: 40 + round]?.isFlagged.toggle()
                #expect(Expected(reading: a) == Expected(a))
                #expect(Expected(reading: b) == Expected(b))
            }
        }
    }

    @Test("random edits of a state and its copies: every fold equals the Array evaluation, mostly by following changes")
    func randomEdits() {
        RecomputationCounter.counting { counts in
            var generator = SeededGenerator(seed: 2_828)
            var states = [InboxState(messages: InboxStateTests.messages(300))]
            var nextID = 10_000
            var reads = 0
            for step in 0..<10_000 {
                let which = Int.random(in: 0..<states.count, using: &generator)
                var state = states[which]
                let ids = state.messages.ids
                let id = ids.randomElement(using: &generator)
                switch Int.random(in: 0..<12, using: &generator) {
                case 0:
                    state.messages.insert(InboxStateTests.message(nextID), at: Int.random(in: 0...ids.count, using: &generator))
                    nextID += 1
                case 1 where id != nil:
                    _ = state.messages.remove(id: id!)
                case 2 where id != nil:
                    state.messages[id: id!]?.subject = ["", "Subject 1", "x", "Re: subject 12"].randomElement(using: &generator)!
                case 3 where !ids.isEmpty:
                    state.messages.move(fromOffset: Int.random(in: 0..<ids.count, using: &generator),
                                        toOffset: Int.random(in: 0..<ids.count, using: &generator))
                case 4 where Int.random(in: 0..<4, using: &generator) == 0:
                    state.query = ["", "1", "2", "subject 1"].randomElement(using: &generator)!
                case 5 where states.count < 4:
                    states.append(state)                   // a copy, which diverges from here
                case 6 where Int.random(in: 0..<40, using: &generator) == 0:
                    state.messages.replaceAll(with: (0..<Int.random(in: 0..<200, using: &generator)).map(InboxStateTests.message))
                case 7 where id != nil:
                    state.messages[id: id!]?.isFlagged.toggle()
                case 8 where id != nil:
                    let message = state.messages[id: id!]!
                    state.messages[id: id!] = message      // an equal value
                default:
                    if let id { state.messages[id: id]?.isRead.toggle() }
                }
                states[which] = state
                guard Int.random(in: 0..<3, using: &generator) == 0 else { continue }
                reads += 1
                #expect(Expected(reading: state) == Expected(state), "step \(step)")
            }
            #expect(reads > 3_000)
            // Most reads followed the changes: full evaluations are the first reads, new queries,
            // replaced lists and diverging copies.
            #expect(counts[IncrementalListCounters.incrementalUpdates] > 4 * counts[IncrementalListCounters.fullRecomputations])
        }
    }

    @Test("a store's observer of a fold is notified only when the count changed")
    func storeObservation() {
        let store = Store(InboxState(messages: InboxStateTests.messages(50)))
        let read = { _ = store.computed.unreadTotal }
        #expect(!fires(read, after: { store.commit { $0.messages[id: 3]?.subject = "Read already" } }))
        #expect(!fires(read, after: { store.commit { $0.query = "x" } }))
        #expect(fires(read, after: { store.commit { $0.messages[id: 4]?.isRead = true } }))
        #expect(fires(read, after: { store.commit { $0.messages.append(InboxStateTests.message(100)) } }))
        #expect(store.computed.unreadTotal == Expected(store.state).unreadTotal)
    }
}
