import ConcurrencyTestSupport
import Foundation
import Testing

@testable import ComputedRuntime

/// A list and the same elements as a plain `Array`, edited together.
struct MirroredList {
    var list: IdentifiedList<Mail>
    var array: [Mail]
    var nextID: Int
    /// The size the list stays around (insertions win below it).
    var floor: Int

    init(count: Int, generator: inout SeededGenerator) {
        floor = count * 3 / 5
        array = (0..<count).map { Self.randomMail(id: $0, &generator) }
        list = IdentifiedList(array)
        nextID = count
    }

    static func randomMail(id: Int, _ generator: inout SeededGenerator) -> Mail {
        Mail(id: id, subject: "s\(Int.random(in: 0..<40, using: &generator))", date: Int.random(in: 0..<50, using: &generator),
             isRead: Bool.random(using: &generator), folder: Int.random(in: 0..<4, using: &generator),
             size: Int.random(in: 1..<20, using: &generator))
    }

    /// One random edit, applied to both; returns its name.
    @discardableResult
    mutating func randomEdit(_ generator: inout SeededGenerator) -> String {
        let roll = Int.random(in: 0..<100, using: &generator)
        let grow = array.count < floor || (array.count < floor * 4 && roll % 2 == 0)
        if array.isEmpty || (roll < 22 && grow) {
            let mail = Self.randomMail(id: nextID, &generator)
            nextID += 1
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: list.append(mail); array.append(mail)
            case 1: list.insert(mail, at: 0); array.insert(mail, at: 0)
            case 2: list.insert(mail, at: Swift.min(1, array.count)); array.insert(mail, at: Swift.min(1, array.count))
            default:
                let offset = Int.random(in: 0...array.count, using: &generator)
                list.insert(mail, at: offset); array.insert(mail, at: offset)
            }
            return "insert"
        }
        let offset = Int.random(in: 0..<array.count, using: &generator)
        let id = array[offset].id
        switch roll {
        case ..<40:
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: list.remove(id: id)
            case 1: list[id: id] = nil
            default: list.remove(at: offset)
            }
            array.remove(at: offset)
            return "remove"
        case ..<50:
            list[id: id]?.subject = "s\(Int.random(in: 0..<40, using: &generator))"   // keeps filter and date
            array[offset].subject = list[id: id]!.subject
            return "update subject"
        case ..<60:
            list[id: id]?.isRead.toggle()                                          // changes the filter
            array[offset].isRead.toggle()
            return "toggle read"
        case ..<70:
            let date = Int.random(in: 0..<50, using: &generator)                   // changes the sort key
            list[offset].date = date
            array[offset].date = date
            return "change date"
        case ..<76:
            var mail = Self.randomMail(id: id, &generator)                          // changes everything
            mail.subject = array[offset].subject
            list.updateOrAppend(mail)
            array[offset] = mail
            return "replace element"
        case ..<86:
            let destination = Int.random(in: 0..<array.count, using: &generator)
            list.move(fromOffset: offset, toOffset: destination)
            array.insert(array.remove(at: offset), at: destination)
            return "move"
        case ..<90:
            let sources = Set((0..<3).map { _ in Int.random(in: 0..<array.count, using: &generator) })
            let destination = Int.random(in: 0...array.count, using: &generator)
            list.move(fromOffsets: sources, toOffset: destination)
            let moving = sources.sorted().map { array[$0] }
            let target = destination - sources.count { $0 < destination }
            for source in sources.sorted(by: >) { array.remove(at: source) }
            array.insert(contentsOf: moving, at: target)
            return "move several"
        case ..<93:
            list[id: id]?.size = Int.random(in: 1..<20, using: &generator)
            array[offset].size = list[id: id]!.size
            return "change size"
        case 93:
            array = (0..<Int.random(in: 0..<(floor * 5 / 2), using: &generator)).map { _ in
                nextID += 1
                return Self.randomMail(id: nextID - 1, &generator)
            }
            list.replaceAll(with: array)
            return "bulk replace"
        default:
            list[id: id]?.folder = Int.random(in: 0..<4, using: &generator)
            array[offset].folder = list[id: id]!.folder
            return "change folder"
        }
    }
}

