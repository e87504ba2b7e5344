import ConcurrencyTestSupport
import Testing

@testable import ComputedRuntime

/// A key that is not `Comparable`: sections ordered by a property of it.
struct FolderKey: Hashable, Sendable {
    var number: Int
}

/// Evaluates sections through their pipeline and compares them with the same expression on an
/// `Array` (`Dictionary(grouping:)`, keys sorted): the keys in order, each section's elements,
/// the section changes replayed on the previous keys, each section's element changes replayed
/// on its previous elements, exact `changedKeys`, `==`, and older results that keep their
/// sections.
final class SectionChecker<Query: IncrementalListQuery, Key: Hashable & Sendable>: QueryChecking
where Query.Source == Mail, Query.Output == ListSections<Key, Mail> {
    typealias Expected = [(key: Key, elements: [Mail])]
    let name: String
    let parameters: QueryParameters
    let make: (IdentifiedList<Mail>) -> Query
    let expected: ([Mail]) -> Expected
    var pipeline = IncrementalPipeline<Query>()
    var previous: Expected = []
    var previousSections: ListSections<Key, Mail>? = nil
    var kept: (sections: ListSections<Key, Mail>, expected: Expected)? = nil
    var reads = 0

    init(_ name: String, _ parameters: QueryParameters, _ make: @escaping (IdentifiedList<Mail>) -> Query,
         expected: @escaping ([Mail]) -> Expected) {
        self.name = name
        self.parameters = parameters
        self.make = make
        self.expected = expected
    }

    var pipelineCounts: (full: Int, incremental: Int) { (pipeline.fullRecomputations, pipeline.incrementalUpdates) }

    func check(_ list: IdentifiedList<Mail>, _ array: [Mail], reuse: Bool) -> [String] {
        let query = parameters.orderMoved ? make(list)._keyOrderChanged() : make(list)
        let sections = pipeline.update(with: query, reuse: reuse)
        let want = expected(array)
        var failures = Self.contentFailures(sections, want, name)
        let changes = sections.changes
        let (oldKeys, newKeys) = (previous.map(\.key), want.map(\.key))
        if oldKeys.applying(changes.difference) != newKeys {
            failures.append("\(name): the previous keys with the section changes applied are not the new keys")
        }
        let difference = changes.difference
        if difference.removals.count != changes.removals.count + changes.moves.count
            || difference.insertions.count != changes.insertions.count + changes.moves.count {
            failures.append("\(name): removals, insertions and moves do not add up to the difference")
        }
        if !parameters.orderMoved, reuse, pipeline.lastUpdateWasIncremental, !changes.moves.isEmpty {
            failures.append("\(name): sections moved though the order's inputs did not")
        }
        let old = Dictionary(uniqueKeysWithValues: previous)
        let new = Dictionary(uniqueKeysWithValues: want)
        let changedWant = Set(new.keys.filter { new[$0] != old[$0] } + old.keys.filter { new[$0] == nil })
        if changes.changedKeys != changedWant {
            failures.append("\(name): changed keys \(changes.changedKeys.count) != \(changedWant.count) "
                            + "(incremental: \(pipeline.lastUpdateWasIncremental))")
        }
        if changes.isEmpty != (oldKeys == newKeys && changedWant.isEmpty) { failures.append("\(name): isEmpty is wrong") }
        for section in sections where (old[section.key] ?? []).applying(section.elements.changes.difference) != new[section.key] {
            failures.append("\(name): the element changes of section \(section.key) do not replay: old \((old[section.key] ?? []).map(\.id)) new \((new[section.key] ?? []).map(\.id)) diff \(section.elements.changes.difference.map { change -> String in switch change { case .insert(let o, let e, let a): return "+\(o):\((e as Mail).id):\(a ?? -1)"; case .remove(let o, let e, let a): return "-\(o):\((e as Mail).id):\(a ?? -1)" } })")
        }
        if let previousSections {
            failures += Self.contentFailures(previousSections, previous, "\(name), the previous result")
            let equal = newKeys == oldKeys && changedWant.isEmpty
            if (sections == previousSections) != equal || (previousSections == sections) != equal {
                failures.append("\(name): (new == previous) is \(sections == previousSections), the arrays say \(equal)")
            }
        }
        if let kept {
            failures += Self.contentFailures(kept.sections, kept.expected, "\(name), a result kept from before")
        }
        reads += 1
        if reads % 16 == 1 { kept = (sections, want) }
        previousSections = sections
        previous = want
        return failures
    }

    /// Whether `sections` holds exactly `want`: keys in order, counts, and each section.
    static func contentFailures(_ sections: ListSections<Key, Mail>, _ want: Expected, _ name: String) -> [String] {
        var failures: [String] = []
        if sections.keys != want.map(\.key) { failures.append("\(name): keys in another order or not the same") }
        let wantSections = want.map { ListSection(key: $0.key, elements: ListView($0.elements)) }
        if Array(sections) != wantSections { failures.append("\(name): the sections differ") }
        if sections.count % 4 == 0 { failures += collectionLawFailures(sections, expected: wantSections, name) }
        for (offset, (key, elements)) in want.enumerated() where offset < sections.count {
            let section = sections[offset]
            if section.count != elements.count || sections.count(of: key) != elements.count { failures.append("\(name): count of \(key)") }
            if Array(sections[key: key]) != elements { failures.append("\(name): section \(key) by key differs") }
            if offset % 16 == 0 { failures += collectionLawFailures(section.elements, expected: elements, "\(name), section \(key)") }
        }
        return failures
    }
}

