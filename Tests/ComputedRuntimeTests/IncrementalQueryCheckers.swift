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
    /// A name per key, which section queries order their keys by (a name table in another field).
    var names: [Int] = (0..<16).map { $0 % 5 }
    /// Whether `names` changed since the last evaluation (what a generated value tells a
    /// section query: only its key order's inputs moved).
    var orderMoved = false

    /// The name of `key`.
    func name(of key: Int) -> Int { names[abs(key) % names.count] }
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
    /// The previous result, and one kept from an earlier read, with what they held then: later
    /// evaluations must leave them as they were.
    var previousGroups: ListGroups<Int, Mail>? = nil
    var kept: (groups: ListGroups<Int, Mail>, expected: [Int: [Mail]])? = nil
    var reads = 0

    init(_ name: String, _ make: @escaping (IdentifiedList<Mail>) -> Query, expected: @escaping ([Mail]) -> [Int: [Mail]]) {
        self.name = name
        self.make = make
        self.expected = expected
    }

    var pipelineCounts: (full: Int, incremental: Int) { (pipeline.fullRecomputations, pipeline.incrementalUpdates) }

    func check(_ list: IdentifiedList<Mail>, _ array: [Mail], reuse: Bool) -> [String] {
        let groups = pipeline.update(with: make(list), reuse: reuse)
        let want = expected(array)
        var failures = Self.contentFailures(groups, want, name)
        // Exactly the keys whose group changed (the elements are Equatable and not mapped).
        let changedWant = Set(want.keys.filter { want[$0] != previous[$0] } + previous.keys.filter { want[$0] == nil })
        if groups.changedKeys != changedWant {
            failures.append("\(name): changed keys \(groups.changedKeys.sorted()) != \(changedWant.sorted()) "
                            + "(incremental: \(pipeline.lastUpdateWasIncremental))")
        }
        // Values stay values: the previous result and an older one kept their groups.
        if let previousGroups {
            failures += Self.contentFailures(previousGroups, previous, "\(name), the previous result")
            if (groups == previousGroups) != (want == previous) {
                failures.append("\(name): (new == previous) is \(groups == previousGroups), the arrays say \(want == previous)")
            }
            if (previousGroups == groups) != (groups == previousGroups) { failures.append("\(name): == is not symmetric") }
        }
        if let kept {
            failures += Self.contentFailures(kept.groups, kept.expected, "\(name), a result kept from before")
            if (groups == kept.groups) != (want == kept.expected) { failures.append("\(name): == with a kept result is wrong") }
        }
        if groups != groups { failures.append("\(name): == is not reflexive") }
        reads += 1
        if reads % 16 == 1 { kept = (groups, want) }
        previousGroups = groups
        previous = want
        return failures
    }

    /// Whether `groups` holds exactly `want`: keys, counts, and each group as a collection.
    static func contentFailures(_ groups: ListGroups<Int, Mail>, _ want: [Int: [Mail]], _ name: String) -> [String] {
        var failures: [String] = []
        if Set(groups.keys) != Set(want.keys) { failures.append("\(name): keys \(groups.keys.sorted()) != \(want.keys.sorted())") }
        if groups.count != want.count { failures.append("\(name): \(groups.count) groups, not \(want.count)") }
        if groups.counts != want.mapValues(\.count) { failures.append("\(name): counts differ") }
        for (key, members) in want {
            if Array(groups[key]) != members {
                failures.append("\(name): group \(key) differs: \(groups[key].map(\.id)) != \(members.map(\.id)), changed \(groups.changedKeys)")
            }
            if groups.count(of: key) != members.count { failures.append("\(name): count of \(key) differs") }
            failures += collectionLawFailures(groups[key], expected: members, "\(name), group \(key)")
        }
        for absent in [-1, 1_000_000] where groups.count(of: absent) != 0 || !groups[absent].isEmpty {
            failures.append("\(name): absent key \(absent) has elements")
        }
        return failures
    }
}

