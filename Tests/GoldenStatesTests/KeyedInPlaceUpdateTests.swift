@testable import ComputedRuntime
import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Testing

/// Issue 34, item 5, for keyed results: a one-element update of cached ``ListGroups``,
/// ``ListSections`` and ``KeyedTotals`` values edits their slot vector (and the groups' trees) in
/// place when nothing but the memo cell's cached value (the value being replaced) holds them, and
/// copies what a value still held elsewhere shares (a value read before the edit, a copy of the
/// state), which keeps its contents.
@Suite("Generated keyed values: slot vectors and groups' trees edited in place")
struct KeyedInPlaceUpdateTests {
    typealias ArticleTree = _OrderedTree<_ListEntry<Article>>
    typealias MessageTree = _OrderedTree<_ListEntry<Message>>

    final class Weak<Object: AnyObject> {
        weak var object: Object?

        init(_ object: Object?) {
            self.object = object
        }

        /// Whether this still names `other`'s object (both alive, the same).
        func isSame(as other: Weak) -> Bool {
            object != nil && object === other.object
        }
    }

    /// 3,000 articles over 40 feeds, a third of them read, dated out of id order.
    static func articles() -> IdentifiedList<Article> {
        IdentifiedList((0..<3_000).map {
            Article(id: $0, feedID: $0 % 40, title: "a\($0)", date: Date(timeIntervalSince1970: Double(($0 * 7_919) % 3_000)),
                    isRead: $0 % 3 == 0)
        })
    }

    /// The root of the totals' slot vector and the leaf holding `feed`'s total, weakly: the totals
    /// read here are gone when it returns.
    static func totalsNodes(_ state: ReaderState, feed: Int) -> (root: Weak<_SlotVector<_KeyedTotal<Int>>.Node>,
                                                                  leaf: Weak<_SlotVector<_KeyedTotal<Int>>.Node>) {
        let totals = state.computed.unreadByFeed
        let slot = totals._slots.slot(of: feed)!
        return (Weak(totals._totals.root), Weak(totals._totals._leaf(of: slot)))
    }

    /// The root of the groups' slot vector, the leaf holding `slot`'s tree, and that tree's root.
    static func groupNodes<Source: Identifiable, Key, Element>(_ storage: _ListGroupsStorage<Key, Element>, _: Source.Type, slot: Int)
        -> [Weak<AnyObject>] {
        let trees = (storage as! _TreeListGroupsStorage<Source, Key, Element>).trees
        return [Weak(trees.root), Weak(trees._leaf(of: slot)), Weak(trees[slot].root)]
    }

    static func sidebarNodes(_ state: ReaderState, feed: Int) -> [Weak<AnyObject>] {
        let groups = state.computed.sidebar.groups
        return groupNodes(groups._storage, Article.self, slot: groups._storage.slots.slot(of: feed)!)
    }

    static func byFlagNodes(_ state: InboxState, flagged: Bool) -> [Weak<AnyObject>] {
        let groups = state.computed.byFlag
        return groupNodes(groups._storage, Message.self, slot: groups._storage.slots.slot(of: flagged)!)
    }

    static func unreadCounts(_ state: ReaderState) -> [Int: Int] {
        Dictionary(grouping: state.articles.elements.filter { !$0.isRead }, by: \.feedID).mapValues(\.count)
    }

    @Test("count(by:): an edit after a read that kept nothing edits the totals' nodes in place")
    func totalsInPlace() {
        var state = ReaderState(articles: Self.articles())
        // The first edit follows the full evaluation, the others an update.
        for id in [7, 100, 2_000, 2_001, 1_999] {
            let feed = state.articles[id: id]!.feedID
            let before = Self.totalsNodes(state, feed: feed)
            state.articles[id: id]?.isRead.toggle()
            let after = Self.totalsNodes(state, feed: feed)
            #expect(after.root.isSame(as: before.root), "edit of \(id)")
            #expect(after.leaf.isSame(as: before.leaf), "edit of \(id)")
            #expect(state.computed.unreadByFeed.changedKeys == [feed])
        }
        #expect(state.computed.unreadByFeed.dictionary == Self.unreadCounts(state))
    }

