import ComputedRuntime
import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Testing

/// The golden `ReaderState` (Fixtures/Specs/Reader.statespec): a sidebar of sections, one per
/// feed ordered by a name table in another field, and unread counts per feed, compared after
/// random edits, renames and diverging copies with the same expressions on plain arrays.
@Suite("Generated ReaderState: sections in order and counts per key")
struct ReaderSectionsTests {
    static func article(_ id: Int, _ generator: inout SeededGenerator, feeds: Int) -> Article {
        Article(id: id, feedID: Int.random(in: 0..<feeds, using: &generator), title: "a\(id)",
                date: Date(timeIntervalSince1970: Double(Int.random(in: 0..<200, using: &generator))),
                isRead: Int.random(in: 0..<3, using: &generator) == 0)
    }

    /// The spec's sidebar, on arrays: unread articles newest first (stable), grouped by feed,
    /// feeds by name and then by id.
    static func expectedSidebar(_ articles: [Article], _ names: [Int: String]) -> [(key: Int, ids: [Int])] {
        let unread = articles.enumerated().filter { !$0.element.isRead }.sorted { lhs, rhs in
            lhs.element.date != rhs.element.date ? lhs.element.date > rhs.element.date : lhs.offset < rhs.offset
        }.map(\.element)
        let groups = Dictionary(grouping: unread, by: \.feedID)
        let keys = groups.keys.sorted { (names[$0, default: ""], $0) < (names[$1, default: ""], $1) }
        return keys.map { ($0, groups[$0]!.map(\.id)) }
    }

    static func sidebar(_ state: ReaderState) -> [(key: Int, ids: [Int])] {
        state.computed.sidebar.map { ($0.key, $0.elements.map(\.id)) }
    }

