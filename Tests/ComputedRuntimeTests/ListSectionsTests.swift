import Testing

@testable import ComputedRuntime

/// `ListSections` through a pipeline: sections in an order of their keys, section-level changes
/// beside each section's element changes, and a new key order that sorts the keys again without
/// evaluating the groups again.
@Suite("ListSections: groups in an order of their keys")
struct ListSectionsTests {
    final class Names: @unchecked Sendable {
        // Safety: written only between evaluations, on the test's thread.
        var names: [Int: String] = [:]
        func name(_ key: Int) -> String { names[key, default: ""] }
    }

    static func mails(_ count: Int, folders: Int) -> IdentifiedList<Mail> {
        IdentifiedList((0..<count).map { Mail(id: $0, subject: "s\($0)", date: $0 % 17, isRead: $0 % 3 == 0, folder: $0 % folders) })
    }

    static func byName(_ list: IdentifiedList<Mail>, _ names: Names) -> SectionedListQuery<Mail, Int, Mail> {
        list.filter { !$0.isRead }.sorted(by: \.date).grouped(by: { $0.folder }).sortedKeys { names.name($0) < names.name($1) }
    }

    @Test("sections in the key order; an edit inserts or removes the sections it empties or fills, nothing moves")
    func followedEdits() {
        let names = Names()
        names.names = [0: "d", 1: "c", 2: "b", 3: "a"]
        var list = Self.mails(40, folders: 4)
        var pipeline = IncrementalPipeline<SectionedListQuery<Mail, Int, Mail>>()
        let first = pipeline.update(with: Self.byName(list, names))
        #expect(first.keys == [3, 2, 1, 0])
        #expect(first.map(\.count) == [3, 3, 4, 3] || first.map(\.count).reduce(0, +) == list.count { !$0.isRead })
        #expect(first[0].elements.map(\.id) == list.filter { !$0.isRead && $0.folder == 3 }.sorted { $0.date < $1.date }.map(\.id))

        // Mark every unread mail of folder 2 read: its section leaves (offset 1 before).
        for mail in list where mail.folder == 2 && !mail.isRead { list[id: mail.id]?.isRead = true }
        let second = pipeline.update(with: Self.byName(list, names))
        #expect(pipeline.lastUpdateWasIncremental)
        #expect(second.keys == [3, 1, 0])
        #expect(second.changes.removals == [1] && second.changes.insertions.isEmpty && second.changes.moves.isEmpty)
        #expect(second.changes.changedKeys == [2])
        #expect(first.keys == [3, 2, 1, 0])                         // the previous result kept its sections

        // A new folder, named between the others.
        names.names[9] = "bb"
        list.append(Mail(id: 100, date: 1, folder: 9))
        let third = pipeline.update(with: Self.byName(list, names))
        #expect(third.keys == [3, 9, 1, 0])
        #expect(third.changes.insertions == [1] && third.changes.removals.isEmpty)
        #expect(third[1].elements.map(\.id) == [100])
        #expect(third[1].elements.changes.insertions == [0])        // the section's element changes

        // An edit inside one section: no section change, that key's elements changed.
        list[id: 1]?.subject = "edited"
        let fourth = pipeline.update(with: Self.byName(list, names))
        #expect(fourth.changes.changedKeys == [1] && fourth.changes.removals.isEmpty && fourth.changes.insertions.isEmpty)
        #expect(fourth[2].key == 1 && fourth[2].elements.changes.isIncremental)
        #expect(fourth[2].elements.changes.updates.count == 1 && fourth[2].elements.changes.insertions.isEmpty)
        #expect(fourth[0].elements.changes.isEmpty)

        // An equal write: nothing changed, and the result is equal to the previous.
        list[id: 1] = list[id: 1]
        let fifth = pipeline.update(with: Self.byName(list, names))
        #expect(fifth.changes.isEmpty && fifth == fourth)
    }

    @Test("a new key order sorts the keys again, follows the list in the groups and shares every group")
    func reorderSharesGroups() {
        typealias Storage = _TreeListGroupsStorage<Mail, Int, Mail>
        let names = Names()
        for folder in 0..<1_000 { names.names[folder] = "n\(1_000 + folder)" }
        var list = Self.mails(5_000, folders: 1_000)
        var pipeline = IncrementalPipeline<SectionedListQuery<Mail, Int, Mail>>()
        let before = pipeline.update(with: Self.byName(list, names))
        #expect(before.keys == before.keys.sorted())
        names.names[500] = "a"                                       // folder 500 first now
        names.names[10] = "z"                                        // folder 10 last
        list[id: 7]?.subject = "edited"                              // and one edit of the list
        let after = pipeline.update(with: Self.byName(list, names).keyOrderChanged())
        #expect(pipeline.lastUpdateWasIncremental)
        #expect(after.keys.first == 500 && after.keys.last == 10)
        #expect(after.changes.moves.map(\.to).sorted() == [0, after.count - 1])
        #expect(after.changes.removals.isEmpty && after.changes.insertions.isEmpty)
        #expect(after.changes.changedKeys == [7])
        #expect(before.keys.applying(after.changes.difference) == after.keys)
        let old = before.groups._storage as! Storage
        let new = after.groups._storage as! Storage
        var differing: [Int] = []
        for slot in 0..<new.trees.count where old.trees[slot].root !== new.trees[slot].root { differing.append(new.slots.key(at: slot)) }
        #expect(differing == [7])

        // Without keyOrderChanged() the sections keep their places (the caller said nothing moved).
        names.names[500] = "zz"
        list[id: 8]?.subject = "edited"
        let kept = pipeline.update(with: Self.byName(list, names))
        #expect(kept.keys == after.keys)
        // With reuse: false everything is evaluated in full and compared.
        let full = pipeline.update(with: Self.byName(list, names), reuse: false)
        #expect(!pipeline.lastUpdateWasIncremental)
        #expect(full.keys.last == 500 && full.changes.moves.count == 1 && full.changes.changedKeys.isEmpty)
    }

    @Test("keys that are not Comparable and that the order ties keep their order while the list is followed")
    func tiesAreStable() {
        var list = IdentifiedList((0..<60).map { Mail(id: $0, folder: $0 % 6) })
        let query = { (list: IdentifiedList<Mail>) in
            list.grouped(by: { FolderKey(number: $0.folder) }).sortedKeys { $0.number / 3 < $1.number / 3 }
        }
        var pipeline = IncrementalPipeline<SectionedListQuery<Mail, FolderKey, Mail>>()
        let first = pipeline.update(with: query(list))
        #expect(first.keys.map { $0.number / 3 } == [0, 0, 0, 1, 1, 1])
        for id in 0..<30 { list[id: id]?.size = 2 }
        list.append(Mail(id: 99, folder: 4))
        let second = pipeline.update(with: query(list))
        #expect(second.keys == first.keys && second.changes.moves.isEmpty)
        let empty = ListSections<Int, Mail>()
        #expect(empty.isEmpty && empty.changes.isEmpty && empty.keys.isEmpty)
    }

    @Test("the fewest moves: a longest run of sections that keep their relative order stays")
    func fewestMoves() {
        let changes = ListSectionChanges<Int>._compare([1, 2, 3, 4, 5, 6], [2, 3, 7, 4, 1, 6])
        #expect(changes.removals.map(\.offset) == [4])
        #expect(changes.insertions.map(\.offset) == [2])
        #expect(changes.moves.map(\.key) == [1])
        #expect(ListSectionChanges<Int>._longestIncreasingRun([5, 1, 2, 8, 3, 4]).sorted() == [1, 2, 4, 5])
    }
}
