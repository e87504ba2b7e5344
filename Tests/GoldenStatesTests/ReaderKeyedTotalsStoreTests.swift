import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Observation
import Testing

@testable import ComputedRuntime

/// A feed reader's sidebar rows over the generated `ReaderState` (Fixtures/Specs/Reader.statespec):
/// each row shows one feed's unread count through `store.derived(\.computed.unreadByFeed, key:)`;
/// a commit wakes the rows whose count changed, and costs the rows of the feeds it touched.
@Suite("Generated ReaderState: one key's total through the store")
struct ReaderKeyedTotalsStoreTests {
    static func reader(articles: Int, feeds: Int) -> ReaderState {
        var generator = SeededGenerator(seed: 7)
        let list = (0..<articles).map { ReaderSectionsTests.article($0, &generator, feeds: feeds) }
        return ReaderState(articles: IdentifiedList(list))
    }

    @Test("the documented sidebar row (Docs/SpecLanguage.md, WorkingWithStores.md)")
    func documented() {
        let store = Store(ReaderState(articles: [
            Article(id: 1, feedID: 10, title: "Swift 7", date: Date(timeIntervalSince1970: 200)),
            Article(id: 2, feedID: 20, title: "Pasta", date: Date(timeIntervalSince1970: 100)),
            Article(id: 3, feedID: 10, title: "Actors", date: Date(timeIntervalSince1970: 50)),
        ]))
        // One sidebar row per feed, each observing its own count:
        // ForEach(feeds) { feed in FeedRow(unread: store.derived(\.computed.unreadByFeed, key: feed.id)) }
        let swiftBlog = store.derived(\.computed.unreadByFeed, key: 10)   // Derived<Int>
        #expect(swiftBlog.value == 2)
        store.commit { $0.articles[id: 2]?.isRead = true }   // another feed's count: this row is not told
        store.commit { $0.articles[id: 3]?.isRead = true }   // this one's: told, and only its row compared
        #expect(swiftBlog.value == 1)
    }

    @Test("marking an article read wakes its feed's row only, and compares that row only")
    func oneFeedWoken() {
        let store = Store(Self.reader(articles: 500, feeds: 50))
        let rows = (0..<50).map { store.derived(\.computed.unreadByFeed, key: $0) }
        let woken = Collected([Int]())
        for (feed, row) in rows.enumerated() {
            withObservationTracking { _ = row.value } onChange: { woken.withLock { $0.append(feed) } }
        }
        let hub = store.keyedTotalsHub(for: \.computed.unreadByFeed)
        let comparedBefore = hub.comparedRows
        let article = store.state.articles.first { !$0.isRead }!

        store.commit { $0.articles[id: article.id]?.isRead = true }
        #expect(woken.value == [article.feedID])
        #expect(rows[article.feedID].value == store.state.computed.unreadByFeed[article.feedID])
        #expect(hub.comparedRows - comparedBefore == 1)

        // A title edit moves no count: no row is woken, none compares.
        store.commit { $0.articles[id: article.id]?.title = "renamed" }
        store.commit { $0.feedNames[3] = "Three" }
        #expect(woken.value == [article.feedID])
        #expect(hub.comparedRows - comparedBefore == 1)
        withExtendedLifetime(rows) {}
    }

