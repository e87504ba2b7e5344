/// Development checks, in the spirit of Reselect's: patterns in a trace that cost work for
/// nothing, each a one-line warning with its fix (also at the end of ``ChangeTrace/log``).
extension ChangeTrace {
    /// A value needs at least this many recomputations before the checks judge it.
    public static let minimumRecomputationsChecked = 8

    /// The share of equal results above which a value's inputs are judged wider than it needs.
    public static let wastedShareWarned = 0.75

    /// How many full evaluations after list edits make an incremental value worth a warning.
    public static let fullEvaluationsWarned = 3

    /// How many comparisons of one kind of scoped store make it worth a warning when few of them
    /// woke anything (at most 1 in 10).
    public static let scopeComparisonsWarned = 200

    /// The warnings the kept events and the statistics call for:
    /// - **a value that recomputes to an equal result most of the time** (at least
    ///   ``wastedShareWarned`` of at least ``minimumRecomputationsChecked`` recomputations): it
    ///   reads inputs wider than it needs; the warning names the inputs whose moves most often
    ///   caused the wasted work, and the fix (read a narrower value: a computed value of its own
    ///   that cuts off, or the member it needs);
    /// - **a `ListView`, `ListGroups` or fold evaluated in full after list edits it could have
    ///   followed** (at least ``fullEvaluationsWarned`` times), with the reason: the list was
    ///   replaced rather than edited, its change record was trimmed, or another input moved with
    ///   it every time;
    /// - **a parameterized selector whose cache is too small**: at least
    ///   ``minimumRecomputationsChecked`` misses were for arguments it had evicted, half of its
    ///   misses or more; the fix is a larger `cache N`;
    /// - **many scoped stores compared on every commit**: at least ``scopeComparisonsWarned``
    ///   comparisons of one kind of scoped store, at most 1 in 10 of which woke it; for list
    ///   rows the fix is `scope(_:id:)`, which compares only the rows of the elements a commit
    ///   changed.
    public var warnings: [String] {
        wastedWorkWarnings + fullEvaluationWarnings + cacheMissWarnings + scopeWarnings
    }

    private var wastedWorkWarnings: [String] {
        let statistics = self.statistics
        let wasteful = statistics.filter { $0.value.recomputations >= Self.minimumRecomputationsChecked && $0.value.wastedShare >= Self.wastedShareWarned }
        guard !wasteful.isEmpty else { return [] }
        // The inputs whose moves caused the equal results, per value, from the events kept.
        var causes: [ValueID: [String: Int]] = [:]
        for refresh in cutOffs where wasteful[refresh.value] != nil {
            for cause in refresh.causes { causes[refresh.value, default: [:]][cause.input, default: 0] += 1 }
        }
        return wasteful.sorted { ($0.value.cutOffs, $0.key.description) > ($1.value.cutOffs, $1.key.description) }.map { value, numbers in
            let percent = Int((numbers.wastedShare * 100).rounded())
            let because = Self.mostFrequent(causes[value] ?? [:]).map { ", most often after \($0) moved" } ?? ""
            return "warning: \(value) recomputed \(numbers.recomputations) times to an equal result \(numbers.cutOffs) times (\(percent)%)\(because): "
                + "it reads more than it needs; read a narrower value (a computed value of its own, which cuts off, or the member it uses)"
        }
    }

    private var fullEvaluationWarnings: [String] {
        var full: [ValueID: [ListEvaluation.Reason: Int]] = [:]
        var others: [ValueID: [String: Int]] = [:]
        for refresh in recomputations {
            guard case .full(let reason) = refresh.evaluation, reason != .first else { continue }
            // Another input alone moving is what a full evaluation is for (a new search string);
            // with more than one cause, the list moved too and was not followed.
            if reason == .otherInputsMoved && refresh.causes.count < 2 { continue }
            full[refresh.value, default: [:]][reason, default: 0] += 1
            for cause in refresh.causes { others[refresh.value, default: [:]][cause.input, default: 0] += 1 }
        }
        return full.compactMap { value, reasons -> (Int, String)? in
            let count = reasons.values.reduce(0, +)
            guard count >= Self.fullEvaluationsWarned, let (reason, _) = reasons.max(by: { ($0.value, "\($1.key)") < ($1.value, "\($0.key)") }) else { return nil }
            let why: String
            switch reason {
            case .changesUnavailable:
                why = "the list's changes were unknown: it was replaced by a new value, or edited more than its change record keeps, between two reads; "
                    + "edit it in place (`list[id: id]?.x = …`, `append`, `remove(id:)`) rather than assigning a new list, or read the value more often"
            case .otherInputsMoved:
                let inputs = Self.mostFrequent(others[value] ?? [:]) ?? "another input"
                why = "an input other than the list moved with it each time (\(inputs)); "
                    + "a value that every edit moves forces a full evaluation: read it outside the query, or keep it out of the commits that edit the list"
            case .joinedChangesUnavailable:
                why = "the changes of the other side of its join were unknown: that list was replaced by a new value, or edited more than its change record keeps, between two reads; "
                    + "edit it in place rather than assigning a new list, or read the value more often"
            case .changesNotFollowed, .first:
                why = "its edits touched so much of the list that following them was not worth it"
            }
            return (count, "warning: \(value) was evaluated in full \(count) times after list edits: \(why)")
        }.sorted { ($0.0, $1.1) > ($1.0, $0.1) }.map(\.1)
    }

    private var cacheMissWarnings: [String] {
        var evicted: [ValueID: Set<String>] = [:]
        var misses: [ValueID: (all: Int, again: Int, arguments: Set<String>, capacity: Int)] = [:]
        for miss in cacheMisses {
            var entry = misses[miss.selector] ?? (0, 0, [], miss.capacity)
            entry.all += 1
            if evicted[miss.selector]?.contains(miss.argument) == true { entry.again += 1 }
            entry.arguments.insert(miss.argument)
            misses[miss.selector] = entry
            if let dropped = miss.evicted { evicted[miss.selector, default: []].insert(dropped) }
        }
        return misses.filter { $0.value.again >= Self.minimumRecomputationsChecked && $0.value.again * 2 >= $0.value.all }
            .sorted { ($0.value.again, $0.key.description) > ($1.value.again, $1.key.description) }
            .map { selector, numbers in
                "warning: \(selector) missed its cache \(numbers.all) times, \(numbers.again) of them for arguments it had evicted: "
                    + "its \(numbers.capacity) entries hold fewer arguments than are in use (\(numbers.arguments.count) seen); "
                    + "declare a larger cache (`cache \(numbers.arguments.count)` in the spec, `capacity:` in code)"
            }
    }

    private var scopeWarnings: [String] {
        scopeComparisons.filter { $0.value.compared >= Self.scopeComparisonsWarned && $0.value.woken * 10 <= $0.value.compared }
            .sorted { ($0.value.compared, $0.key) > ($1.value.compared, $1.key) }
            .map { kind, numbers in
                "warning: scoped stores \(kind) compared their state \(numbers.compared) times after commits and were woken \(numbers.woken) times: "
                    + "every commit asks every such store; for the rows of a list, make them with `scope(\\.list, id: id)`, "
                    + "which asks only the rows of the elements a commit changed, not `scope(\\.list[id: id])`"
            }
    }

    /// The three keys counted most often, joined by `, ` (nil when there are none).
    private static func mostFrequent(_ counts: [String: Int]) -> String? {
        let keys = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        return keys.isEmpty ? nil : keys.prefix(3).joined(separator: ", ")
    }
}
