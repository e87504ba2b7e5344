import Testing

@testable import ComputedRuntime

/// Totals per key (`count(by:)`, `sum(of:by:)`) through a pipeline: exact `changedKeys`, a
/// result that shares what an edit did not touch, and equality in O(1) while nothing changed.
@Suite("KeyedTotals: a total per key, maintained per changed element")
struct KeyedTotalsTests {
    static func unreadByFolder(_ list: IdentifiedList<Mail>) -> KeyedFoldQuery<Mail, Int, Int> {
        list.filter { !$0.isRead }.count(by: { $0.folder })
    }

    @Test("one edit changes the totals of the keys it touches; an equal write changes none")
    func changedKeys() {
        var list = IdentifiedList((0..<10_000).map { Mail(id: $0, isRead: $0 % 3 == 0, folder: $0 % 2_000) })
        var pipeline = IncrementalPipeline<KeyedFoldQuery<Mail, Int, Int>>()
        let first = pipeline.update(with: Self.unreadByFolder(list))
        #expect(first.count == 2_000 && first[1] == 3 && first[0] == 3 && first[-1] == 0)   // 1, 4001, 6001 unread

        list[id: 1]?.isRead = true
        let second = pipeline.update(with: Self.unreadByFolder(list))
        #expect(pipeline.lastUpdateWasIncremental)
        #expect(second.changedKeys == [1] && second[1] == 2 && first[1] == 3)
        #expect(second != first)
        // Only the path to the edited key's total is new.
        var differing = 0
        for index in first._totals.root.children.indices where first._totals.root.children[index] !== second._totals.root.children[index] {
            differing += 1
        }
        #expect(differing == 1 && first._slots.storage === second._slots.storage)

        // A move to another key and back, and an equal write: no total changed.
        list[id: 2]?.folder = 7
        list[id: 2]?.folder = 2
        list[id: 5] = list[id: 5]
        let third = pipeline.update(with: Self.unreadByFolder(list))
        #expect(third.changedKeys.isEmpty && third == second && third._token == second._token)

        // The last unread element of a key leaves it: the key is absent, and changed.
        for id in stride(from: 3, to: 10_000, by: 2_000) { list[id: id]?.isRead = true }
        let fourth = pipeline.update(with: Self.unreadByFolder(list))
        #expect(!fourth.contains(3) && fourth[3] == 0 && fourth.count == 1_999 && fourth.changedKeys == [3])
        #expect(third.contains(3) && third[3] == 3)
    }

    @Test("a key touched again later in one update is compared with its total before the first touch")
    func keysTouchedTwiceInOneUpdate() {
        // Folders get slots in order of appearance: 10 → 0, 20 → 1, 30 → 2.
        var list = IdentifiedList([Mail(id: 1, folder: 10), Mail(id: 2, folder: 20), Mail(id: 3, folder: 30), Mail(id: 4, folder: 10)])
        var pipeline = IncrementalPipeline<KeyedFoldQuery<Mail, Int, Int>>()
        let first = pipeline.update(with: Self.unreadByFolder(list))
        #expect(first.dictionary == [10: 2, 20: 1, 30: 1])

        // One update: 3 moves 30 → 10, then 4 moves 10 → 30 (slots touched 2, 0, 0, 2: 10's and
        // 30's totals end where they started), and 2 moves to a new folder.
        list[id: 3]?.folder = 10
        list[id: 4]?.folder = 30
        list[id: 2]?.folder = 40
        let second = pipeline.update(with: Self.unreadByFolder(list))
        #expect(pipeline.lastUpdateWasIncremental)
        #expect(second.dictionary == [10: 2, 30: 1, 40: 1])
        #expect(second.changedKeys == [20, 40])

        // The same in the other order of slots (0, 2, 2, 0), with a total that does change.
        list[id: 1]?.folder = 30
        list[id: 3]?.folder = 30
        list[id: 4]?.folder = 10
        let third = pipeline.update(with: Self.unreadByFolder(list))
        #expect(pipeline.lastUpdateWasIncremental)
        #expect(third.dictionary == [10: 1, 30: 2, 40: 1])
        #expect(third.changedKeys == [10, 30])
    }
}
