import ConcurrencyTestSupport
import Foundation
import Testing

@testable import ComputedRuntime

/// Derived values find what they made of an edited element from the value and label it had
/// before the edits they follow (the list's change record keeps them): with several edits of one
/// id between two reads, it is the value before the first of them that counts. These tests edit
/// a few ids over and over (updates, moves, a removal and an insertion of the same id) between
/// reads, and read some queries at every read and others only every few reads (several versions
/// behind), comparing each result with the same expression on an Array.
@Suite("Incremental queries: repeated edits of one id between reads")
struct IncrementalQueryCoalescingTests {
    @Test("hot ids edited several times between reads, read at once and several versions behind", arguments: [11, 12, 13] as [UInt64])
    func repeatedEditsOfHotIDs(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let parameters = QueryParameters()
        // The same queries twice: one set read at every read, one only every few reads.
        let eager = allCheckers(parameters)
        let lagging = allCheckers(parameters)
        var model = MirroredList(count: 80, generator: &generator)
        var failures: [String] = []
        var repeated = 0
        // 200 reads in `swift test`, 700 with `COMPUTEDGEN_DEEP_TESTS=1`.
        let reads = TestDepth.size(quick: 200, deep: 700)
        for read in 0..<reads {
            var editsByID: [Int: Int] = [:]
            for _ in 0..<Int.random(in: 1..<12, using: &generator) {
                let id = Self.editHotID(&model, &generator)
                editsByID[id, default: 0] += 1
            }
            if editsByID.values.contains(where: { $0 > 1 }) { repeated += 1 }
            for checker in eager { failures += checker.check(model.list, model.array, reuse: true) }
            if read % Int.random(in: 1..<8, using: &generator) == 0 {
                for checker in lagging { failures += checker.check(model.list, model.array, reuse: true) }
            }
            if !failures.isEmpty {
                Issue.record("seed \(seed), read \(read): \(failures.prefix(3).joined(separator: "\n"))")
                return
            }
        }
        #expect(repeated > reads / 2)
        for checker in eager + lagging {
            let counts = checker.pipelineCounts
            // The full evaluations are a handful whatever the length (the first reads, a
            // removed id's return): the ratio grows with the number of reads.
            #expect(counts.incremental > counts.full * (TestDepth.isDeep ? 10 : 5), "\(checker.name): \(counts.incremental) incremental, \(counts.full) full")
        }
    }

    /// One edit of one of the first ids of the list (its four first elements at the start, then
    /// whichever are there): updates that change the filter, the sort key or nothing they read,
    /// moves, and a removal followed (now or later) by an insertion of the same id. Returns the id.
    static func editHotID(_ model: inout MirroredList, _ generator: inout SeededGenerator) -> Int {
        let hot = Int.random(in: 0..<4, using: &generator)
        guard let offset = model.array.firstIndex(where: { $0.id == hot }) else {
            // Removed earlier: back, with new values, at a random place.
            let mail = MirroredList.randomMail(id: hot, &generator)
            let at = Int.random(in: 0...model.array.count, using: &generator)
            model.list.insert(mail, at: at)
            model.array.insert(mail, at: at)
            return hot
        }
        switch Int.random(in: 0..<7, using: &generator) {
        case 0:
            model.list[id: hot]?.isRead.toggle()
            model.array[offset].isRead.toggle()
        case 1:
            let date = Int.random(in: 0..<50, using: &generator)
            model.list[offset].date = date
            model.array[offset].date = date
        case 2:
            let size = Int.random(in: 1..<20, using: &generator)
            model.list[id: hot]?.size = size
            model.array[offset].size = size
        case 3:
            let folder = Int.random(in: 0..<4, using: &generator)
            model.list[id: hot]?.folder = folder
            model.array[offset].folder = folder
        case 4:
            let destination = Int.random(in: 0..<model.array.count, using: &generator)
            model.list.move(fromOffset: offset, toOffset: destination)
            model.array.insert(model.array.remove(at: offset), at: destination)
        case 5:
            let mail = MirroredList.randomMail(id: hot, &generator)
            model.list.updateOrAppend(mail)
            model.array[offset] = mail
        default:
            model.list.remove(id: hot)
            model.array.remove(at: offset)
        }
        return hot
    }

    @Test("a removal and an insertion of one id between two reads: the view and the fold take the old value out")
    func removeThenInsertSameID() {
        var list = IdentifiedList((0..<20).map { Mail(id: $0, date: $0, isRead: $0 % 2 == 0, size: $0) })
        var views = IncrementalPipeline<ListQuery<Mail, Mail>>()
        var sums = IncrementalPipeline<ListFoldQuery<Mail, Int>>()
        func unread(_ list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> { list.filter { !$0.isRead }.sorted(by: \.date) }
        func unreadSize(_ list: IdentifiedList<Mail>) -> ListFoldQuery<Mail, Int> { list.filter { !$0.isRead }.sum(of: { $0.size }) }
        _ = views.update(with: unread(list))
        _ = sums.update(with: unreadSize(list))
        list[id: 3]?.date = 100          // first edit: the value before it is what the view holds
        list[id: 3]?.size = 7
        list.remove(id: 3)
        list.insert(Mail(id: 3, date: -1, isRead: false, size: 50), at: 0)
        list[id: 3]?.date = -2
        let view = views.update(with: unread(list))
        let sum = sums.update(with: unreadSize(list))
        #expect(views.lastUpdateWasIncremental && sums.lastUpdateWasIncremental)
        let array = list.elements.filter { !$0.isRead }
        #expect(view.map(\.id) == array.sorted { $0.date < $1.date }.map(\.id))
        #expect(sum == array.reduce(0) { $0 + $1.size })
    }
}