/// The section queries the property tests compare with `Array`.
func sectionCheckers(_ parameters: QueryParameters) -> [any QueryChecking] {
    /// The keys of `groups`, sorted by `less` and then by `tie`.
    func sections<K: Hashable>(_ groups: [K: [Mail]], _ less: (K, K) -> Bool, tie: (K, K) -> Bool) -> [(key: K, elements: [Mail])] {
        groups.keys.sorted { less($0, $1) || (!less($1, $0) && tie($0, $1)) }.map { ($0, groups[$0]!) }
    }
    var checkers: [any QueryChecking] = []
    // Few keys, ordered by a name table that another input holds (renamed at random): ties
    // between equal names go by the keys' own order.
    checkers.append(SectionChecker("filter.sorted.grouped.sortedKeys(by: names)", parameters,
                                   { (list: IdentifiedList<Mail>) -> SectionedListQuery<Mail, Int, Mail> in
                                       list.filter { !$0.isRead }.sorted(by: \.date).grouped(by: { $0.folder })
                                           .sortedKeys { parameters.name(of: $0) < parameters.name(of: $1) }
                                   },
                                   expected: { array in
                                       sections(Dictionary(grouping: array.filter { !$0.isRead }.sorted { $0.date < $1.date }, by: \.folder),
                                                { parameters.name(of: $0) < parameters.name(of: $1) }, tie: <)
                                   }))
    // 50 keys, descending.
    checkers.append(SectionChecker("sorted.grouped(by: date).sortedKeys(descending:)", parameters,
                                   { (list: IdentifiedList<Mail>) -> SectionedListQuery<Mail, Int, Mail> in
                                       list.sorted(by: \.size).grouped(by: { $0.date }).sortedKeys(descending: true)
                                   },
                                   expected: { array in sections(Dictionary(grouping: array.sorted { $0.size < $1.size }, by: \.date), { $0 > $1 }, tie: <) }))
    // Many keys that come and go, by a name table with many ties.
    checkers.append(SectionChecker("grouped(by: id % 211).sortedKeys(by: names)", parameters,
                                   { (list: IdentifiedList<Mail>) -> SectionedListQuery<Mail, Int, Mail> in
                                       list.grouped(by: { $0.id % 211 }).sortedKeys { parameters.name(of: $0) > parameters.name(of: $1) }
                                   },
                                   expected: { array in
                                       sections(Dictionary(grouping: array, by: { $0.id % 211 }), { parameters.name(of: $0) > parameters.name(of: $1) }, tie: <)
                                   }))
    // A key that is not Comparable, ordered by a key path of it (a total order).
    checkers.append(SectionChecker("filter.grouped(by: FolderKey).sortedKeys(by: \\.number)", parameters,
                                   { (list: IdentifiedList<Mail>) -> SectionedListQuery<Mail, FolderKey, Mail> in
                                       list.filter { $0.size > 3 }.grouped(by: { FolderKey(number: $0.folder * 7 + $0.date % 5) })
                                           .sortedKeys(by: \.number)
                                   },
                                   expected: { array in
                                       sections(Dictionary(grouping: array.filter { $0.size > 3 }, by: { FolderKey(number: $0.folder * 7 + $0.date % 5) }),
                                                { $0.number < $1.number }, tie: { _, _ in false })
                                   }))
    return checkers
}
