/// Development checks, in the spirit of Reselect's: patterns in a trace that cost work for
/// nothing, each a one-line warning with its fix (also at the end of ``ChangeTrace/log``).
extension ChangeTrace {
    /// A value needs at least this many recomputations before the checks judge it.
    public static let minimumRecomputationsChecked = 8

    /// The share of equal results above which a value's inputs are judged wider than it needs.
    public static let wastedShareWarned = 0.75

    /// The warnings the kept events and the statistics call for, most wasteful first:
    /// - a value that recomputes to an equal result most of the time (at least
    ///   ``wastedShareWarned`` of at least ``minimumRecomputationsChecked`` recomputations): it
    ///   reads inputs wider than it needs; the warning names the inputs whose moves most often
    ///   caused the wasted work, and the fix (read a narrower value: a computed value of its own
    ///   that cuts off, or the member it needs).
    public var warnings: [String] {
        let statistics = self.statistics
        let wasteful = statistics.filter { $0.value.recomputations >= Self.minimumRecomputationsChecked && $0.value.wastedShare >= Self.wastedShareWarned }
        guard !wasteful.isEmpty else { return [] }
        // The inputs whose moves caused the equal results, per value, from the events kept.
        var causes: [ValueID: [String: Int]] = [:]
        for refresh in cutOffs where wasteful[refresh.value] != nil {
            for cause in refresh.causes { causes[refresh.value, default: [:]][cause.input, default: 0] += 1 }
        }
        return wasteful.sorted { ($0.value.cutOffs, $0.key.description) > ($1.value.cutOffs, $1.key.description) }.map { value, numbers in
            let inputs = (causes[value] ?? [:]).sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
            let percent = Int((numbers.wastedShare * 100).rounded())
            let because = inputs.isEmpty ? "" : ", most often after \(inputs.prefix(3).joined(separator: ", ")) moved"
            return "warning: \(value) recomputed \(numbers.recomputations) times to an equal result \(numbers.cutOffs) times (\(percent)%)\(because): "
                + "it reads more than it needs; read a narrower value (a computed value of its own, which cuts off, or the member it uses)"
        }
    }
}
