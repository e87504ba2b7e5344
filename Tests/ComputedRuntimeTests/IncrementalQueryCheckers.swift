import ConcurrencyTestSupport
import Foundation
import Testing

@testable import ComputedRuntime

// The seeded generator is ConcurrencyTestSupport's `SeededGenerator` (SplitMix64).

/// Values the queries' closures read besides the list, as a computed body reads other inputs.
final class QueryParameters: @unchecked Sendable {
    // Safety: written only between evaluations, on the test's thread.
    var threshold = 25
    var k = 10
}

/// Evaluates one query through its pipeline and compares the result with the same expression
/// on an `Array`, and the view's changes with the difference of the two arrays.
protocol QueryChecking: AnyObject {
    var name: String { get }
    var pipelineCounts: (full: Int, incremental: Int) { get }
    /// Returns the failures found (empty when all is well).
    func check(_ list: IdentifiedList<Mail>, _ array: [Mail], reuse: Bool) -> [String]
}

final class ViewChecker<Query: IncrementalListQuery, Element: Equatable>: QueryChecking
where Query.Source == Mail, Query.Output == ListView<Element> {
    let name: String
    let make: (IdentifiedList<Mail>) -> Query
    let expected: ([Mail]) -> [Element]
    var pipeline = IncrementalPipeline<Query>()
    var previous: [Element] = []
    var previousView = ListView<Element>()

    init(_ name: String, _ make: @escaping (IdentifiedList<Mail>) -> Query, expected: @escaping ([Mail]) -> [Element]) {
        self.name = name
        self.make = make
        self.expected = expected
    }

    var pipelineCounts: (full: Int, incremental: Int) { (pipeline.fullRecomputations, pipeline.incrementalUpdates) }

    func check(_ list: IdentifiedList<Mail>, _ array: [Mail], reuse: Bool) -> [String] {
        let view = pipeline.update(with: make(list), reuse: reuse)
        let want = expected(array)
        var failures: [String] = []
        let got = Array(view)
        if got != want { failures.append("\(name): view \(got) != array \(want)") }
        if view.count != want.count { failures.append("\(name): count \(view.count) != \(want.count)") }
        failures += collectionLawFailures(view, expected: want, name)
        failures += equatableLawFailures(view, previousView, name)
        previousView = view
        let changes = view.changes
        if previous.applying(changes.difference) != want {
            failures.append("\(name): previous.applying(changes.difference) != new (incremental: \(changes.isIncremental))")
        }
        if changes.difference.removals.count != changes.removals.count + changes.moves.count + changes.updates.count
            || changes.difference.insertions.count != changes.insertions.count + changes.moves.count + changes.updates.count {
            failures.append("\(name): change groups do not add up to the difference")
        }
        for removal in changes.removals where removal >= previous.count { failures.append("\(name): removal \(removal) out of range") }
        for move in changes.moves + changes.updates where move.from >= previous.count || move.to >= want.count {
            failures.append("\(name): move \(move) out of range")
        }
        previous = want
        return failures
    }
}

final class FoldChecker<Query: IncrementalListQuery>: QueryChecking where Query.Source == Mail, Query.Output == Int {
    let name: String
    let make: (IdentifiedList<Mail>) -> Query
    let expected: ([Mail]) -> Int
    var pipeline = IncrementalPipeline<Query>()

    init(_ name: String, _ make: @escaping (IdentifiedList<Mail>) -> Query, expected: @escaping ([Mail]) -> Int) {
        self.name = name
        self.make = make
        self.expected = expected
    }

    var pipelineCounts: (full: Int, incremental: Int) { (pipeline.fullRecomputations, pipeline.incrementalUpdates) }

    func check(_ list: IdentifiedList<Mail>, _ array: [Mail], reuse: Bool) -> [String] {
        let got = pipeline.update(with: make(list), reuse: reuse)
        let want = expected(array)
        return got == want ? [] : ["\(name): \(got) != \(want)"]
    }
}

final class GroupChecker<Query: IncrementalListQuery>: QueryChecking
where Query.Source == Mail, Query.Output == ListGroups<Int, Mail> {
    let name: String
    let make: (IdentifiedList<Mail>) -> Query
    let expected: ([Mail]) -> [Int: [Mail]]
    var pipeline = IncrementalPipeline<Query>()
    var previous: [Int: [Mail]] = [:]

    init(_ name: String, _ make: @escaping (IdentifiedList<Mail>) -> Query, expected: @escaping ([Mail]) -> [Int: [Mail]]) {
        self.name = name
        self.make = make
        self.expected = expected
    }

    var pipelineCounts: (full: Int, incremental: Int) { (pipeline.fullRecomputations, pipeline.incrementalUpdates) }

    func check(_ list: IdentifiedList<Mail>, _ array: [Mail], reuse: Bool) -> [String] {
        let groups = pipeline.update(with: make(list), reuse: reuse)
        let want = expected(array)
        var failures: [String] = []
        if Set(groups.keys) != Set(want.keys) { failures.append("\(name): keys \(groups.keys.sorted()) != \(want.keys.sorted())") }
        for (key, members) in want {
            if Array(groups[key]) != members {
                failures.append("\(name): group \(key) differs: \(groups[key].map(\.id)) != \(members.map(\.id)), changed \(groups.changedKeys)")
            }
            if groups.count(of: key) != members.count { failures.append("\(name): count of \(key) differs") }
            failures += collectionLawFailures(groups[key], expected: members, "\(name), group \(key)")
        }
        let changedWant = Set(want.keys.filter { want[$0] != previous[$0] } + previous.keys.filter { want[$0] == nil })
        if !changedWant.isSubset(of: groups.changedKeys) { failures.append("\(name): changed keys \(groups.changedKeys) miss \(changedWant)") }
        previous = want
        return failures
    }
}