    @Test("sections: an edit after a read that kept nothing edits the groups' slot vector and tree in place")
    func sectionsInPlace() {
        var state = ReaderState(articles: Self.articles(), feedNames: Dictionary(uniqueKeysWithValues: (0..<40).map { ($0, "feed \(39 - $0)") }))
        for id in [8, 101, 2_000, 2_002, 1_999] {
            let feed = state.articles[id: id]!.feedID
            let before = Self.sidebarNodes(state, feed: feed)
            state.articles[id: id]?.isRead.toggle()
            let after = Self.sidebarNodes(state, feed: feed)
            for (index, node) in after.enumerated() { #expect(node.isSame(as: before[index]), "edit of \(id), node \(index)") }
            #expect(state.computed.sidebar.changes.changedKeys == [feed])
        }
        let want = ReaderSectionsTests.expectedSidebar(state.articles.elements, state.feedNames)
        #expect(state.computed.sidebar.keys == want.map(\.key))
        #expect(state.computed.sidebar.map { $0.elements.map(\.id) } == want.map(\.ids))
    }

    @Test("groups: an edit after a read that kept nothing edits the slot vector and the group's tree in place")
    func groupsInPlace() {
        var state = InboxState(messages: InboxStateTests.messages(3_000))
        for (id, date) in [(12, 1_500.5), (1_000, 20.5), (2_999, 2_000.5)] {
            let flagged = state.messages[id: id]!.isFlagged
            let before = Self.byFlagNodes(state, flagged: flagged)
            state.messages[id: id]?.date = Date(timeIntervalSince1970: date)
            let after = Self.byFlagNodes(state, flagged: flagged)
            for (index, node) in after.enumerated() { #expect(node.isSame(as: before[index]), "edit of \(id), node \(index)") }
            #expect(state.computed.byFlag.changedKeys == [flagged])
        }
        #expect(state.computed.byFlag[false].map(\.id) == InboxGroupsTests.expectedGroups(state.messages.elements)[false])
    }

    @Test("values read before edits keep their contents; copies that diverge keep their own")
    func heldValuesAndCopiesKeepTheirContents() {
        var generator = SeededGenerator(seed: 34)
        var state = ReaderState(articles: Self.articles(), feedNames: Dictionary(uniqueKeysWithValues: (0..<40).map { ($0, "f\($0 % 7)") }))
        var held: [(totals: KeyedTotals<Int, Int>, counts: [Int: Int], sidebar: ListSections<Int, Article>, ids: [[Int]])] = []
        var copies: [(state: ReaderState, counts: [Int: Int], ids: [[Int]])] = []
        for step in 0..<600 {
            let id = Int.random(in: 0..<3_000, using: &generator)
            switch step % 4 {
            case 0: state.articles[id: id]?.feedID = Int.random(in: 0..<40, using: &generator)
            case 1: state.articles[id: id]?.date = Date(timeIntervalSince1970: .random(in: 0..<3_000, using: &generator))
            default: state.articles[id: id]?.isRead.toggle()
            }
            if step % 50 == 0 {
                let (totals, sidebar) = (state.computed.unreadByFeed, state.computed.sidebar)
                held.append((totals, totals.dictionary, sidebar, sidebar.map { $0.elements.map(\.id) }))
            }
            if step % 100 == 7 {
                var copy = state
                copy.articles[id: id]?.isRead.toggle()
                copies.append((copy, Self.unreadCounts(copy), ReaderSectionsTests.expectedSidebar(copy.articles.elements, copy.feedNames).map(\.ids)))
            }
        }
        #expect(state.computed.unreadByFeed.dictionary == Self.unreadCounts(state))
        #expect(state.computed.sidebar.map { $0.elements.map(\.id) }
            == ReaderSectionsTests.expectedSidebar(state.articles.elements, state.feedNames).map(\.ids))
        for (index, entry) in held.enumerated() {
            #expect(entry.totals.dictionary == entry.counts, "value \(index)")
            #expect(entry.sidebar.map { $0.elements.map(\.id) } == entry.ids, "value \(index)")
        }
        for (index, copy) in copies.enumerated() {
            #expect(copy.state.computed.unreadByFeed.dictionary == copy.counts, "copy \(index)")
            #expect(copy.state.computed.sidebar.map { $0.elements.map(\.id) } == copy.ids, "copy \(index)")
        }
    }

    @Test("a full evaluation with equal totals keeps the cached totals and their changes")
    func equalFullEvaluationKeepsChanges() {
        var reader = ReaderState(articles: Self.articles(), feedNames: [0: "zero"])
        _ = reader.computed.unreadByFeed
        reader.articles[id: 41]?.isRead = true                       // feed 1
        #expect(reader.computed.unreadByFeed.changedKeys == [1])
        let version = ReaderState.Selectors.unreadByFeed.version(reader)
        // The same articles as a new list, in reverse: evaluated in full, which would number the
        // feeds in another order (feed 39 first); the totals are equal, so nothing changes.
        reader.articles = IdentifiedList(Array(reader.articles.reversed()))
        #expect(reader.computed.unreadByFeed.changedKeys == [1])
        #expect(ReaderState.Selectors.unreadByFeed.version(reader) == version)
        // No count changes: the cell keeps its result, and that result's changes are still
        // feed 1's, read in the table of the results after it.
        reader.articles[id: 42]?.title = "retitled"
        #expect(ReaderState.Selectors.unreadByFeed.version(reader) == version)
        #expect(reader.computed.unreadByFeed.changedKeys == [1])
        reader.articles[id: 43]?.isRead = true                       // feed 3
        #expect(reader.computed.unreadByFeed.changedKeys == [3])
        #expect(reader.computed.unreadByFeed.dictionary == Self.unreadCounts(reader))
    }

    @Test("an edit that changes no key keeps each value's version and its changes")
    func cutoffKeepsChanges() {
        var reader = ReaderState(articles: Self.articles(), feedNames: [0: "zero"])
        _ = (reader.computed.unreadByFeed, reader.computed.sidebar)
        reader.articles[id: 41]?.isRead = true                       // feed 1
        #expect(reader.computed.unreadByFeed.changedKeys == [1])
        #expect(reader.computed.sidebar.changes.changedKeys == [1])
        let versions = (ReaderState.Selectors.unreadByFeed.version(reader), ReaderState.Selectors.sidebar.version(reader))
        reader.articles[id: 42]?.title = "retitled"                  // no count, no section
        let (totals, sidebar) = (reader.computed.unreadByFeed, reader.computed.sidebar)
        #expect(ReaderState.Selectors.unreadByFeed.version(reader) == versions.0)
        #expect(ReaderState.Selectors.sidebar.version(reader) == versions.1)
        #expect(totals.changedKeys == [1] && sidebar.changes.changedKeys == [1])
        #expect(totals.dictionary == Self.unreadCounts(reader))
        reader.articles[id: 43]?.isRead = true                       // feed 3: a change again
        #expect(reader.computed.unreadByFeed.changedKeys == [3])
        #expect(ReaderState.Selectors.unreadByFeed.version(reader) != versions.0)
        #expect(reader.computed.unreadByFeed != totals && reader.computed.unreadByFeed[3] == totals[3] - 1)

        var inbox = InboxState(messages: InboxStateTests.messages(300))
        _ = inbox.computed.byFlag
        inbox.messages[id: 10]?.date = Date(timeIntervalSince1970: 1_000)   // flagged
        #expect(inbox.computed.byFlag.changedKeys == [true])
        let version = InboxState.Selectors.byFlag.version(inbox)
        let subject = inbox.messages[id: 10]!.subject
        inbox.messages[id: 10]?.subject = subject                          // an equal value
        #expect(InboxState.Selectors.byFlag.version(inbox) == version)
        #expect(inbox.computed.byFlag.changedKeys == [true])
    }
}

extension _SlotVector {
    /// The leaf holding `slot`'s value.
    func _leaf(of slot: Int) -> Node {
        var node = root
        var shift = self.shift
        while shift > 0 {
            node = node.children[(slot &>> shift) & (Self.width - 1)]
            shift -= Self.bits
        }
        return node
    }
}
