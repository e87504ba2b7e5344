import Testing

@testable import ComputedRuntime

/// Bodies as the generator emits them for values whose only input is the list they start from
/// (with their query types named: an opaque result hides the source's type from this test).
private enum Bodies {
    static func unread(_ messages: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> {
        messages.filter { !$0.isRead }.sorted(by: \.date, descending: true)
    }

    static func top(_ messages: IdentifiedList<Mail>) -> PrefixListQuery<Mail, Int> {
        messages.sorted(by: \.date).prefix(5).map(\.id)
    }

    static func unreadCount(_ messages: IdentifiedList<Mail>) -> ListFoldQuery<Mail, Int> {
        messages.count(where: { !$0.isRead })
    }

    static func unreadByFolder(_ messages: IdentifiedList<Mail>) -> KeyedFoldQuery<Mail, Int, Int> {
        messages.filter { !$0.isRead }.count(by: \.folder)
    }

    static func byFolder(_ messages: IdentifiedList<Mail>) -> GroupedListQuery<Mail, Int, Mail> {
        messages.sorted(by: \.date).grouped(by: \.folder)
    }

    static func sections(_ messages: IdentifiedList<Mail>) -> SectionedListQuery<Mail, Int, Mail> {
        messages.sorted(by: \.date).grouped(by: \.folder).sortedKeys { $0 > $1 }
    }
}

/// A value whose query is built once per cache and then pointed at the list's new value after each
/// edit (what the generator asks for with `source:`), against the same query built every time.
@Suite("Queries built once and pointed at the list's new value")
struct QueryTemplateTests {
    /// Updates `cache` with the query `body` builds, given its source: counts the builds.
    private static func update<Query: IncrementalListQuery>(
        _ cache: IncrementalListCache<Query.Output>, _ messages: IdentifiedList<Mail>, builds: inout Int,
        _ body: (IdentifiedList<Mail>) -> Query
    ) -> Query.Output where Query.Source == Mail {
        cache._update(source: messages, building: { builds += 1; return body(messages) }, keyOrderMoved: false,
                      reuse: { _ in true }, beforeEditing: {})
    }

    @Test("each kind of query is built once, and gives what the query built anew gives")
    func builtOnce() {
        var messages = IdentifiedList((0..<400).map { Mail(id: $0, date: $0 % 29, isRead: $0 % 3 == 0, folder: $0 % 7) })
        let unread = IncrementalListCache<ListView<Mail>>(), top = IncrementalListCache<ListView<Int>>()
        let count = IncrementalListCache<Int>(), totals = IncrementalListCache<KeyedTotals<Int, Int>>()
        let groups = IncrementalListCache<ListGroups<Int, Mail>>(), sections = IncrementalListCache<ListSections<Int, Mail>>()
        var builds = 0
        for step in 0..<300 {
            switch step % 4 {
            case 0: messages[id: (step * 13) % 400]?.isRead.toggle()
            case 1: messages[id: (step * 7) % 400]?.date = step % 31
            case 2: messages[id: (step * 11) % 400]?.folder = step % 9
            default: if messages.count > 300 { _ = messages.remove(id: messages[messages.count / 2].id) }
            }
            let array = messages.elements
            #expect(Array(Self.update(unread, messages, builds: &builds, Bodies.unread)) == Array(Bodies.unread(messages)._evaluatedInFull()))
            #expect(Array(Self.update(top, messages, builds: &builds, Bodies.top)) == Array(Bodies.top(messages)._evaluatedInFull()))
            #expect(Self.update(count, messages, builds: &builds, Bodies.unreadCount) == array.count { !$0.isRead })
            let byFolder = Self.update(totals, messages, builds: &builds, Bodies.unreadByFolder)
            #expect(byFolder.dictionary == Dictionary(grouping: array.filter { !$0.isRead }, by: \.folder).mapValues(\.count))
            let grouped = Self.update(groups, messages, builds: &builds, Bodies.byFolder)
            #expect(Set(grouped.keys) == Set(array.map(\.folder)))
            let sectioned = Self.update(sections, messages, builds: &builds, Bodies.sections)
            #expect(sectioned.map(\.key) == Set(array.map(\.folder)).sorted(by: >))
            for section in sectioned {
                #expect(Array(section.elements) == array.filter { $0.folder == section.key }.sorted { $0.date < $1.date })
            }
        }
        #expect(builds == 6)
        #expect(unread.statistics(of: type(of: Bodies.unread(messages))).incrementalUpdates == 299)
    }

