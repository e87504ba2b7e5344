import ComputedRuntime
import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Testing

/// The golden `FeedReaderState`'s joins (Fixtures/Specs/FeedReader.statespec): rows that show each
/// article's feed, a left join, a join of the rows with a dictionary, and the timeline, sections
/// and count over the rows; compared after random edits of both sides and diverging copies with
/// the same expressions on plain arrays, and counted to show that edits are followed.
@Suite("Generated FeedReaderState: joins")
struct FeedReaderStateTests {
    static func article(_ id: Int, feeds: Int, _ generator: inout SeededGenerator) -> Article {
        Article(id: id, feedID: Int.random(in: 0..<(feeds + 2), using: &generator), title: "a\(id)",
                date: Date(timeIntervalSince1970: Double(Int.random(in: 0..<300, using: &generator))),
                isRead: Int.random(in: 0..<3, using: &generator) == 0)
    }

    static func reader(articles: Int, feeds: Int, _ generator: inout SeededGenerator) -> FeedReaderState {
        FeedReaderState(
            articles: IdentifiedList((0..<articles).map { article($0, feeds: feeds, &generator) }),
            feeds: IdentifiedList((0..<feeds).map { Feed(id: $0, name: "feed \($0)", folderID: $0 % 4) }),
            folderNames: [0: "News", 1: "Food", 2: "Tech"])
    }

    /// What every value of the state should hold, from arrays.
    struct Expected {
        var rows: [TimelineRow]
        var allRows: [ArticleRow]
        var filedRows: [FiledRow]
        var namedRows: [FiledRow]
        var unreadRows: [TimelineRow]
        var unreadNames: [ArticleRow]
        var timeline: [TimelineRow]
        var sections: [(key: Int, rows: [TimelineRow])]
        var unread: Int

        init(_ state: FeedReaderState) {
            let feeds = Dictionary(uniqueKeysWithValues: state.feeds.map { ($0.id, $0) })
            rows = state.articles.compactMap { article in feeds[article.feedID].map { TimelineRow(article: article, feed: $0) } }
            allRows = state.articles.map { ArticleRow(article: $0, feedName: feeds[$0.feedID]?.name) }
            filedRows = rows.map { FiledRow(row: $0, folderName: state.folderNames[$0.folderID]) }
            namedRows = rows.compactMap { row in state.folderNames[row.folderID].map { FiledRow(row: row, folderName: $0) } }
            unreadRows = state.articles.compactMap { article in
                article.isRead ? nil : feeds[article.feedID].map { TimelineRow(article: article, feed: $0) }
            }
            unreadNames = state.articles.map { ArticleRow(article: $0, feedName: $0.isRead ? nil : feeds[$0.feedID]?.name) }
            timeline = rows.enumerated().sorted { lhs, rhs in
                lhs.element.date != rhs.element.date ? lhs.element.date > rhs.element.date : lhs.offset < rhs.offset
            }.map(\.element)
            let names = state.folderNames
            let keys = Set(rows.map(\.folderID)).sorted { names[$0, default: ""] != names[$1, default: ""] ? names[$0, default: ""] < names[$1, default: ""] : false }
            let timeline = timeline
            sections = keys.map { key in (key, timeline.filter { $0.folderID == key }) }
            unread = rows.count { !$0.isRead }
        }
    }

    static func failures(_ state: FeedReaderState) -> [String] {
        let want = Expected(state)
        var failures: [String] = []
        if Array(state.computed.rows) != want.rows { failures.append("rows") }
        if Array(state.computed.allRows) != want.allRows { failures.append("allRows") }
        if Array(state.computed.filedRows) != want.filedRows { failures.append("filedRows") }
        if Array(state.computed.namedRows) != want.namedRows { failures.append("namedRows") }
        if Array(state.computed.unreadRows) != want.unreadRows { failures.append("unreadRows") }
        if Array(state.computed.unreadNames) != want.unreadNames { failures.append("unreadNames") }
        if Array(state.computed.timeline) != want.timeline { failures.append("timeline") }
        let sections = state.computed.byFolder
        // Sections whose keys tie on the name may come in either order: compare by key.
        if sections.count != want.sections.count
            || want.sections.contains(where: { Array(sections[key: $0.key]) != $0.rows }) {
            failures.append("byFolder")
        }
        if state.computed.unreadCount != want.unread { failures.append("unreadCount") }
        return failures
    }