@Suite("Incremental queries: equivalence with Array")
struct IncrementalQueryPropertyTests {
    /// Random edits per seed (insert, remove, updates that keep or change the filter result
    /// and the sort key, moves, bulk replaces, diverging copies, a stale copy put back, changes of
    /// what the closures read), with every query read at random points and compared with the same
    /// expression on an Array, and each view's changes replayed on the previous array: 2,500 per
    /// seed in `swift test`, 10^4 with `COMPUTEDGEN_DEEP_TESTS=1` (``TestDepth``).
    @Test("random edits: every read equals the Array expression", arguments: [1, 2, 3] as [UInt64])
    func randomEdits(seed: UInt64) {
        let operations = TestDepth.size(quick: 2_500, deep: 10_000)
        run(seed: seed, count: 100, operations: operations, readEvery: 4, minimumReads: operations / 5, ratio: 3)
    }

    /// Lists of 1,200 to 4,800 elements, so the views' trees have three levels: 1,200 edits in
    /// `swift test`, 5,000 deep.
    @Test("random edits on larger lists: every read equals the Array expression", arguments: [4] as [UInt64])
    func randomEditsLarge(seed: UInt64) {
        let operations = TestDepth.size(quick: 1_200, deep: 5_000)
        run(seed: seed, count: 2_000, operations: operations, readEvery: 25, minimumReads: operations / 33, ratio: 1)
    }

    func run(seed: UInt64, count: Int, operations total: Int, readEvery: Int, minimumReads: Int, ratio: Int) {
        var generator = SeededGenerator(seed: seed)
        let parameters = QueryParameters()
        let checkers = allCheckers(parameters)
        var model = MirroredList(count: count, generator: &generator)
        var saved: MirroredList? = nil
        var reuse = true
        var failures: [String] = []
        var reads = 0
        var operations: [String: Int] = [:]
        var seenVersion = model.list.version
        var seenList = model.list
        for step in 0..<total {
            let roll = Int.random(in: 0..<1_000, using: &generator)
            switch roll {
            case 0..<8:
                // Two copies of one value, edited differently; keep either.
                var other = model
                for _ in 0..<Int.random(in: 1..<4, using: &generator) { other.randomEdit(&generator) }
                for _ in 0..<Int.random(in: 0..<3, using: &generator) { model.randomEdit(&generator) }
                if Bool.random(using: &generator) { model = other }
                operations["diverge", default: 0] += 1
            case 8..<12:
                if let older = saved { model = older }   // an older value comes back
                saved = model
                operations["stale copy", default: 0] += 1
            case 12..<20:
                parameters.threshold = Int.random(in: 0..<50, using: &generator)
                reuse = false                              // as the generator says: another input moved
                operations["threshold", default: 0] += 1
            case 20..<28:
                parameters.k = Int.random(in: 0..<20, using: &generator)
                operations["k", default: 0] += 1
            case 28..<36:
                // The name table the sections' key orders read: only the order is evaluated again.
                parameters.names.swapAt(Int.random(in: 0..<16, using: &generator), Int.random(in: 0..<16, using: &generator))
                parameters.names[Int.random(in: 0..<16, using: &generator)] = Int.random(in: 0..<5, using: &generator)
                parameters.orderMoved = true
                operations["rename", default: 0] += 1
            default:
                operations[model.randomEdit(&generator), default: 0] += 1
            }
            if Int.random(in: 0..<readEvery, using: &generator) == 0 || step == total - 1 {
                reads += 1
                for checker in checkers {
                    failures += checker.check(model.list, model.array, reuse: reuse)
                }
                // The list and its change records are collections too.
                failures += collectionLawFailures(model.list, expected: model.array, "IdentifiedList")
                failures += equatableLawFailures(model.list, seenList, "IdentifiedList", hash: \.hashValue)
                failures += equatableLawFailures(model.list, IdentifiedList(model.array), "IdentifiedList", hash: \.hashValue)
                if let changes = model.list.changes(since: seenVersion) {
                    failures += collectionLawFailures(changes, expected: changes.records, "ListChanges")
                }
                seenVersion = model.list.version
                seenList = model.list
                reuse = true
                parameters.orderMoved = false
                if !failures.isEmpty {
                    Issue.record("seed \(seed), step \(step): \(failures.prefix(3).joined(separator: "\n"))")
                    return
                }
            }
        }
        #expect(reads > minimumReads)
        for name in ["insert", "remove", "update subject", "toggle read", "change date", "move", "move several",
                     "bulk replace", "diverge", "stale copy", "threshold", "k", "rename", "change folder", "replace element"] {
            // Each kind several times over (the rarest are 4 in 1,000 operations).
            #expect(operations[name, default: 0] >= (TestDepth.isDeep ? 6 : 3), "too few '\(name)' operations: \(operations)")
        }
        for checker in checkers {
            let counts = checker.pipelineCounts
            #expect(counts.incremental > counts.full * ratio, "\(checker.name): \(counts.incremental) incremental, \(counts.full) full")
        }
    }

