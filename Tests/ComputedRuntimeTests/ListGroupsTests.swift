import Testing

@testable import ComputedRuntime

/// `ListGroups` through a pipeline: what an edit costs (the groups it touches, nothing else),
/// exact `changedKeys`, equality, and values that keep their groups.
@Suite("ListGroups: an edit costs the groups it touches")
struct ListGroupsTests {
    static func byFolder(_ list: IdentifiedList<Mail>) -> GroupedListQuery<Mail, Int, Mail> {
        list.sorted(by: \.date, descending: true).grouped(by: { $0.folder })
    }

    static func mails(_ count: Int, folders: Int) -> IdentifiedList<Mail> {
        IdentifiedList((0..<count).map { Mail(id: $0, subject: "s\($0)", date: $0 % 17, folder: $0 % folders) })
    }

    @Test("an equal write, or a move in the list that changes no group's order, changes no key")
    func equalWrites() {
        var list = Self.mails(200, folders: 7)
        var pipeline = IncrementalPipeline<GroupedListQuery<Mail, Int, Mail>>()
        let first = pipeline.update(with: Self.byFolder(list))
        list[id: 4] = list[id: 4]
        let second = pipeline.update(with: Self.byFolder(list))
        #expect(pipeline.lastUpdateWasIncremental)
        #expect(second.changedKeys.isEmpty)
        #expect(second == first)
        list[id: 4]?.subject = "edited"
        let third = pipeline.update(with: Self.byFolder(list))
        #expect(third.changedKeys == [4])
        #expect(third != second && second == first)
        #expect(first[4].first { $0.id == 4 }?.subject == "s4")

        // In full (another input moved): compared with the previous result.
        let fourth = pipeline.update(with: Self.byFolder(list), reuse: false)
        #expect(!pipeline.lastUpdateWasIncremental)
        #expect(fourth.changedKeys.isEmpty)
        #expect(fourth == third)
        list[id: 5]?.folder = 6
        let fifth = pipeline.update(with: Self.byFolder(list), reuse: false)
        #expect(fifth.changedKeys == [5, 6])
    }

    @Test("an edit copies only the groups it touches: the next result shares every other group, and the key table")
    func editSharesUntouchedGroups() {
        typealias Storage = _TreeListGroupsStorage<Mail, Int, Mail>
        var list = Self.mails(20_000, folders: 5_000)
        var pipeline = IncrementalPipeline<GroupedListQuery<Mail, Int, Mail>>()
        let before = pipeline.update(with: Self.byFolder(list))
        list[id: 7]?.folder = 4_321
        let after = pipeline.update(with: Self.byFolder(list))
        #expect(pipeline.lastUpdateWasIncremental)
        #expect(after.changedKeys == [7, 4_321])
        let old = before._storage as! Storage
        let new = after._storage as! Storage
        #expect(old.slots.storage === new.slots.storage)
        var differing: [Int] = []
        for slot in 0..<new.trees.count where old.trees[slot].root !== new.trees[slot].root { differing.append(slot) }
        #expect(differing.map { new.slots.key(at: $0) }.sorted() == [7, 4_321])
        // The vector's nodes: only those on the two edited slots' paths are new.
        #expect(old.trees.root.children.indices.filter { old.trees.root.children[$0] !== new.trees.root.children[$0] }.count <= 2)
        #expect(before.count(of: 7) == 4 && after.count(of: 7) == 3 && after.count(of: 4_321) == 5)
    }
}
