import ConcurrencyTestSupport
import Testing

@testable import ComputedRuntime

/// Bodies as the generator would emit them for `computed visible: ListView<Mail> { … }`: the
/// declared result makes the list's operators build queries, without naming their types.
private enum GeneratedBodies {
    static func visible(_ messages: IdentifiedList<Mail>) -> some IncrementalListQuery<ListView<Mail>> {
        messages.filter { !$0.isRead }.sorted(by: \.date)
    }

    static func latest(_ messages: IdentifiedList<Mail>, _ count: Int) -> some IncrementalListQuery<ListView<Int>> {
        messages.sorted(by: \.date, descending: true).prefix(count).map(\.id)
    }

    static func unreadCount(_ messages: IdentifiedList<Mail>) -> some IncrementalListQuery<Int> {
        messages.count(where: { !$0.isRead })
    }
}

@Suite("IncrementalListCache (what a generated memo cell holds)")
struct IncrementalListCacheTests {
    @Test("a body declared as an opaque query is followed incrementally through the cache")
    func opaqueBodies() {
        var messages = IdentifiedList((0..<500).map { Mail(id: $0, date: $0 % 37, isRead: $0 % 4 == 0) })
        let visible = IncrementalListCache<ListView<Mail>>()
        let latest = IncrementalListCache<ListView<Int>>()
        let unread = IncrementalListCache<Int>()
        func check() {
            let array = messages.elements
            #expect(Array(visible.update(with: GeneratedBodies.visible(messages))) == array.filter { !$0.isRead }.sorted { $0.date < $1.date })
            #expect(Array(latest.update(with: GeneratedBodies.latest(messages, 5))) == Array(array.sorted { $0.date > $1.date }.prefix(5).map(\.id)))
            #expect(unread.update(with: GeneratedBodies.unreadCount(messages)) == array.count { !$0.isRead })
        }
        check()
        for step in 0..<50 {
            messages[id: step * 7]?.isRead.toggle()
            messages[id: step * 3]?.date = step
            check()
        }
        let counts = visible.statistics(of: type(of: GeneratedBodies.visible(messages)))
        #expect(counts.fullRecomputations == 1 && counts.incrementalUpdates == 50)
        // A plain context still gets Sequence's operators.
        let plain: [Mail] = messages.filter { !$0.isRead }
        #expect(plain.count == unread.update(with: GeneratedBodies.unreadCount(messages)))
    }

    @Test("one cache shared by threads, each updating it with its own copy of the list")
    func sharedCache() {
        let base = IdentifiedList((0..<300).map { Mail(id: $0, date: $0 % 11, isRead: $0 % 2 == 0) })
        let cache = IncrementalListCache<ListView<Mail>>()
        let failures = Collected(0)
        runOnThreads(4) { thread in
            var messages = base
            for step in 0..<200 {
                messages[id: (step * 7 + thread) % 300]?.isRead.toggle()
                let view = cache.update(with: GeneratedBodies.visible(messages))
                if Array(view) != messages.elements.filter({ !$0.isRead }).sorted(by: { $0.date < $1.date }) {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
