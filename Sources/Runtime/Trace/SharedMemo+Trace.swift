/// What the recomputation of a value over `@Shared` fields reports while a change trace records
/// (see `SharedMemoCell._computeAndStore`): the shared inputs whose stamps moved since the value
/// was computed, or the state's own fields, and whether the result was equal.
final class _SharedMemoTrace {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let traceName: StaticString
    private let previousKeys: [VersionStamp]
    private var isStale = false
    private var ownVersion = VersionStamp(rawValue: 0)
    private var hadValue = false
    /// Whether the result was equal to the cached value, which kept its stamp.
    var cutOff = false

    private let interval: _SignpostInterval?

    init(_ traceName: StaticString, previousKeys: [VersionStamp]) {
        self.traceName = traceName
        self.previousKeys = previousKeys
        interval = ChangeTrace.beginSignpostInterval(Self.parse(traceName).0.description)
        start = clock.now
    }

    /// What the cell held before the new value (under its lock).
    func found(isStale: Bool, version: VersionStamp, hadValue: Bool) {
        self.isStale = isStale
        ownVersion = version
        self.hadValue = hadValue
    }

    /// Delivers the recomputation, computed for the shared stamps `keys` (under the cell's lock).
    func deliver(keys: [VersionStamp], version: VersionStamp) {
        guard ChangeTrace.isRecordingHere else {
            ChangeTrace.endSignpostInterval(interval, "not recorded here")
            return
        }
        let end = clock.now
        let (value, inputs) = Self.parse(traceName)
        var causes: [ChangeTrace.Cause] = []
        if hadValue {
            if isStale {
                causes.append(ChangeTrace.Cause(input: "fields of \(value.state)", from: nil, to: ownVersion))
            }
            for (position, key) in keys.enumerated() where position >= previousKeys.count || previousKeys[position] != key {
                // After the state's own fields moved, the shared stamps of the last value are gone.
                if isStale && previousKeys.isEmpty { break }
                let name = position < inputs.count ? inputs[position] : "shared input \(position + 1)"
                causes.append(ChangeTrace.Cause(input: name, from: position < previousKeys.count ? previousKeys[position] : nil, to: key))
            }
        }
        let start = self.start
        let (first, cutOff) = (!hadValue, self.cutOff)
        ChangeTrace.deliver(interval: interval) { sequence, origin in
            .refresh(ChangeTrace.Refresh(
                sequence: sequence, value: value, recomputed: true, isFirstComputation: first, causes: causes,
                isCutOff: cutOff, readers: [], version: version, evaluation: nil,
                start: origin.duration(to: start), duration: start.duration(to: end),
                depth: _ChangeTraceFrame.innermost.map { $0.depth + 1 } ?? 0
            ))
        }
    }

    /// `AppState.greeting(session, settings)` → (`AppState.greeting`, [`session`, `settings`]).
    static func parse(_ traceName: StaticString) -> (ChangeTrace.ValueID, [String]) {
        let text = traceName.description
        guard let dot = text.firstIndex(of: "."), let open = text.firstIndex(of: "("), dot < open else {
            return (ChangeTrace.ValueID(state: "", name: text.isEmpty ? "value over @Shared fields" : text), [])
        }
        let inputs = text[text.index(after: open)...].dropLast().split(separator: ",").map { String($0.drop { $0 == " " }) }
        return (ChangeTrace.ValueID(state: String(text[..<dot]), name: String(text[text.index(after: dot)..<open])), inputs)
    }
}
