import CComputedAtomics

/// What a memoized selector's refresh reports while a change trace records (see
/// `_MemoizedSelectorBox._evaluateSlowly`): when it started, and the inputs whose keys moved.
@usableFromInline
final class _SelectorTraceFrame {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var moves: [(position: Int, from: VersionStamp, to: VersionStamp, input: AnyObject?)] = []
    /// Whether the selector had never computed its value.
    @usableFromInline var isFirst = false

    private let interval: _SignpostInterval?

    @usableFromInline
    init<Root, Output>(_ box: _MemoizedSelectorBox<Root, Output>) {
        interval = ChangeTrace.beginSignpostInterval(
            ChangeTrace.ValueID(selector: box.name, root: Root.self, output: Output.self, argument: box.argument).description
        )
        start = clock.now
    }

    /// Notes that the input at `position` moved (its staged key differs from the last one).
    @usableFromInline
    func moved<Root>(_ position: Int, _ slot: _SlotBase<Root>) {
        // An input compared by value has no stamps: recorded as changed, from nothing to 0.
        let versioned = slot.versionOf != nil
        moves.append((position, slot.lastVersion, versioned ? slot.stagedVersion : VersionStamp(rawValue: 0), slot.inputStorage))
    }

    /// Delivers the refresh to the traces of the calling task.
    @usableFromInline
    func deliver<Root, Output>(_ box: _MemoizedSelectorBox<Root, Output>, recomputed: Bool, version: VersionStamp) {
        guard ChangeTrace.isRecordingHere else {
            ChangeTrace.endSignpostInterval(interval, "not recorded here")
            return
        }
        let end = clock.now
        let value = ChangeTrace.ValueID(selector: box.name, root: Root.self, output: Output.self, argument: box.argument)
        let causes = recomputed && !isFirst ? moves.map { move in
            ChangeTrace.Cause(
                input: _selectorInputName(move.input, of: Root.self, position: move.position),
                from: move.to.rawValue == 0 || move.from.rawValue == 0 ? nil : move.from,
                to: move.to
            )
        } : []
        let start = self.start
        let first = isFirst
        ChangeTrace.deliver(interval: interval) { sequence, origin in
            .refresh(ChangeTrace.Refresh(
                sequence: sequence,
                value: value,
                recomputed: recomputed,
                isFirstComputation: first,
                causes: causes,
                isCutOff: false,
                readers: [],
                version: version,
                evaluation: nil,
                start: origin.duration(to: start),
                duration: start.duration(to: end),
                depth: _ChangeTraceFrame.innermost.map { $0.depth + 1 } ?? 0
            ))
        }
    }
}

extension _ParameterCache {
    /// Records a miss of the cache (under its lock), and the argument it evicted to make room.
    @usableFromInline
    func _traceMiss(_ argument: Argument, evicted: Argument?) {
        guard ChangeTrace.isRecordingHere else { return }
        let value = ChangeTrace.ValueID(selector: name, root: Root.self, output: Value.self, argument: nil)
        let missed = String(describing: argument)
        let dropped = evicted.map { String(describing: $0) }
        let capacity = self.capacity
        let now = ContinuousClock.now
        ChangeTrace.deliver { sequence, origin in
            .cacheMiss(ChangeTrace.CacheMiss(
                sequence: sequence, selector: value, argument: missed, evicted: dropped, capacity: capacity,
                start: origin.duration(to: now)
            ))
        }
    }
}

extension ChangeTrace.ValueID {
    /// A selector as a trace names it: `LibraryState.todos(ownedBy:) for 3`, or, unnamed,
    /// `LibraryState.selector → Int`.
    init(selector name: String?, root: Any.Type, output: Any.Type, argument: (any Sendable)?) {
        var label = name ?? "selector → \(output)"
        if let argument { label += " for \(argument)" }
        self.init(state: String(describing: root), name: label)
    }
}

/// What a selector's input is called in a trace: the field or computed value of a generated state
/// whose selector it is, a named selector, or its position.
func _selectorInputName<Root>(_ storage: AnyObject?, of root: Root.Type, position: Int) -> String {
    guard let storage else { return "input \(position + 1)" }
    if let table = root as? any _TableDrivenState.Type, let name = _tableSelectorName(storage, in: table) {
        return name
    }
    if let named = storage as? _NamedSelectorStorage, let name = named.traceName {
        return name
    }
    return "input \(position + 1)"
}

private func _tableSelectorName<State: _TableDrivenState>(_ storage: AnyObject, in _: State.Type) -> String? {
    let table = State.Extended.__table
    if let field = table.fieldSelectors.firstIndex(where: { $0 === storage }) {
        return table.fieldNames[field]
    }
    if let computed = table.computedSelectors.firstIndex(where: { $0 === storage }) {
        return table.computeds[computed].name
    }
    return nil
}

/// A selector's storage that has a name for traces.
protocol _NamedSelectorStorage: AnyObject {
    var traceName: String? { get }
}

extension _MemoizedSelectorBox: _NamedSelectorStorage {
    var traceName: String? {
        name.map { name in argument.map { "\(name) for \($0)" } ?? name }
    }
}