    static func same(_ lhs: [(key: Int, ids: [Int])], _ rhs: [(key: Int, ids: [Int])]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.key == $1.key && $0.ids == $1.ids }
    }

    @Test("10^4 random edits, renames and diverging copies: the sidebar and the counts equal the arrays'", arguments: [1, 2] as [UInt64])
    func randomEdits(seed: UInt64) {
        RecomputationCounter.counting { counts in
            var generator = SeededGenerator(seed: seed)
            let feeds = 40
            var state = ReaderState(articles: IdentifiedList((0..<400).map { Self.article($0, &generator, feeds: feeds) }),
                                    feedNames: Dictionary(uniqueKeysWithValues: (0..<feeds).map { ($0, "feed \($0 % 13)") }))
            var nextID = 400
            var renames = 0
            var fullAtRenames = 0
            for step in 0..<10_000 {
                let ids = state.articles.ids
                let id = ids.isEmpty ? 0 : ids[Int.random(in: 0..<ids.count, using: &generator)]
                switch Int.random(in: 0..<100, using: &generator) {
                case ..<30: state.articles[id: id]?.isRead.toggle()
                case ..<40: state.articles[id: id]?.feedID = Int.random(in: 0..<feeds, using: &generator)
                case ..<50: state.articles[id: id]?.date = Date(timeIntervalSince1970: Double(Int.random(in: 0..<200, using: &generator)))
                case ..<62: state.articles.remove(id: id)
                case ..<75:
                    state.articles.append(Self.article(nextID, &generator, feeds: feeds))
                    nextID += 1
                case ..<85:
                    // A renamed feed: the sections are sorted again, the groups followed.
                    _ = state.computed.sidebar
                    let full = counts[IncrementalListCounters.fullRecomputations]
                    state.feedNames[Int.random(in: 0..<feeds, using: &generator)] = "feed \(Int.random(in: 0..<13, using: &generator))"
                    _ = state.computed.sidebar
                    fullAtRenames += counts[IncrementalListCounters.fullRecomputations] - full
                    renames += 1
                case ..<87:
                    // Two copies edited differently; either goes on.
                    var copy = state
                    copy.articles[id: id]?.isRead.toggle()
                    state.feedNames[id % feeds] = "renamed \(step)"
                    _ = copy.computed.sidebar
                    if Bool.random(using: &generator) { state = copy }
                default:
                    state.articles[id: id]?.title = "edited \(step)"
                }
                if step % 5 == 0 {
                    let want = Self.expectedSidebar(state.articles.elements, state.feedNames)
                    let sidebar = state.computed.sidebar
                    guard Self.same(Self.sidebar(state), want) else {
                        Issue.record("seed \(seed), step \(step): the sidebar differs from the arrays'")
                        return
                    }
                    let unread = state.articles.elements.filter { !$0.isRead }
                    let counts = Dictionary(grouping: unread, by: \.feedID).mapValues(\.count)
                    #expect(state.computed.unreadByFeed.dictionary == counts, "seed \(seed), step \(step)")
                    #expect(state.computed.unreadTotal == unread.count)
                    for section in sidebar where section.count != state.computed.unreadByFeed[section.key] {
                        Issue.record("seed \(seed), step \(step): section \(section.key) counts \(section.count)")
                    }
                }
            }
            #expect(renames > 500)
            // A rename never evaluated the groups in full: only the order was sorted again.
            #expect(fullAtRenames == 0)
        }
    }

    @Test("a rename sorts the sections again and reports the move; an edit reports the section it touches")
    func renameMovesSections() {
        RecomputationCounter.counting { counts in
            var state = ReaderState(
                articles: IdentifiedList((0..<30).map { Article(id: $0, feedID: $0 % 3, title: "a\($0)", date: Date(timeIntervalSince1970: Double($0))) }),
                feedNames: [0: "Apple", 1: "Banana", 2: "Cherry"])
            #expect(state.computed.sidebar.keys == [0, 1, 2])
            #expect(state.computed.unreadByFeed[1] == 10 && state.computed.unreadTotal == 30)   // first reads, in full
            let full = counts[IncrementalListCounters.fullRecomputations]
            state.feedNames[0] = "Zebra"
            let sidebar = state.computed.sidebar
            #expect(sidebar.keys == [1, 2, 0])
            #expect(sidebar.changes.moves == [.init(from: 0, to: 2)])
            #expect(sidebar.changes.changedKeys.isEmpty)
            #expect(counts[IncrementalListCounters.fullRecomputations] == full)

            // A rename that keeps the order is no change: the sidebar keeps its version.
            let version = ReaderState.Selectors.sidebar.version(state)
            state.feedNames[0] = "Zulu"
            _ = state.computed.sidebar
            #expect(ReaderState.Selectors.sidebar.version(state) == version)

            // Marking every article of feed 1 read removes its section; the count per key says so.
            for id in stride(from: 1, to: 30, by: 3) { state.articles[id: id]?.isRead = true }
            #expect(state.computed.sidebar.keys == [2, 0])
            #expect(state.computed.sidebar.changes.removals == [0])
            #expect(state.computed.unreadByFeed[1] == 0 && state.computed.unreadByFeed[2] == 10)
            #expect(state.computed.unreadTotal == 20)
            #expect(counts[IncrementalListCounters.fullRecomputations] == full)

            // An equal write changes nothing.
            let kept = ReaderState.Selectors.sidebar.version(state)
            state.articles[id: 2] = state.articles[id: 2]
            _ = state.computed.sidebar
            #expect(ReaderState.Selectors.sidebar.version(state) == kept)
        }
    }

    @Test("count(by:): exact changed keys, and a write that changes no count keeps the totals' version")
    func countsPerFeed() {
        var state = ReaderState(
            articles: IdentifiedList((0..<12).map { Article(id: $0, feedID: $0 % 4, title: "a", date: Date(timeIntervalSince1970: 0)) }))
        #expect(state.computed.unreadByFeed.dictionary == [0: 3, 1: 3, 2: 3, 3: 3])
        state.articles[id: 5]?.isRead = true
        #expect(state.computed.unreadByFeed.changedKeys == [1])
        #expect(state.computed.unreadByFeed[1] == 2)
        let version = ReaderState.Selectors.unreadByFeed.version(state)
        state.articles[id: 6]?.title = "retitled"
        _ = state.computed.unreadByFeed
        #expect(ReaderState.Selectors.unreadByFeed.version(state) == version)
    }

    @Test("Docs/SpecLanguage.md's sidebar example")
    func documentedSidebar() {
        var reader = ReaderState(
            articles: [
                Article(id: 1, feedID: 10, title: "Swift 7", date: Date(timeIntervalSince1970: 200)),
                Article(id: 2, feedID: 20, title: "Pasta", date: Date(timeIntervalSince1970: 100)),
                Article(id: 3, feedID: 10, title: "Actors", date: Date(timeIntervalSince1970: 50)),
            ],
            feedNames: [10: "Swift Blog", 20: "Cooking"])
        // In SwiftUI: ForEach(sidebar) { section in Section(name) { ForEach(section.elements) { … } } }
        for section in reader.computed.sidebar {
            print(reader.feedNames[section.key, default: ""], section.count, section.elements.map(\.title))
        }
        #expect(reader.computed.sidebar.keys == [20, 10])               // Cooking, then Swift Blog
        #expect(reader.computed.unreadByFeed[10] == 2)                  // a dictionary lookup

        reader.articles[id: 3]?.isRead = true                          // one section, one count: O(log n)
        #expect(reader.computed.sidebar.changes.changedKeys == [10])
        #expect(reader.computed.unreadByFeed.changedKeys == [10])
        #expect(reader.computed.unreadTotal == 2)

        reader.feedNames[20] = "Weekend"                               // the keys are sorted again
        #expect(reader.computed.sidebar.keys == [10, 20])
        #expect(reader.computed.sidebar.changes.moves == [.init(from: 1, to: 0)])  // Swift Blog, to the top
    }
}