    @Test("a one-item edit is followed, not recomputed; a diverged copy is recomputed, counted")
    func countsFullRecomputations() {
        /// One place builds the query, as a generated body does.
        func unreadByDate(_ list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> {
            list.filter { !$0.isRead }.sorted(by: \.date)
        }
        RecomputationCounter.counting { counts in
            var list = IdentifiedList((0..<1_000).map { Mail(id: $0, date: $0 % 97, isRead: $0 % 3 == 0) })
            var pipeline = IncrementalPipeline<ListQuery<Mail, Mail>>()
            var unread = pipeline.update(with: unreadByDate(list))
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            #expect(unread.count == 666)

            list[id: 1]?.isRead = true
            unread = pipeline.update(with: unreadByDate(list))
            #expect(pipeline.lastUpdateWasIncremental)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            #expect(counts[IncrementalListCounters.incrementalUpdates] == 1)
            #expect(unread.count == 665)
            #expect(unread.changes.removals.count == 1 && unread.changes.insertions.isEmpty)

            list[id: 2]?.date = 0
            list.append(Mail(id: 5_000, date: 3))
            unread = pipeline.update(with: unreadByDate(list))
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            #expect(unread.changes.moves.count == 1 && unread.changes.insertions.count == 1)

            // Two copies edited differently: the second to edit has a history of its own.
            var copy = list
            list.append(Mail(id: 5_001))
            copy.append(Mail(id: 5_002))
            unread = pipeline.update(with: unreadByDate(list))
            #expect(counts[IncrementalListCounters.fullRecomputations] == 1)
            unread = pipeline.update(with: unreadByDate(copy))
            #expect(!pipeline.lastUpdateWasIncremental)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 2)
            #expect(unread.contains { $0.id == 5_002 } && !unread.contains { $0.id == 5_001 })

            // reuse: false (another input of the body moved) recomputes too.
            _ = pipeline.update(with: unreadByDate(copy), reuse: false)
            #expect(counts[IncrementalListCounters.fullRecomputations] == 3)
            #expect(pipeline.fullRecomputations == 3 && pipeline.incrementalUpdates == 3)
        }
    }

    @Test("a query built at another place is not mistaken for the previous one")
    func otherOperatorsRecompute() {
        var list = IdentifiedList((0..<50).map { Mail(id: $0, date: $0, isRead: $0 % 2 == 0) })
        var pipeline = IncrementalPipeline<ListQuery<Mail, Mail>>()
        _ = pipeline.update(with: list.filter { $0.isRead })
        list.append(Mail(id: 100))
        let other = pipeline.update(with: list.filter { !$0.isRead })
        #expect(!pipeline.lastUpdateWasIncremental)
        #expect(other.map(\.id) == list.filter { !$0.isRead }.map(\.id))
    }

    @Test("a view keeps its elements while its pipeline goes on")
    func viewsAreValues() {
        var list = IdentifiedList((0..<300).map { Mail(id: $0, date: 300 - $0) })
        var pipeline = IncrementalPipeline<ListQuery<Mail, Mail>>()
        func byDate(_ list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> { list.sorted(by: \.date) }
        let first = pipeline.update(with: byDate(list))
        let snapshot = Array(first)
        for id in 0..<40 { list[id: id]?.date = id }
        list.remove(id: 150)
        let second = pipeline.update(with: byDate(list))
        #expect(pipeline.lastUpdateWasIncremental)
        #expect(Array(first) == snapshot)
        #expect(Array(second) == list.elements.sorted { $0.date < $1.date })
        #expect(snapshot.applying(second.changes.difference) == Array(second))
    }
}
