import Foundation
import Testing

@testable import ComputedRuntime

/// Counts the calls of a query's projection, which a view runs when an element is read.
private final class ProjectionCounter: @unchecked Sendable {
    // Safety: NSLock guards `calls`.
    private let lock = NSLock()
    private var calls = 0

    func count() { lock.withLock { calls += 1 } }
    func reset() { lock.withLock { calls = 0 } }
    var value: Int { lock.withLock { calls } }
}

@Suite("ListView: iteration costs what it yields")
struct ListViewIterationTests {
    /// A view of 66,667 elements over a tree of several levels, whose projection counts its calls.
    private static func countedView(_ counter: ProjectionCounter) -> ListView<Int> {
        let list = IdentifiedList((0..<100_000).map { Mail(id: $0, date: $0 % 977, isRead: $0 % 3 == 0) })
        let query: ListQuery<Mail, Int> = list.filter { !$0.isRead }.sorted(by: \.date).map { mail in
            counter.count()
            return mail.id
        }
        var pipeline = IncrementalPipeline<ListQuery<Mail, Int>>()
        return pipeline.update(with: query)
    }

    @Test("first(where:), contains and a loop that breaks early read one leaf, not the view")
    func earlyExitReadsOneLeaf() {
        let counter = ProjectionCounter()
        let view = Self.countedView(counter)
        #expect(view.count == 66_666)

        counter.reset()
        let first = view.first { _ in true }
        #expect(first == view[0])
        // One leaf (at most 32 elements) plus the subscript's own read.
        #expect(counter.value <= 33, "first(where:) projected \(counter.value) elements")

        counter.reset()
        var seen = 0
        for _ in view {
            seen += 1
            if seen == 40 { break }
        }
        #expect(counter.value <= 64, "a loop over 40 elements projected \(counter.value)")

        counter.reset()
        #expect(view.contains(view[100]))
        #expect(counter.value <= 1 + 101 + 32, "contains of the 101st element projected \(counter.value)")
    }

    @Test("a full iteration projects each element once, in order, and ends")
    func fullIteration() {
        let counter = ProjectionCounter()
        let view = Self.countedView(counter)
        let expected = (0..<view.count).map { view[$0] }
        counter.reset()
        var iterator = view.makeIterator()
        var elements: [Int] = []
        while let element = iterator.next() { elements.append(element) }
        #expect(elements == expected)
        #expect(counter.value == view.count)
        #expect(iterator.next() == nil && iterator.next() == nil)
        #expect(collectionLawFailures(view, expected: expected, "view of 66,666").isEmpty)
    }

    @Test("iterating a prefix stops at the prefix, inside a leaf")
    func prefixIteration() {
        let list = IdentifiedList((0..<1_000).map { Mail(id: $0, date: 1_000 - $0) })
        var pipeline = IncrementalPipeline<PrefixListQuery<Mail, Mail>>()
        for limit in [0, 1, 5, 31, 32, 33, 100, 999, 1_000, 2_000] {
            let view = pipeline.update(with: list.sorted(by: \.date).prefix(limit), reuse: false)
            let expected = Array(list.elements.sorted { $0.date < $1.date }.prefix(limit))
            #expect(Array(view) == expected && view.elements == expected, "prefix(\(limit))")
            #expect(collectionLawFailures(view, expected: expected, "prefix(\(limit))").isEmpty)
        }
    }

    @Test("views made from arrays, empty views and groups iterate the same way")
    func otherStorages() {
        let numbers = Array(0..<100)
        #expect(collectionLawFailures(ListView(numbers), expected: numbers, "ListView(array)").isEmpty)
        #expect(collectionLawFailures(ListView<Int>(), expected: [], "ListView()").isEmpty)
        let list = IdentifiedList((0..<500).map { Mail(id: $0, date: $0 % 7, folder: $0 % 3) })
        let groups = list.grouped(by: { $0.folder }).groups
        for folder in 0..<4 {
            let expected = list.elements.filter { $0.folder == folder }
            #expect(collectionLawFailures(groups[folder], expected: expected, "group \(folder)").isEmpty)
            #expect(groups[folder].elements == expected, "group \(folder)")
        }
    }
}