    @Test("random edits of articles, feeds and folder names, and diverging copies: every value equals the arrays'",
          arguments: [1, 2] as [UInt64])
    func randomEdits(seed: UInt64) {
        RecomputationCounter.counting { counts in
            var generator = SeededGenerator(seed: seed)
            var state = Self.reader(articles: 300, feeds: 12, &generator)
            var nextID = 300
            var reads = 0
            let steps = TestDepth.size(quick: 3_000, deep: 12_000)
            for step in 0..<steps {
                let ids = state.articles.ids
                let id = ids.isEmpty ? 0 : ids[Int.random(in: 0..<ids.count, using: &generator)]
                let feed = Int.random(in: 0..<14, using: &generator)
                switch Int.random(in: 0..<100, using: &generator) {
                case ..<25: state.articles[id: id]?.isRead.toggle()
                case ..<32: state.articles[id: id]?.feedID = Int.random(in: 0..<14, using: &generator)
                case ..<38: state.articles.remove(id: id)
                case ..<46:
                    state.articles.insert(Self.article(nextID, feeds: 12, &generator),
                                          at: Int.random(in: 0...state.articles.count, using: &generator))
                    nextID += 1
                case ..<62: state.feeds[id: feed]?.name = "feed \(feed) \(step % 7)"
                case ..<66: state.feeds[id: feed]?.folderID = Int.random(in: 0..<4, using: &generator)
                case ..<70: state.feeds.remove(id: feed)
                case ..<74 where state.feeds[id: feed] == nil:
                    state.feeds.append(Feed(id: feed, name: "feed \(feed)", folderID: feed % 4))
                case ..<78: state.folderNames[Int.random(in: 0..<4, using: &generator)] = "folder \(step % 5)"
                case ..<80:
                    // Two copies edited differently; either goes on.
                    var copy = state
                    copy.feeds[id: feed]?.name = "copy \(step)"
                    state.articles[id: id]?.isRead.toggle()
                    if !Self.failures(copy).isEmpty {
                        Issue.record("seed \(seed), step \(step): a diverged copy differs from the arrays'")
                        return
                    }
                    if Bool.random(using: &generator) { state = copy }
                case ..<82: state.feeds.replaceAll(with: Array(state.feeds))
                case ..<86: state.feeds[id: feed] = state.feeds[id: feed]            // an equal write
                case ..<90: _ = state.computed.rows                                   // the rows read alone
                default: state.articles[id: id]?.title = "edited \(step)"
                }
                guard Int.random(in: 0..<3, using: &generator) == 0 else { continue }
                reads += 1
                let failures = Self.failures(state)
                if !failures.isEmpty {
                    Issue.record("seed \(seed), step \(step): \(failures.joined(separator: ", ")) differ from the arrays'")
                    return
                }
            }
            #expect(reads > steps / 4)
            let full = counts[IncrementalListCounters.fullRecomputations]
            let followed = counts[IncrementalListCounters.incrementalUpdates]
            #expect(followed > 5 * full, "\(followed) followed, \(full) full")
        }
    }

    @Test("Docs/SpecLanguage.md's joins example")
    func documentedExample() {
        var reader = FeedReaderState(
            articles: [
                Article(id: 1, feedID: 10, title: "Swift 7", date: Date(timeIntervalSince1970: 200)),
                Article(id: 2, feedID: 20, title: "Pasta", date: Date(timeIntervalSince1970: 100)),
                Article(id: 3, feedID: 30, title: "Orphan", date: Date(timeIntervalSince1970: 50)),
            ],
            feeds: [Feed(id: 10, name: "Swift Blog", folderID: 1), Feed(id: 20, name: "Cooking", folderID: 2)],
            folderNames: [1: "Tech", 2: "Food"])
        #expect(reader.computed.timeline.map(\.feedName) == ["Swift Blog", "Cooking"])   // no feed 30: no row
        reader.feeds[id: 10]?.name = "Swift Weekly"                 // one feed: the rows of its articles
        #expect(reader.computed.timeline.first?.feedName == "Swift Weekly")
        #expect(reader.computed.timeline.changes.updates.count == 1)
        reader.feeds.append(Feed(id: 30, name: "Found", folderID: 1))   // article 3's row arrives
        #expect(reader.computed.byFolder[key: 1].map(\.id) == [1, 3])
        reader.articles[id: 2]?.isRead = true                       // one article: its row
        #expect(reader.computed.unreadCount == 2)
    }