/// Evaluates a total per key through its pipeline and compares it with the same totals of an
/// `Array`: values, exact `changedKeys`, `==`, and older results that keep their totals.
final class KeyedTotalsChecker<Query: IncrementalListQuery>: QueryChecking
where Query.Source == Mail, Query.Output == KeyedTotals<Int, Int> {
    let name: String
    let make: (IdentifiedList<Mail>) -> Query
    let expected: ([Mail]) -> [Int: Int]
    var pipeline = IncrementalPipeline<Query>()
    var previous: [Int: Int] = [:]
    var previousTotals: KeyedTotals<Int, Int>? = nil
    var kept: (totals: KeyedTotals<Int, Int>, expected: [Int: Int])? = nil
    var reads = 0

    init(_ name: String, _ make: @escaping (IdentifiedList<Mail>) -> Query, expected: @escaping ([Mail]) -> [Int: Int]) {
        self.name = name
        self.make = make
        self.expected = expected
    }

    var pipelineCounts: (full: Int, incremental: Int) { (pipeline.fullRecomputations, pipeline.incrementalUpdates) }

    func check(_ list: IdentifiedList<Mail>, _ array: [Mail], reuse: Bool) -> [String] {
        let totals = pipeline.update(with: make(list), reuse: reuse)
        let want = expected(array)
        var failures = Self.contentFailures(totals, want, name)
        let changedWant = Set(want.keys.filter { want[$0] != previous[$0] } + previous.keys.filter { want[$0] == nil })
        if totals.changedKeys != changedWant {
            failures.append("\(name): changed keys \(totals.changedKeys.sorted()) != \(changedWant.sorted()) "
                            + "(incremental: \(pipeline.lastUpdateWasIncremental))")
        }
        if let previousTotals {
            failures += Self.contentFailures(previousTotals, previous, "\(name), the previous result")
            if (totals == previousTotals) != (want == previous) || (previousTotals == totals) != (want == previous) {
                failures.append("\(name): (new == previous) is \(totals == previousTotals), the arrays say \(want == previous)")
            }
        }
        if let kept {
            failures += Self.contentFailures(kept.totals, kept.expected, "\(name), a result kept from before")
            if (totals == kept.totals) != (want == kept.expected) { failures.append("\(name): == with a kept result is wrong") }
        }
        reads += 1
        if reads % 16 == 1 { kept = (totals, want) }
        previousTotals = totals
        previous = want
        return failures
    }

    static func contentFailures(_ totals: KeyedTotals<Int, Int>, _ want: [Int: Int], _ name: String) -> [String] {
        var failures: [String] = []
        if totals.dictionary != want { failures.append("\(name): \(totals.dictionary) != \(want)") }
        if Set(totals.keys) != Set(want.keys) || totals.count != want.count { failures.append("\(name): keys differ") }
        for (key, value) in want where totals[key] != value || !totals.contains(key) {
            failures.append("\(name): total of \(key) is \(totals[key]), not \(value)")
        }
        for absent in [-1, 1_000_000] where totals[absent] != 0 || totals.contains(absent) {
            failures.append("\(name): absent key \(absent) has a total")
        }
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
    // Many keys: 50 dates (two levels of slots), and one group per element (three levels on the
    // larger lists, with keys that come and go).
    checkers.append(GroupChecker("sorted.grouped(by: date)",
                                 { (list: IdentifiedList<Mail>) -> GroupedListQuery<Mail, Int, Mail> in
                                     list.sorted(by: \.size).grouped(by: { $0.date })
                                 },
                                 expected: { Dictionary(grouping: $0.sorted { $0.size < $1.size }, by: \.date) }))
    checkers.append(GroupChecker("filter.grouped(by: id)",
                                 { (list: IdentifiedList<Mail>) -> GroupedListQuery<Mail, Int, Mail> in
                                     list.filter { $0.folder != 0 }.grouped(by: { $0.id })
                                 },
                                 expected: { Dictionary(grouping: $0.filter { $0.folder != 0 }, by: \.id) }))
    checkers.append(KeyedTotalsChecker("filter.count(by: folder)",
                                       { (list: IdentifiedList<Mail>) -> KeyedFoldQuery<Mail, Int, Int> in list.filter { !$0.isRead }.count(by: { $0.folder }) },
                                       expected: { Dictionary(grouping: $0.filter { !$0.isRead }, by: \.folder).mapValues(\.count) }))
    // Many keys, and totals that an edit may leave as they were (a size changed by a move
    // between two keys, a subject edit).
    checkers.append(KeyedTotalsChecker("sum(of: size, by: date)",
                                       { (list: IdentifiedList<Mail>) -> KeyedFoldQuery<Mail, Int, Int> in list.sum(of: { $0.size }, by: { $0.date }) },
                                       expected: { Dictionary(grouping: $0, by: \.date).mapValues { $0.reduce(0) { $0 + $1.size } } }))
    checkers.append(KeyedTotalsChecker("filter(threshold).map.count(by: id)",
                                       { (list: IdentifiedList<Mail>) -> KeyedFoldQuery<Mail, Int, Int> in
                                           list.filter { $0.date < parameters.threshold }.map { $0.id }.count(by: { $0 % 1_500 })
                                       },
                                       expected: { Dictionary(grouping: $0.filter { $0.date < parameters.threshold }, by: { $0.id % 1_500 }).mapValues(\.count) }))
    checkers += sectionCheckers(parameters)
    checkers += chainCheckers(parameters)
    return checkers
}
