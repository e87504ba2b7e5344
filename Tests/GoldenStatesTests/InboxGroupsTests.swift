import ComputedRuntime
import Foundation
import GoldenStates
import Testing

/// `computed byFlag: ListGroups<Bool, Message> { messages.sorted(by: \.date, descending: true)
/// .grouped(by: \.isFlagged) }` in the golden `InboxState`: groups of a list maintained
/// incrementally, compared after every edit with the same grouping of a plain `Array`.
@Suite("Generated InboxState: ListGroups values")
struct InboxGroupsTests {
    /// The spec's grouping, on an array: each group newest first (the sort is stable).
    static func expectedGroups(_ messages: [Message]) -> [Bool: [Int]] {
        let sorted = messages.enumerated().sorted { lhs, rhs in
            lhs.element.date != rhs.element.date ? lhs.element.date > rhs.element.date : lhs.offset < rhs.offset
        }.map(\.element)
        return Dictionary(grouping: sorted, by: \.isFlagged).mapValues { $0.map(\.id) }
    }

    static func groups(_ state: InboxState) -> [Bool: [Int]] {
        let groups = state.computed.byFlag
        var result: [Bool: [Int]] = [:]
        for key in groups.keys {
            result[key] = groups[key].map(\.id)
            #expect(groups.count(of: key) == result[key]?.count)
        }
        return result
    }

    @Test("random edits: the groups equal the array's grouping after every edit, followed incrementally")
    func randomEdits() {
        RecomputationCounter.counting { counts in
            var generator = SystemRandomNumberGenerator()
            var state = InboxState(messages: InboxStateTests.messages(300))
            #expect(Self.groups(state) == Self.expectedGroups(state.messages.elements))
            let full = counts[IncrementalListCounters.fullRecomputations]
            for step in 0..<2_000 {
                let id = Int.random(in: 0..<400, using: &generator)
                switch step % 4 {
                case 0: state.messages[id: id]?.isFlagged.toggle()
                case 1: state.messages[id: id]?.date = Date(timeIntervalSince1970: Double.random(in: 0..<500, using: &generator))
                case 2: _ = state.messages.remove(id: id)
                default:
                    if !state.messages.contains(id: id) {
                        state.messages.append(InboxStateTests.message(id))
                    }
                }
                if step % 7 == 0 {
                    #expect(Self.groups(state) == Self.expectedGroups(state.messages.elements), "step \(step)")
                }
            }
            #expect(Self.groups(state) == Self.expectedGroups(state.messages.elements))
            // Every read after the first followed the list (the query and the other views'
            // inputs never moved): no full evaluation of the groups.
            #expect(counts[IncrementalListCounters.fullRecomputations] - full == 0)
        }
    }

    @Test("an edit changes the group it touches; an edit of another input is no change of the groups")
    func changedKeysAndCutoff() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: InboxStateTests.messages(50))
            _ = state.computed.byFlag
            let version = InboxState.Selectors.byFlag.version(state)
            state.messages[id: 3]?.isFlagged = true                 // message 3 moves to the flagged group
            #expect(state.computed.byFlag.changedKeys == [false, true])
            state.query = "Subject"                                // not read by the groups
            #expect(InboxState.Selectors.byFlag.version(state) != version)
            let after = InboxState.Selectors.byFlag.version(state)
            let before = counts[InboxState.Selectors.byFlag]
            state.query = "Subject 1"
            _ = state.computed.byFlag
            #expect(counts[InboxState.Selectors.byFlag] == before)
            #expect(InboxState.Selectors.byFlag.version(state) == after)
        }
    }

    @Test("an edit that changes no group's content keeps the groups' version (cutoff), as a view's does")
    func equalWritesCutOff() {
        RecomputationCounter.counting { counts in
            var state = InboxState(messages: InboxStateTests.messages(50))
            let groups = state.computed.byFlag
            let version = InboxState.Selectors.byFlag.version(state)
            // An equal value written to a message, then a message moved in the list (the groups
            // are sorted by date, so no group's order changes).
            state.messages[id: 4] = state.messages[id: 4]
            #expect(InboxState.Selectors.byFlag.version(state) == version)   // the cached value is kept
            state.messages.move(fromOffset: 10, toOffset: 30)
            #expect(InboxState.Selectors.byFlag.version(state) == version)
            #expect(state.computed.byFlag == groups)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)

            // A real change moves it, and names only the group it touched.
            state.messages[id: 4]?.subject = "Edited"   // message 4 is not flagged
            #expect(state.computed.byFlag.changedKeys == [false])
            #expect(InboxState.Selectors.byFlag.version(state) != version)
            #expect(state.computed.byFlag != groups)
            #expect(groups[false].first { $0.id == 4 }?.subject == "Subject 4")   // the old value kept its groups
        }
    }
}
