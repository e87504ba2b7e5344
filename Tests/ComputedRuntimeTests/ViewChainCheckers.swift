import ConcurrencyTestSupport
import Foundation
import Testing

@testable import ComputedRuntime

/// A query chained from another query's view (`timeline.filter { … }`), evaluated as a generated
/// state does: the upstream pipeline updated at every read, the downstream only at some (so that
/// it follows several of the upstream's updates at once), the upstream's view kept as a memo cell
/// keeps it when an update leaves it unchanged (cutoff), and the upstream pipeline's copies
/// diverging. Compared with the same expressions on an `Array`, with the view's changes replayed
/// on the previous array.
final class ChainChecker<Upstream: IncrementalListQuery, Downstream: IncrementalListQuery, Element: Equatable>: QueryChecking
where Upstream.Source == Mail, Upstream.Output == ListView<Mail>, Downstream.Source == Mail, Downstream.Output == ListView<Element> {
    let name: String
    let upstream: (IdentifiedList<Mail>) -> Upstream
    let downstream: (ListView<Mail>) -> Downstream
    let expected: ([Mail]) -> [Element]
    var upstreamPipeline = IncrementalPipeline<Upstream>()
    var pipeline = IncrementalPipeline<Downstream>()
    /// A copy of the upstream pipeline, put back later: it goes on from an older result.
    var spare: IncrementalPipeline<Upstream>? = nil
    /// The upstream's value, as its memo cell holds it.
    var cached: ListView<Mail>? = nil
    var previous: [Element] = []
    var generator: SeededGenerator

    init(_ name: String, seed: UInt64, _ upstream: @escaping (IdentifiedList<Mail>) -> Upstream,
         _ downstream: @escaping (ListView<Mail>) -> Downstream, expected: @escaping ([Mail]) -> [Element]) {
        self.name = name
        self.upstream = upstream
        self.downstream = downstream
        self.expected = expected
        self.generator = SeededGenerator(seed: seed)
    }

    var pipelineCounts: (full: Int, incremental: Int) { (pipeline.fullRecomputations, pipeline.incrementalUpdates) }

    func check(_ list: IdentifiedList<Mail>, _ array: [Mail], reuse: Bool) -> [String] {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<2: spare = upstreamPipeline
        case 2..<4: if let spare { upstreamPipeline = spare }
        default: break
        }
        let view = upstreamPipeline.update(with: upstream(list), reuse: reuse)
        if let cached, view.changes._leavesViewUnchanged(==), cached.count == view.count {
            // Cut off: readers keep the cached view (equal to the new one).
        } else {
            cached = view
        }
        // The downstream is read at some of the upstream's reads only (always when the
        // threshold moved: its closures read it, as the generator tells the table).
        guard !reuse || Int.random(in: 0..<3, using: &generator) != 0 else { return [] }
        let result = pipeline.update(with: downstream(cached!), reuse: reuse)
        let want = expected(array)
        var failures: [String] = []
        if Array(result) != want { failures.append("\(name): view \(Array(result)) != array \(want)") }
        failures += collectionLawFailures(result, expected: want, name)
        if previous.applying(result.changes.difference) != want {
            failures.append("\(name): previous.applying(changes.difference) != new (incremental: \(result.changes.isIncremental))")
        }
        if result.changes.isIncremental != pipeline.lastUpdateWasIncremental {
            failures.append("\(name): changes.isIncremental \(result.changes.isIncremental), pipeline says \(pipeline.lastUpdateWasIncremental)")
        }
        previous = want
        return failures
    }
}

/// Chains from a view, each beside the same expression on arrays (`sorted` on arrays is stable,
/// as the queries' sorts are).
func chainCheckers(_ parameters: QueryParameters) -> [any QueryChecking] {
    var checkers: [any QueryChecking] = []
    checkers.append(ChainChecker("unread.prefix(k)", seed: 11,
                                 { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.filter { !$0.isRead }.sorted(by: \.date) },
                                 { (view: ListView<Mail>) -> PrefixListViewQuery<Mail, Mail> in view.prefix(parameters.k) },
                                 expected: { Array($0.filter { !$0.isRead }.sorted { $0.date < $1.date }.prefix(parameters.k)) }))
    checkers.append(ChainChecker("timeline.filter", seed: 12,
                                 { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.sorted(by: \.date) },
                                 { (view: ListView<Mail>) -> ListViewQuery<Mail, Mail> in view.filter { !$0.isRead } },
                                 expected: { $0.sorted { $0.date < $1.date }.filter { !$0.isRead } }))
    checkers.append(ChainChecker("timeline.filter(threshold).sorted(by: size).map", seed: 13,
                                 { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.filter { $0.folder != 0 }.sorted(by: \.date) },
                                 { (view: ListView<Mail>) -> ListViewQuery<Mail, String> in
                                     view.filter { $0.date < parameters.threshold }.sorted(by: \.size, descending: true).map { "\($0.id)" }
                                 },
                                 expected: { array in
                                     array.filter { $0.folder != 0 }.sorted { $0.date < $1.date }.filter { $0.date < parameters.threshold }
                                         .sorted { $0.size > $1.size }.map { "\($0.id)" }
                                 }))
    checkers.append(ChainChecker("list order.sorted(closure).prefix(7)", seed: 14,
                                 { (list: IdentifiedList<Mail>) -> ListQuery<Mail, Mail> in list.filter { $0.size > 3 } },
                                 { (view: ListView<Mail>) -> PrefixListViewQuery<Mail, Mail> in view.sorted { $0.folder < $1.folder }.prefix(7) },
                                 expected: { Array($0.filter { $0.size > 3 }.sorted { $0.folder < $1.folder }.prefix(7)) }))
    return checkers
}
