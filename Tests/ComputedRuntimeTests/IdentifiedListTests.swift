import ConcurrencyTestSupport
import Foundation
import Testing

@testable import ComputedRuntime

/// A mail-client message: the element type of the collection tests.
struct Mail: Identifiable, Hashable, Codable, Sendable {
    var id: Int
    var subject: String
    var date: Int
    var isRead: Bool
    var folder: Int
    var size: Int

    init(id: Int, subject: String = "", date: Int = 0, isRead: Bool = false, folder: Int = 0, size: Int = 1) {
        self.id = id
        self.subject = subject
        self.date = date
        self.isRead = isRead
        self.folder = folder
        self.size = size
    }
}

@Suite("IdentifiedList")
struct IdentifiedListTests {
    @Test("edits by offset and by id, with O(1) lookup by id")
    func edits() {
        var list: IdentifiedList<Mail> = [Mail(id: 1), Mail(id: 2), Mail(id: 3)]
        list.append(Mail(id: 4))
        list.insert(Mail(id: 0), at: 0)
        #expect(list.ids == [0, 1, 2, 3, 4])
        #expect(list.index(id: 3) == 3)
        #expect(list.remove(id: 2)?.id == 2)
        #expect(list.remove(id: 2) == nil)
        #expect(list.index(id: 3) == 2)
        list[id: 3]?.subject = "edited"
        #expect(list[id: 3]?.subject == "edited")
        list[id: 1] = nil
        list[id: 9] = Mail(id: 9)
        #expect(list.ids == [0, 3, 4, 9])
        list.move(fromOffset: 0, toOffset: 3)
        #expect(list.ids == [3, 4, 9, 0])
        list.move(fromOffsets: [0, 2], toOffset: 4)
        #expect(list.ids == [4, 0, 3, 9])
        list[1].isRead = true
        #expect(list[id: 0]?.isRead == true)
        #expect(list.updateOrAppend(Mail(id: 0, subject: "new"))?.isRead == true)
        list.removeAll { $0.id > 5 }
        #expect(list.ids == [4, 0, 3])
        for (offset, element) in list.enumerated() { #expect(list.index(id: element.id) == offset) }
    }

    @Test("the change record answers in order, and nil for other histories")
    func changes() {
        var list: IdentifiedList<Mail> = [Mail(id: 1), Mail(id: 2)]
        let start = list.version
        list.append(Mail(id: 3))
        list[id: 1]?.isRead = true
        list.remove(id: 2)
        list.move(fromOffset: 1, toOffset: 0)
        let changes = list.changes(since: start)
        #expect(changes?.map(\.kind) == [.inserted, .updated, .removed, .moved])
        #expect(changes?.map(\.id) == [3, 1, 2, 3])
        #expect(changes?.touchedIDs == [3, 1, 2])
        #expect(list.changes(since: list.version)?.isEmpty == true)

        // A copy edited after another copy starts its own history.
        var copy = list
        let shared = list.version
        list.append(Mail(id: 10))
        copy.append(Mail(id: 11))
        #expect(list.changes(since: shared)?.map(\.id) == [10])
        #expect(copy.changes(since: shared) == nil)
        #expect(copy.version.lineage != list.version.lineage)
        #expect(list.changes(since: copy.version) == nil)

        // A replaced list, and an older version than the value: nil.
        var replaced = list
        replaced.replaceAll(with: [Mail(id: 1)])
        #expect(replaced.changes(since: list.version) == nil)
        #expect(shared.lineage == list.version.lineage)
        var older = list
        older.append(Mail(id: 12))
        #expect(list.changes(since: older.version) == nil)
    }

    @Test("a trimmed record answers nil once the version's changes are gone")
    func trimmed() {
        var list = IdentifiedList<Mail>(changeRecordCapacity: 4)
        let start = list.version
        for id in 0..<4 { list.append(Mail(id: id)) }
        #expect(list.changes(since: start)?.count == 4)
        let middle = list.version
        list.append(Mail(id: 4))
        #expect(list.changes(since: start) == nil)
        #expect(list.changes(since: middle)?.map(\.id) == [4])
    }

    @Test("labels stay strictly increasing through many insertions at one place")
    func labels() {
        var list: IdentifiedList<Mail> = [Mail(id: -1), Mail(id: -2)]
        for id in 0..<3_000 { list.insert(Mail(id: id), at: 1) }
        for id in 3_000..<4_000 { list.insert(Mail(id: id), at: 0) }
        #expect(zip(list._labels, list._labels.dropFirst()).allSatisfy { $0 < $1 })
        #expect(list.count == 4_002)
    }

    @Test("Equatable, Hashable, Codable and literal conformances")
    func conformances() throws {
        let list: IdentifiedList<Mail> = [Mail(id: 1, subject: "a"), Mail(id: 2, subject: "b")]
        var other = IdentifiedList([Mail(id: 1, subject: "a")])
        other.append(Mail(id: 2, subject: "b"))
        #expect(list == other)
        #expect(Set([list, other]).count == 1)
        let data = try JSONEncoder().encode(list)
        #expect(try JSONDecoder().decode(IdentifiedList<Mail>.self, from: data) == list)
        let repeated = try JSONEncoder().encode([Mail(id: 1), Mail(id: 1)])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(IdentifiedList<Mail>.self, from: repeated) }
    }

    @Test("copies edited on several threads each stay correct")
    func concurrentCopies() {
        let base = IdentifiedList((0..<100).map { Mail(id: $0) })
        let failures = Collected(0)
        runOnThreads(4) { thread in
            var list = base
            var seen = list.version
            for step in 0..<500 {
                let id = 1_000 * (thread + 1) + step
                list.append(Mail(id: id))
                if let changes = list.changes(since: seen) {
                    if changes.map(\.id) != [id] { failures.withLock { $0 += 1 } }
                }
                seen = list.version
                list[id: step % 100]?.size += 1
                seen = list.version
            }
            if list.count != 600 { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    /// One thread follows a list through a pipeline and publishes each view; readers on other
    /// threads walk the published views while the writer edits the trees they share (copying
    /// the shared nodes on its paths). Under TSan this proves the sharing race-free.
    @Test("views read on other threads while the pipeline goes on")
    func viewsAcrossThreads() {
        let published = Collected<ListView<Mail>?>(nil)
        let done = Collected(false)
        let failures = Collected(0)
        @Sendable func query(_ list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> {
            list.filter { !$0.isRead }.sorted(by: \.date)
        }
        runOnThreads(3) { thread in
            if thread == 0 {
                var list = IdentifiedList((0..<2_000).map { Mail(id: $0, date: $0 % 101, isRead: $0 % 3 == 0) })
                var pipeline = IncrementalPipeline<ListQuery<Mail, Mail>>()
                for step in 0..<2_000 {
                    list[id: (step * 7) % 2_000]?.isRead.toggle()
                    list[id: (step * 13) % 2_000]?.date = step % 101
                    let view = pipeline.update(with: query(list))
                    published.withLock { $0 = view }
                }
                done.withLock { $0 = true }
            } else {
                while !done.withLock({ $0 }) {
                    guard let view = published.withLock({ $0 }) else { continue }
                    let elements = Array(view)
                    if elements.count != view.count || !zip(elements, elements.dropFirst()).allSatisfy({ $0.date <= $1.date }) {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
