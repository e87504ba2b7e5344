import ComputedRuntime
import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Testing

/// The golden `TimelineState`'s views of views (Fixtures/Specs/Timeline.statespec): `unread`
/// filters the `timeline` view, `firstUnread` takes a prefix of that one; each follows the changes
/// of the view it is chained from, compared after random edits and diverging copies with the same
/// expressions on plain arrays.
@Suite("Generated TimelineState: views of views")
struct TimelineStateTests {
    /// The timeline on arrays: newest first, ties in list order.
    static func timeline(_ articles: [Article]) -> [Article] {
        articles.enumerated().sorted { lhs, rhs in
            lhs.element.date != rhs.element.date ? lhs.element.date > rhs.element.date : lhs.offset < rhs.offset
        }.map(\.element)
    }

    static func article(_ id: Int, _ generator: inout SeededGenerator) -> Article {
        Article(id: id, feedID: Int.random(in: 0..<10, using: &generator), title: "a\(id)",
                date: Date(timeIntervalSince1970: Double(Int.random(in: 0..<200, using: &generator))),
                isRead: Int.random(in: 0..<3, using: &generator) == 0)
    }

    @Test("10^4 random edits and diverging copies: the views of views equal the arrays', following their views' changes",
          arguments: [1, 2] as [UInt64])
    func randomEdits(seed: UInt64) {
        RecomputationCounter.counting { counts in
            var generator = SeededGenerator(seed: seed)
            var state = TimelineState(articles: IdentifiedList((0..<400).map { Self.article($0, &generator) }))
            var nextID = 400
            var reads = 0
            for step in 0..<10_000 {
                let ids = state.articles.ids
                let id = ids.isEmpty ? 0 : ids[Int.random(in: 0..<ids.count, using: &generator)]
                switch Int.random(in: 0..<100, using: &generator) {
                case ..<35: state.articles[id: id]?.isRead.toggle()
                case ..<50: state.articles[id: id]?.date = Date(timeIntervalSince1970: Double(Int.random(in: 0..<200, using: &generator)))
                case ..<60: state.articles.remove(id: id)
                case ..<72:
                    state.articles.insert(Self.article(nextID, &generator), at: Int.random(in: 0...state.articles.count, using: &generator))
                    nextID += 1
                case ..<74:
                    // Two copies edited differently; either goes on.
                    var copy = state
                    copy.articles[id: id]?.isRead.toggle()
                    state.articles[id: id]?.title = "edited \(step)"
                    _ = copy.computed.firstUnread
                    if Bool.random(using: &generator) { state = copy }
                case ..<80: state.articles[id: id] = state.articles[id: id]   // an equal write
                case ..<90: _ = state.computed.timeline                       // the upstream read alone
                default: state.articles[id: id]?.title = "edited \(step)"
                }
                guard Int.random(in: 0..<4, using: &generator) == 0 else { continue }
                reads += 1
                let unread = Self.timeline(state.articles.elements).filter { !$0.isRead }
                guard Array(state.computed.unread) == unread,
                      Array(state.computed.firstUnread) == Array(unread.prefix(20)) else {
                    Issue.record("seed \(seed), step \(step): a view of a view differs from the arrays'")
                    return
                }
            }
            #expect(reads > 2_000)
            // Followed, not evaluated in full: the full evaluations are the first ones and those
            // after a diverging copy (a few hundred at most, against thousands of reads).
            let full = counts[IncrementalListCounters.fullRecomputations]
            let followed = counts[IncrementalListCounters.incrementalUpdates]
            #expect(followed > 10 * full, "\(followed) followed, \(full) full")
        }
    }

    @Test("Docs/SpecLanguage.md's views of views example")
    func documentedExample() {
        var reader = TimelineState(articles: [
            Article(id: 1, feedID: 10, title: "Swift 7", date: Date(timeIntervalSince1970: 200)),
            Article(id: 2, feedID: 20, title: "Pasta", date: Date(timeIntervalSince1970: 100)),
        ])
        #expect(reader.computed.firstUnread.map(\.id) == [1, 2])    // evaluated in full: the first read
        reader.articles[id: 1]?.isRead = true                        // each view follows one change
        #expect(reader.computed.firstUnread.map(\.id) == [2])
        #expect(reader.computed.firstUnread.changes.removals == [0])
    }

    @Test("an edit is followed through the chain, several edits at once, with the view's changes")
    func editsAreFollowed() {
        RecomputationCounter.counting { counts in
            var state = TimelineState(articles: IdentifiedList((0..<100).map {
                Article(id: $0, feedID: 0, title: "a\($0)", date: Date(timeIntervalSince1970: Double($0)))
            }))
            #expect(state.computed.firstUnread.map(\.id) == Array((80..<100).reversed()))
            let full = counts[IncrementalListCounters.fullRecomputations]
            state.articles[id: 99]?.isRead = true
            #expect(state.computed.firstUnread.map(\.id) == Array((79..<99).reversed()))
            #expect(state.computed.firstUnread.changes.removals == [0])
            #expect(state.computed.firstUnread.changes.insertions == [19])
            // The timeline read alone after each of three edits; the chain read once.
            for id in [98, 97, 96] {
                state.articles[id: id]?.isRead = true
                _ = state.computed.timeline
            }
            #expect(state.computed.firstUnread.map(\.id) == Array((76..<96).reversed()))
            #expect(state.computed.firstUnread.changes.isIncremental)
            #expect(counts[IncrementalListCounters.fullRecomputations] == full)
            // An edit the chain does not see keeps its version.
            let version = TimelineState.Selectors.firstUnread.version(state)
            state.articles[id: 0]?.title = "renamed"
            _ = state.computed.firstUnread
            #expect(TimelineState.Selectors.firstUnread.version(state) == version)
        }
    }
}