/// Every operator and chain the property tests compare with `Array`.
func allCheckers(_ parameters: QueryParameters) -> [any QueryChecking] {
    let byDateThenSubject = [KeyPathComparator(\Mail.date, order: .reverse), KeyPathComparator(\Mail.subject)]
    var checkers: [any QueryChecking] = []
    checkers.append(ViewChecker("filter", { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.filter { !$0.isRead } },
                                expected: { $0.filter { !$0.isRead } }))
    checkers.append(ViewChecker("sorted(by: keyPath)", { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.sorted(by: \.date) },
                                expected: { $0.sorted { $0.date < $1.date } }))
    checkers.append(ViewChecker("sorted(by: closure)", { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.sorted { $0.size > $1.size } },
                                expected: { $0.sorted { $0.size > $1.size } }))
    checkers.append(ViewChecker("sorted(using: comparators)",
                                { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.sorted(using: byDateThenSubject) },
                                expected: { $0.sorted(using: byDateThenSubject) }))
    checkers.append(ViewChecker("filter.sorted",
                                { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.filter { !$0.isRead }.sorted(by: \.date) },
                                expected: { $0.filter { !$0.isRead }.sorted { $0.date < $1.date } }))
    checkers.append(ViewChecker("sorted.sorted",
                                { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.query.sorted(by: \.size).sorted(by: \.date, descending: true) },
                                expected: { $0.sorted { $0.size < $1.size }.sorted { $0.date > $1.date } }))
    checkers.append(ViewChecker("filter.sorted.prefix(10)",
                                { (list: IdentifiedList<Mail>) -> PrefixListQuery<Mail, Mail> in list.filter { !$0.isRead }.sorted(by: \.date).prefix(10) },
                                expected: { Array($0.filter { !$0.isRead }.sorted { $0.date < $1.date }.prefix(10)) }))
    checkers.append(ViewChecker("prefix(k) (k varies)",
                                { (list: IdentifiedList<Mail>) -> PrefixListQuery<Mail, Mail> in list.sorted(by: \.date).prefix(parameters.k) },
                                expected: { Array($0.sorted { $0.date < $1.date }.prefix(parameters.k)) }))
    checkers.append(ViewChecker("prefix(5) in list order", { (list: IdentifiedList<Mail>) -> PrefixListQuery<Mail, Mail> in list.prefix(5) },
                                expected: { Array($0.prefix(5)) }))
    checkers.append(ViewChecker("filter(threshold).sorted.map",
                                { (list: IdentifiedList<Mail>) -> ListQuery<Mail, String> in
                                    list.filter { $0.date < parameters.threshold }.sorted(by: \.date).map(\.subject)
                                },
                                expected: { $0.filter { $0.date < parameters.threshold }.sorted { $0.date < $1.date }.map(\.subject) }))
    checkers.append(ViewChecker("map.filter.sorted.prefix.map",
                                { (list: IdentifiedList<Mail>) -> PrefixListQuery<Mail, Int> in
                                    let sizes: ListQuery<Mail, Int> = list.map { $0.size * 10 + $0.date }
                                    return sizes.filter { $0 % 3 != 0 }.sorted { $0 > $1 }.prefix(7).map { $0 + 1 }
                                },
                                expected: { (array: [Mail]) -> [Int] in
                                    let sizes = array.map { $0.size * 10 + $0.date }.filter { $0 % 3 != 0 }.sorted { $0 > $1 }
                                    return sizes.prefix(7).map { $0 + 1 }
                                }))
    checkers.append(FoldChecker("count(where:)", { (list: IdentifiedList<Mail>) -> ListFoldQuery<Mail, Int> in list.count(where: { !$0.isRead }) },
                                expected: { $0.count { !$0.isRead } }))
    checkers.append(FoldChecker("filter.sum(of:)",
                                { (list: IdentifiedList<Mail>) -> ListFoldQuery<Mail, Int> in list.filter { $0.folder != 0 }.sum(of: { $0.size }) },
                                expected: { $0.filter { $0.folder != 0 }.reduce(0) { $0 + $1.size } }))
    checkers.append(FoldChecker("filter.count()", { (list: IdentifiedList<Mail>) -> ListFoldQuery<Mail, Int> in list.filter { $0.isRead }.count() },
                                expected: { $0.filter(\.isRead).count }))
    checkers.append(GroupChecker("grouped(by: folder)",
                                 { (list: IdentifiedList<Mail>) -> GroupedListQuery<Mail, Int, Mail> in list.grouped(by: { $0.folder }) },
                                 expected: { Dictionary(grouping: $0, by: \.folder) }))
    checkers.append(GroupChecker("filter.sorted.grouped",
                                 { (list: IdentifiedList<Mail>) -> GroupedListQuery<Mail, Int, Mail> in
                                     list.filter { !$0.isRead }.sorted(by: \.date).grouped(by: { $0.folder })
                                 },
                                 expected: { Dictionary(grouping: $0.filter { !$0.isRead }.sorted { $0.date < $1.date }, by: \.folder) }))
    return checkers
}
