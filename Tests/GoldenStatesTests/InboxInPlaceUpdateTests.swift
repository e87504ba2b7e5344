@testable import ComputedRuntime
import ConcurrencyTestSupport
import Foundation
import GoldenStates
import Testing

/// Issue 34, item 5: a one-element update of a cached `ListView` value edits the view's tree in
/// place when nothing but the memo cell's cached view (the value being replaced) holds it, and
/// copies the nodes a value still held elsewhere shares (a view read before the edit, a copy of
/// the state), which keep their contents.
@Suite("Generated InboxState: a view's tree edited in place")
struct InboxInPlaceUpdateTests {
    typealias S = InboxState.Selectors
    typealias Tree = _OrderedTree<_ListEntry<Message>>

    /// The tree behind a view of the unread messages.
    static func tree(_ view: ListView<Message>) -> Tree {
        (view._storage as! _TreeListViewStorage<Message, Message>).tree
    }

    /// The offset of message `id` in the unread view of `state` (the view read here is gone
    /// when it returns).
    static func offset(of id: Int, in state: InboxState) -> Int {
        state.computed.unread.firstIndex { $0.id == id }!
    }

    /// The root of the unread view's tree, and the leaf holding the unread message at `offset`,
    /// weakly: the views read here are gone when it returns.
    static func nodes(_ state: InboxState, leafAt offset: Int) -> (root: Weak, leaf: Weak) {
        let tree = tree(state.computed.unread)
        return (Weak(tree.root), Weak(tree.leaf(containing: offset).node))
    }

    final class Weak {
        weak var node: Tree.Node?

        init(_ node: Tree.Node?) {
            self.node = node
        }
    }

    @Test("an edit after a read that kept nothing edits the nodes on its path in place")
    func editsInPlace() {
        var state = InboxState(messages: InboxStateTests.messages(3_000))
        // The first edit follows the full evaluation, the others an update. Each message's next
        // unread one is in the same leaf: that leaf is on the edit's path.
        for (id, next) in [(8, 10), (100, 101), (2_000, 2_002)] {
            let before = Self.nodes(state, leafAt: Self.offset(of: next, in: state))
            #expect(before.root.node != nil && before.leaf.node != nil)
            state.messages[id: id]?.isRead = true
            let after = Self.nodes(state, leafAt: Self.offset(of: next, in: state))
            #expect(after.root.node != nil && after.root.node === before.root.node, "edit of \(id)")
            #expect(after.leaf.node != nil && after.leaf.node === before.leaf.node, "edit of \(id)")
        }
        #expect(Array(state.computed.unread) == InboxStateTests.Expected(state).unread)
    }

    @Test("views read before edits keep their elements, whole and mid-iteration")
    func heldViewsKeepTheirElements() {
        var generator = SeededGenerator(seed: 34)
        var state = InboxState(messages: InboxStateTests.messages(2_000))
        var held: [(view: ListView<Message>, elements: [Message])] = []
        var iterator = state.computed.unread.makeIterator()
        var iterated: [Message] = []
        let firstElements = Array(state.computed.unread)
        for step in 0..<400 {
            let id = Int.random(in: 0..<2_000, using: &generator)
            if step % 3 == 0 {
                state.messages[id: id]?.date = Date(timeIntervalSince1970: .random(in: 0..<2_000, using: &generator))
            } else {
                state.messages[id: id]?.isRead.toggle()
            }
            if step % 40 == 0 {
                let view = state.computed.unread
                held.append((view, Array(view)))
            }
            if step % 10 == 0, let next = iterator.next() { iterated.append(next) }
        }
        #expect(Array(state.computed.unread) == InboxStateTests.Expected(state).unread)
        for (index, entry) in held.enumerated() {
            #expect(Array(entry.view) == entry.elements, "view \(index)")
            #expect(entry.view.count == entry.elements.count)
            #expect(entry.view.last == entry.elements.last)
        }
        while let next = iterator.next() { iterated.append(next) }
        #expect(iterated == firstElements)
    }

    @Test("copies of a state that diverge keep their own views, then edit their own trees in place")
    func divergingCopies() {
        var a = InboxState(messages: InboxStateTests.messages(3_000))
        let shared = Array(a.computed.unread)
        var b = a
        a.messages[id: 1]?.isRead = true
        b.messages[id: 2]?.isRead = true
        let viewA = a.computed.unread
        let viewB = b.computed.unread
        #expect(Array(viewA) == InboxStateTests.Expected(a).unread)
        #expect(Array(viewB) == InboxStateTests.Expected(b).unread)
        #expect(shared.applying(viewA.changes.difference) == Array(viewA))
        #expect(shared.applying(viewB.changes.difference) == Array(viewB))
        let elementsA = Array(viewA)
        let elementsB = Array(viewB)
        for round in 0..<30 {
            let beforeA = Self.nodes(a, leafAt: Self.offset(of: 2_500, in: a))
            a.messages[id: 1_000 + round * 3 + 1]?.isRead = true
            let afterA = Self.nodes(a, leafAt: Self.offset(of: 2_500, in: a))
            if round == 0 {
                // `viewA`, still held, shares the root: the edit copies it.
                #expect(afterA.root.node !== beforeA.root.node)
            } else {
                #expect(afterA.root.node != nil && afterA.root.node === beforeA.root.node, "round \(round)")
            }
            #expect(afterA.leaf.node != nil && afterA.leaf.node === beforeA.leaf.node, "round \(round)")
            b.messages[id: 1_500 + round]?.date = Date(timeIntervalSince1970: Double(-round))
            #expect(Array(a.computed.unread) == InboxStateTests.Expected(a).unread)
            #expect(Array(b.computed.unread) == InboxStateTests.Expected(b).unread)
        }
        #expect(Array(viewA) == elementsA)
        #expect(Array(viewB) == elementsB)
    }

    @Test("an edit that leaves the view as it was keeps its version and the cached changes")
    func cutoffKeepsChanges() {
        var state = InboxState(messages: InboxStateTests.messages(300))
        let first = Array(state.computed.unread)
        var version = S.unread.version(state)
        // After the full evaluation: the cached changes are a reload.
        state.messages[id: 3]?.subject = "Read already"                 // not in the view
        var view = state.computed.unread
        #expect(S.unread.version(state) == version)
        #expect(!view.changes.isIncremental)
        #expect(view.changes.insertions == Array(0..<first.count))
        #expect(Array(view) == first)
        // After an update: the cached changes are that update's.
        state.messages[id: 8]?.isRead = true
        let removals = state.computed.unread.changes.removals
        #expect(removals == [5])   // after messages 1, 2, 4, 5 and 7
        version = S.unread.version(state)
        let subject = state.messages[id: 10]!.subject
        state.messages[id: 10]?.subject = subject                        // an equal value
        view = state.computed.unread
        #expect(S.unread.version(state) == version)
        #expect(view.changes.isIncremental && view.changes.removals == removals)
        #expect(Array(view) == InboxStateTests.Expected(state).unread)
    }
}