    @Test("subscribers get each new total of their key, and an article moved between feeds tells both")
    func subscribers() {
        let store = Store(Self.reader(articles: 100, feeds: 5))
        let article = store.state.articles.first { !$0.isRead }!
        let from = article.feedID
        let to = (from + 1) % 5
        let before = store.state.computed.unreadByFeed
        let fromRow = store.derived(\.computed.unreadByFeed, key: from)
        let toRow = store.derived(\.computed.unreadByFeed, key: to)
        let received = Collected([String]())
        let subscriptions = [
            fromRow.subscribe { total in received.withLock { $0.append("from \(total)") } },
            toRow.subscribe { total in received.withLock { $0.append("to \(total)") } },
        ]
        store.commit { $0.articles[id: article.id]?.feedID = to }
        #expect(Set(received.value) == ["from \(before[from] - 1)", "to \(before[to] + 1)"])
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a key with no element reads zero, and its row is told when its first element arrives")
    func absentKey() {
        let store = Store(Self.reader(articles: 20, feeds: 3))
        let row = store.derived(\.computed.unreadByFeed, key: 99)
        #expect(row.value == 0)
        let woken = Collected(0)
        withObservationTracking { _ = row.value } onChange: { woken.withLock { $0 += 1 } }
        store.commit {
            $0.articles.append(Article(id: 1_000, feedID: 99, title: "new", date: Date(timeIntervalSince1970: 0)))
        }
        #expect(woken.value == 1)
        #expect(row.value == 1)
    }

    @Test("a replaced list (no change record to follow) makes every row compare, and each is still right")
    func replacedList() {
        let store = Store(Self.reader(articles: 200, feeds: 10))
        let rows = (0..<10).map { store.derived(\.computed.unreadByFeed, key: $0) }
        let hub = store.keyedTotalsHub(for: \.computed.unreadByFeed)
        let comparedBefore = hub.comparedRows
        let replacement = Self.reader(articles: 150, feeds: 10).articles.map { article in
            var article = article
            article.isRead.toggle()
            return article
        }
        store.commit { $0.articles = IdentifiedList(replacement) }
        #expect(hub.comparedRows - comparedBefore == 10)
        let totals = store.state.computed.unreadByFeed
        #expect(rows.enumerated().allSatisfy { $0.element.value == totals[$0.offset] })
    }

    @Test("rows dropped: the hub stops listening, and the store's commits are fast again")
    func lifetime() {
        let store = Store(Self.reader(articles: 50, feeds: 5))
        weak var released: Derived<Int>?
        do {
            let row = store.derived(\.computed.unreadByFeed, key: 1)
            released = row
            #expect(store.listenerCountForTests == 1)
        }
        #expect(released == nil)
        #expect(store.listenerCountForTests == 0)
        #expect(store.keyedTotalsHub(for: \.computed.unreadByFeed).rowCount == 0)
    }

    @Test("rows made while other threads commit end up holding their key's total (run under TSan)")
    func concurrentCommits() async {
        let store = Store(Self.reader(articles: 400, feeds: 8))
        let ids = store.state.articles.map(\.id)
        let early = (0..<8).map { store.derived(\.computed.unreadByFeed, key: $0) }
        let late = await withTaskGroup(of: [Derived<Int>].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for step in 0..<250 {
                        let id = ids[(worker * 97 + step * 13) % ids.count]
                        store.commit { $0.articles[id: id]?.isRead.toggle() }
                    }
                    return []
                }
            }
            group.addTask { (0..<8).map { store.derived(\.computed.unreadByFeed, key: $0) } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let totals = store.state.computed.unreadByFeed
        for feed in 0..<8 {
            #expect(early[feed].value == totals[feed])
            #expect(late[feed].value == totals[feed])
        }
    }

    @Test("10^4 random edits: every row holds its key's total, and is told exactly when it changed", arguments: [3, 4] as [UInt64])
    func randomEdits(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let feeds = 40
        let store = Store(Self.reader(articles: 300, feeds: feeds))
        let rows = (0..<feeds).map { store.derived(\.computed.unreadByFeed, key: $0) }
        let told = Collected([Int](repeating: 0, count: feeds))
        let subscriptions = rows.enumerated().map { feed, row in
            row.subscribe { _ in told.withLock { $0[feed] += 1 } }
        }
        var expectedTold = [Int](repeating: 0, count: feeds)
        var nextID = 10_000
        for step in 0..<10_000 {
            let before = store.state.articles.reduce(into: [Int](repeating: 0, count: feeds)) { counts, article in
                if !article.isRead { counts[article.feedID] += 1 }
            }
            let ids = store.state.articles.map(\.id)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let id = ids.randomElement(using: &generator)!
                store.commit { $0.articles[id: id]?.isRead.toggle() }
            case 5..<7:
                let id = ids.randomElement(using: &generator)!
                let feed = Int.random(in: 0..<feeds, using: &generator)
                store.commit { $0.articles[id: id]?.feedID = feed }
            case 7:
                store.commit { $0.articles.append(ReaderSectionsTests.article(nextID, &generator, feeds: feeds)) }
                nextID += 1
            case 8:
                let id = ids.randomElement(using: &generator)!
                store.commit { _ = $0.articles.remove(id: id) }
            default:
                // A copy edited elsewhere, then put back: the store's value diverged.
                var copy = store.state
                copy.articles[id: ids.randomElement(using: &generator)!]?.isRead.toggle()
                store.commit { $0 = copy }
            }
            let after = store.state.articles.reduce(into: [Int](repeating: 0, count: feeds)) { counts, article in
                if !article.isRead { counts[article.feedID] += 1 }
            }
            for feed in 0..<feeds where before[feed] != after[feed] { expectedTold[feed] += 1 }
            if step % 500 == 0 || step == 9_999 {
                #expect(rows.enumerated().allSatisfy { $0.element.value == after[$0.offset] })
            }
        }
        #expect(told.value == expectedTold)
        withExtendedLifetime(subscriptions) {}
    }
}

extension Store {
    /// Every listener of a root store, internal ones included.
    fileprivate var listenerCountForTests: Int {
        rootStorage!.withLock { $0.listenerCount }
    }
}