    @Test("without a source the query is built on every update")
    func builtEachTime() {
        var messages = IdentifiedList((0..<50).map { Mail(id: $0, date: $0, isRead: $0 % 2 == 0) })
        let cache = IncrementalListCache<ListView<Mail>>()
        var builds = 0
        for step in 0..<10 {
            messages[id: step]?.isRead.toggle()
            let view = cache._update(source: nil, building: { builds += 1; return Bodies.unread(messages) }, keyOrderMoved: false,
                                     reuse: { _ in true }, beforeEditing: {})
            #expect(Array(view) == Array(Bodies.unread(messages)._evaluatedInFull()))
        }
        #expect(builds == 10)
    }

    @Test("the kept query does not hold the list: an edit after an update stays in place")
    func keptQueryDropsTheList() {
        var messages = IdentifiedList((0..<100).map { Mail(id: $0, date: $0, isRead: false) })
        let cache = IncrementalListCache<ListView<Mail>>()
        var builds = 0
        for step in 0..<3 {
            _ = Self.update(cache, messages, builds: &builds, Bodies.unread)
            let before = messages._elements.withUnsafeBufferPointer { $0.baseAddress }
            messages[id: step]?.isRead = true
            #expect(messages._elements.withUnsafeBufferPointer { $0.baseAddress } == before)
        }
        #expect(builds == 1)
    }

    @Test("a copy of the cache keeps the query, and each copy follows its own list")
    func copies() {
        var first = IdentifiedList((0..<60).map { Mail(id: $0, date: $0 % 5, isRead: $0 % 2 == 0) })
        let cache = IncrementalListCache<Int>()
        var builds = 0
        _ = Self.update(cache, first, builds: &builds, Bodies.unreadCount)
        let copy = cache.copy()
        var second = first
        first[id: 1]?.isRead = true
        second[id: 0]?.isRead = false
        #expect(Self.update(cache, first, builds: &builds, Bodies.unreadCount) == first.elements.count { !$0.isRead })
        #expect(Self.update(copy, second, builds: &builds, Bodies.unreadCount) == second.elements.count { !$0.isRead })
        #expect(builds == 1)
    }
}

/// The table reads a list field's version in place, through the list's layout (no metadata lookup).
@Suite("A list field's version read in place")
struct ListVersionReaderTests {
    private struct Holder {
        var before = 7
        var list: IdentifiedList<Mail>
    }

    @Test("the reader gives the list's version after edits, replacement and divergence")
    func reader() throws {
        let offset = try #require(MemoryLayout<Holder>.offset(of: \Holder.list))
        let read = try #require(StateTable<Int, Holder>.Builder.listVersion(of: IdentifiedList<Mail>.self, at: offset))
        #expect(StateTable<Int, Holder>.Builder.listVersion(of: [Mail].self, at: offset) == nil)
        var holder = Holder(list: IdentifiedList((0..<10).map { Mail(id: $0) }))
        func check() { #expect(withUnsafePointer(to: holder) { read(UnsafeRawPointer($0)) } == holder.list.version) }
        check()
        holder.list[id: 3]?.isRead = true
        check()
        holder.list.append(Mail(id: 10))
        check()
        let copy = holder.list
        holder.list.replaceAll(with: [Mail(id: 1)])
        check()
        #expect(copy.version != holder.list.version)
    }
}
