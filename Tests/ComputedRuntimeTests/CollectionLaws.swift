import Testing

/// Checks of the `Sequence`, `Collection`, `BidirectionalCollection` and `RandomAccessCollection`
/// laws for the runtime's collections, in the spirit of swift-collections' conformance checkers:
/// every way of walking a collection (its iterator, `index(after:)` and `index(before:)`,
/// `index(_:offsetBy:)` and its `limitedBy:` form at and past both ends, `distance`, slices,
/// `reversed()`, `indices`) must agree with the elements it is expected to hold.
///
/// Each function returns a description of every law that failed (empty when all hold), so a
/// property test can report the first failing step with its seed.
func collectionLawFailures<C: RandomAccessCollection>(_ collection: C, expected: [C.Element], _ name: String) -> [String]
where C.Element: Equatable {
    var failures: [String] = []
    func check(_ condition: Bool, _ law: @autoclosure () -> String) {
        if !condition { failures.append("\(name): \(law())") }
    }
    let count = expected.count
    check(collection.count == count, "count \(collection.count) != \(count)")
    check(collection.isEmpty == expected.isEmpty, "isEmpty")
    check(collection.underestimatedCount <= count, "underestimatedCount \(collection.underestimatedCount) > count \(count)")

    // The iterator, to its end and past it.
    var iterator = collection.makeIterator()
    var iterated: [C.Element] = []
    while let element = iterator.next() { iterated.append(element) }
    check(iterated == expected, "iteration gives \(iterated.count) elements that differ from the \(count) expected")
    check(iterator.next() == nil, "next() after the end is not nil")

    // Forward and backward walks by index.
    var forward: [C.Element] = []
    var index = collection.startIndex
    while index != collection.endIndex {
        forward.append(collection[index])
        index = collection.index(after: index)
    }
    check(forward == expected, "the walk by index(after:) differs")
    var backward: [C.Element] = []
    index = collection.endIndex
    while index != collection.startIndex {
        index = collection.index(before: index)
        backward.append(collection[index])
    }
    check(backward == expected.reversed(), "the walk by index(before:) differs")
    check(Array(collection.reversed()) == expected.reversed(), "reversed() differs")
    check(collection.indices.count == count, "indices.count \(collection.indices.count) != \(count)")
    check(collection.indices.map { collection[$0] } == expected, "the elements at indices differ")
    check(collection.first == expected.first && collection.last == expected.last, "first or last differs")

    // Offsets, distances and limits at and past both ends, at a few places.
    let start = collection.startIndex
    let end = collection.endIndex
    check(collection.distance(from: start, to: end) == count, "distance(start, end) != count")
    check(collection.index(start, offsetBy: count) == end, "index(start, offsetBy: count) != endIndex")
    check(collection.index(end, offsetBy: -count) == start, "index(end, offsetBy: -count) != startIndex")
    check(collection.index(start, offsetBy: count, limitedBy: end) == end, "offset to the end, limited by the end, is not the end")
    check(collection.index(start, offsetBy: count + 1, limitedBy: end) == nil, "offset past the end, limited by the end, is not nil")
    check(collection.index(end, offsetBy: -count, limitedBy: start) == start, "offset to the start, limited by the start, is not the start")
    check(collection.index(end, offsetBy: -count - 1, limitedBy: start) == nil, "offset past the start, limited by the start, is not nil")
    for offset in Set([0, 1, count / 3, count / 2, count - 1, count].filter { $0 >= 0 && $0 <= count }).sorted() {
        let position = collection.index(start, offsetBy: offset)
        check(collection.distance(from: start, to: position) == offset, "distance to offset \(offset)")
        check(collection.distance(from: position, to: start) == -offset, "distance back from offset \(offset)")
        check(collection.distance(from: position, to: end) == count - offset, "distance from offset \(offset) to the end")
        check(collection.index(position, offsetBy: count - offset, limitedBy: end) == end, "offset \(offset) to the end, limited")
        check(collection.index(position, offsetBy: -offset, limitedBy: start) == start, "offset \(offset) to the start, limited")
        check(collection.index(position, offsetBy: count - offset + 1, limitedBy: end) == nil, "offset \(offset) past the end, limited")
        check(collection.index(position, offsetBy: -offset - 1, limitedBy: start) == nil, "offset \(offset) past the start, limited")
        if offset < count {
            check(collection[position] == expected[offset], "the element at offset \(offset) differs")
        }
        // Slices from here: to the end, and a short one.
        check(Array(collection[position...]) == Array(expected[offset...]), "the slice from offset \(offset) differs")
        let upper = Swift.min(count, offset + 3)
        let slice = collection[position..<collection.index(start, offsetBy: upper)]
        check(Array(slice) == Array(expected[offset..<upper]), "the slice \(offset)..<\(upper) differs")
        check(slice.count == upper - offset, "the slice \(offset)..<\(upper) counts \(slice.count)")
    }
    return failures
}

/// `Equatable` (reflexive, symmetric, and agreeing with element-wise equality) and, through
/// `hash`, `Hashable` (equal values hash equally) for two collections.
func equatableLawFailures<C: Collection & Equatable>(_ lhs: C, _ rhs: C, _ name: String, hash: ((C) -> Int)? = nil) -> [String]
where C.Element: Equatable {
    var failures: [String] = []
    if lhs != lhs || rhs != rhs { failures.append("\(name): == is not reflexive") }
    if (lhs == rhs) != (rhs == lhs) { failures.append("\(name): == is not symmetric") }
    if (lhs == rhs) != lhs.elementsEqual(rhs) { failures.append("\(name): == disagrees with the elements") }
    if let hash, lhs == rhs, hash(lhs) != hash(rhs) { failures.append("\(name): equal values hash differently") }
    return failures
}

/// A collection that breaks one law at a time, to show that the checks above catch each.
struct LawBreakingCollection: RandomAccessCollection {
    enum Fault: CaseIterable { case none, iteratorOutOfOrder, limitIgnored, lastElementWrong }
    var elements: [Int]
    var fault: Fault

    var startIndex: Int { 0 }
    var endIndex: Int { elements.count }
    subscript(position: Int) -> Int { fault == .lastElementWrong && position == elements.count - 1 ? -1 : elements[position] }

    func makeIterator() -> IndexingIterator<[Int]> {
        (fault == .iteratorOutOfOrder ? Array(elements.reversed()) : elements).makeIterator()
    }

    func index(_ i: Int, offsetBy distance: Int, limitedBy limit: Int) -> Int? {
        if fault == .limitIgnored { return i + distance }
        let l = limit - i
        if distance > 0 ? l >= 0 && l < distance : l <= 0 && distance < l { return nil }
        return i + distance
    }

}

@Suite("Collection laws: the checker")
struct CollectionLawCheckerTests {
    @Test("each broken law is reported, and a lawful collection passes", arguments: LawBreakingCollection.Fault.allCases)
    func reportsEachFault(fault: LawBreakingCollection.Fault) {
        let elements = Array(0..<10)
        let failures = collectionLawFailures(LawBreakingCollection(elements: elements, fault: fault), expected: elements, "\(fault)")
        #expect(failures.isEmpty == (fault == .none), "\(failures)")
    }
}