    @Test("renaming a feed updates its articles' rows, and the views follow those rows only")
    func renameIsFollowed() {
        RecomputationCounter.counting { counts in
            var state = FeedReaderState(
                articles: IdentifiedList((0..<1_000).map {
                    Article(id: $0, feedID: $0 % 40, title: "a\($0)", date: Date(timeIntervalSince1970: Double($0)))
                }),
                feeds: IdentifiedList((0..<40).map { Feed(id: $0, name: "feed \($0)", folderID: $0 % 4) }),
                folderNames: [0: "News", 1: "Food", 2: "Tech", 3: "Art"])
            _ = (state.computed.timeline, state.computed.byFolder, state.computed.unreadCount, state.computed.filedRows)
            let full = counts[IncrementalListCounters.fullRecomputations]
            let rowsVersion = state.computed.rows.version

            state.feeds[id: 7]?.name = "Swift Blog"
            #expect(state.computed.timeline.filter { $0.feedName == "Swift Blog" }.count == 25)
            #expect(state.computed.timeline.changes.updates.count == 25)
            #expect(state.computed.rows.changes(since: rowsVersion)?.count == 25)
            #expect(state.computed.filedRows[id: 7]?.row.feedName == "Swift Blog")
            #expect(state.computed.byFolder[key: 3].contains { $0.feedName == "Swift Blog" })
            #expect(counts[IncrementalListCounters.fullRecomputations] == full)

            // Marking one article read: its row, the count, one section.
            state.articles[id: 10]?.isRead = true
            #expect(state.computed.unreadCount == 999)
            #expect(state.computed.rows[id: 10]?.isRead == true)
            #expect(state.computed.byFolder.changes.isEmpty == false)
            #expect(counts[IncrementalListCounters.fullRecomputations] == full)

            // An edit of a feed that leaves its rows as they were: nothing downstream moves.
            let timelineVersion = FeedReaderState.Selectors.timeline.version(state)
            state.feeds[id: 3] = state.feeds[id: 3]
            _ = state.computed.timeline
            #expect(FeedReaderState.Selectors.timeline.version(state) == timelineVersion)
        }
    }

    @Test("a replaced feed list evaluates the rows in full, and the trace says the joined side's changes were unknown")
    func replacedFeedsAreExplained() {
        var state = FeedReaderState(
            articles: [Article(id: 1, feedID: 1, title: "a", date: Date(timeIntervalSince1970: 1))],
            feeds: [Feed(id: 1, name: "One", folderID: 0)])
        _ = state.computed.rows
        let trace = ChangeTrace.record { _ in
            state.feeds = [Feed(id: 1, name: "Uno", folderID: 0)]
            _ = state.computed.rows
            state.articles[id: 1]?.isRead = true
            _ = state.computed.rows
        }
        #expect(state.computed.rows.first?.feedName == "Uno")
        let rows = trace.recomputations(of: \FeedReaderState.computed.rows)
        #expect(rows.map(\.evaluation) == [.full(.joinedChangesUnavailable), .followed])
        #expect(trace.log.contains("evaluated in full: the joined side's changes were unknown"), "\(trace.log)")
    }

    /// Copies of one state share its cells and pipelines until they diverge: four threads each
    /// edit and read their own copy at once (under ThreadSanitizer in CI), and each copy's rows,
    /// views and counts stay those of its own lists.
    @Test("copies of a state edited and read on four threads at once each stay right")
    func copiesOnThreads() async {
        var generator = SeededGenerator(seed: 9)
        let shared = Self.reader(articles: 400, feeds: 20, &generator)
        _ = (shared.computed.timeline, shared.computed.byFolder, shared.computed.unreadCount)
        let failures = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var state = shared
                    var failures: [String] = []
                    for step in 0..<150 {
                        if step % 2 == 0 {
                            state.feeds[id: (worker * 5 + step) % 20]?.name = "w\(worker) s\(step)"
                        } else {
                            state.articles[id: (worker * 97 + step * 13) % 400]?.isRead.toggle()
                        }
                        if step % 5 == 0 { failures += Self.failures(state).map { "worker \(worker), step \(step): \($0)" } }
                    }
                    return failures
                }
            }
            var all: [String] = []
            for await failures in group { all += failures }
            return all
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(Self.failures(shared).isEmpty)
    }

    @Test("the selected feed is a lookup by id: cut off when the feed is as it was")
    func lookupIsCutOff() {
        var state = FeedReaderState(feeds: [Feed(id: 1, name: "One", folderID: 0), Feed(id: 2, name: "Two", folderID: 0)],
                                    selectedFeedID: 1)
        #expect(state.computed.selectedFeed?.name == "One")
        let version = FeedReaderState.Selectors.selectedFeed.version(state)
        state.feeds[id: 2]?.name = "Deux"
        _ = state.computed.selectedFeed
        #expect(FeedReaderState.Selectors.selectedFeed.version(state) == version)
        state.feeds[id: 1]?.name = "Un"
        #expect(state.computed.selectedFeed?.name == "Un")
    }
}
