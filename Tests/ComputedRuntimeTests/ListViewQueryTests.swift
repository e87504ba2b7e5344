import Testing

@testable import ComputedRuntime

/// Queries chained from another query's view: followed through the view's changes, evaluated in
/// full (counted, with the reason) when those changes are not known.
@Suite("Views of views")
struct ListViewQueryTests {
    /// One place builds each query, as a generated body does.
    static func timeline(_ list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> { list.sorted(by: \.date) }
    static func unread(_ view: ListView<Mail>) -> ListViewQuery<Mail, Mail> { view.filter { !$0.isRead } }
    static func top(_ view: ListView<Mail>) -> PrefixListViewQuery<Mail, Mail> { view.prefix(3) }

    static func mails() -> IdentifiedList<Mail> {
        IdentifiedList((0..<1_000).map { Mail(id: $0, date: ($0 * 37) % 101, isRead: $0 % 3 == 0) })
    }

    @Test("a filter of a view follows the view's changes, several updates at once")
    func followsTheView() {
        var list = Self.mails()
        var upstream = IncrementalPipeline<ListQuery<Mail, Mail>>()
        var downstream = IncrementalPipeline<ListViewQuery<Mail, Mail>>()
        var timeline = upstream.update(with: Self.timeline(list))
        var unread = downstream.update(with: Self.unread(timeline))
        #expect(downstream.lastEvaluation == .full(.first))
        #expect(Array(unread) == list.elements.sorted { $0.date < $1.date }.filter { !$0.isRead })

        list[id: 1]?.isRead = true
        timeline = upstream.update(with: Self.timeline(list))
        unread = downstream.update(with: Self.unread(timeline))
        #expect(downstream.lastEvaluation == .followed)
        #expect(unread.changes.removals.count == 1 && unread.changes.insertions.isEmpty)

        // Three updates of the view, read once downstream.
        for id in [2, 4, 5] {
            list[id: id]?.date = 200 + id
            timeline = upstream.update(with: Self.timeline(list))
        }
        list.remove(id: 7)
        list.append(Mail(id: 5_000, date: 0))
        timeline = upstream.update(with: Self.timeline(list))
        let before = Array(unread)
        unread = downstream.update(with: Self.unread(timeline))
        #expect(downstream.lastUpdateWasIncremental)
        #expect(Array(unread) == list.elements.sorted { $0.date < $1.date }.filter { !$0.isRead })
        #expect(before.applying(unread.changes.difference) == Array(unread))
        #expect(downstream.fullRecomputations == 1 && downstream.incrementalUpdates == 2)
    }

    @Test("a prefix of a view, and a chain of three views, follow")
    func prefixAndDeeperChains() {
        var list = Self.mails()
        var timelinePipeline = IncrementalPipeline<ListQuery<Mail, Mail>>()
        var unreadPipeline = IncrementalPipeline<ListViewQuery<Mail, Mail>>()
        var topPipeline = IncrementalPipeline<PrefixListViewQuery<Mail, Mail>>()
        func read() -> ListView<Mail> {
            let timeline = timelinePipeline.update(with: Self.timeline(list))
            let unread = unreadPipeline.update(with: Self.unread(timeline))
            return topPipeline.update(with: Self.top(unread))
        }
        var top = read()
        for step in 0..<50 {
            list[(step * 13) % list.count].date = step % 7
            list[(step * 29) % list.count].isRead.toggle()
            let before = Array(top)
            top = read()
            #expect(topPipeline.lastUpdateWasIncremental)
            #expect(Array(top) == Array(list.elements.sorted { $0.date < $1.date }.filter { !$0.isRead }.prefix(3)))
            #expect(before.applying(top.changes.difference) == Array(top))
        }
        #expect(topPipeline.fullRecomputations == 1 && unreadPipeline.fullRecomputations == 1)
    }

    @Test("a view whose changes are not known is evaluated in full, counted, with the reason")
    func fallsBackToFullEvaluations() {
        RecomputationCounter.counting { counts in
            var list = Self.mails()
            var upstream = IncrementalPipeline<ListQuery<Mail, Mail>>()
            var downstream = IncrementalPipeline<ListViewQuery<Mail, Mail>>()
            _ = downstream.update(with: Self.unread(upstream.update(with: Self.timeline(list))))
            // The view evaluated in full (another input of its query moved): a new lineage.
            list[id: 1]?.isRead = true
            var unread = downstream.update(with: Self.unread(upstream.update(with: Self.timeline(list), reuse: false)))
            #expect(downstream.lastEvaluation == .full(.changesUnavailable))
            #expect(Array(unread) == list.elements.sorted { $0.date < $1.date }.filter { !$0.isRead })
            // A copy of the upstream pipeline that updates after another copy: a lineage of its own.
            var copy = upstream
            list[id: 2]?.isRead = true
            _ = upstream.update(with: Self.timeline(list))
            unread = downstream.update(with: Self.unread(copy.update(with: Self.timeline(list))))
            #expect(downstream.lastEvaluation == .full(.changesUnavailable))
            list[id: 4]?.isRead = true
            unread = downstream.update(with: Self.unread(copy.update(with: Self.timeline(list))))
            #expect(downstream.lastEvaluation == .followed)
            #expect(Array(unread) == list.elements.sorted { $0.date < $1.date }.filter { !$0.isRead })
            // A view made from an array, or cut by a prefix, keeps no lineage.
            _ = downstream.update(with: Self.unread(ListView(list.elements)))
            _ = downstream.update(with: Self.unread(ListView(list.elements)))
            #expect(downstream.lastEvaluation == .full(.changesUnavailable))
            var prefixed = IncrementalPipeline<PrefixListQuery<Mail, Mail>>()
            _ = downstream.update(with: Self.unread(prefixed.update(with: list.sorted(by: \.date).prefix(500))))
            list[id: 5]?.isRead = true
            unread = downstream.update(with: Self.unread(prefixed.update(with: list.sorted(by: \.date).prefix(500))))
            #expect(downstream.lastEvaluation == .full(.changesUnavailable))
            #expect(Array(unread) == list.elements.sorted { $0.date < $1.date }.prefix(500).filter { !$0.isRead })
            #expect(counts[IncrementalListCounters.fullRecomputations] > 6)
        }
    }

    @Test("in a context that asks for an Array, a view's operators are Sequence's")
    func arraysStayArrays() {
        let view = ListView((0..<10).map { Mail(id: $0, date: 10 - $0) })
        let filtered: [Mail] = view.filter { $0.id > 4 }
        let first = view.prefix(2)
        #expect(filtered.count == 5 && first.count == 2)
        #expect(type(of: first) == Slice<ListView<Mail>>.self)
    }
}
