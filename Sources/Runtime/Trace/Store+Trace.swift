/// What a root store's commit records while a change trace records (see ``ChangeTrace``): the
/// fields whose stamps moved, the members whose observers it woke, the subscribers it delivered
/// to, and how many armed observers it left asleep.
final class _CommitTracer {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var before = MemoInputs([])
    private var recorded = false

    init() {
        start = clock.now
    }

    /// Records the fields' stamps before the mutation (under the store's lock).
    func begin<State>(_ state: inout State, _ detection: ChangeDetection<State>) {
        recorded = detection.versions.recordFieldVersions(&state, into: &before)
    }

    /// Delivers the commit: the fields whose stamps moved since ``begin(_:_:)``, and what the
    /// commit told (under the store's lock, after the change detection).
    func end<State>(
        _ state: inout State,
        _ detection: ChangeDetection<State>,
        observation: ObservationTable,
        observed: ObservationChanges,
        subscribers: Int
    ) {
        var changed: [(field: String, version: VersionStamp)] = []
        if recorded {
            var after = MemoInputs([])
            _ = detection.versions.recordFieldVersions(&state, into: &after)
            let names = _tableFieldNames(State.self) ?? []
            for (index, version) in after._versions.enumerated() where index >= before._versions.count || before._versions[index] != version {
                changed.append((index < names.count ? names[index] : "field \(index)", version))
            }
        }
        var notifications: [ChangeTrace.Notification] = []
        let fields = changed.map(\.field).joined(separator: ", ")
        if observed.wholeState {
            notifications.append(.init(observer: .wholeState, member: fields))
        }
        for keyPath in observed.members {
            let name = observation.members.first { $0.value.keyPath == keyPath }?.key ?? "\(keyPath)"
            notifications.append(.init(observer: .observation, member: name))
        }
        if subscribers > 0 {
            notifications.append(.init(observer: .subscribers(count: subscribers), member: fields))
        }
        let end = clock.now
        let stateName = String(describing: State.self)
        let notWoken = observation.armedCount
        ChangeTrace.deliver { sequence, origin in
            .commit(ChangeTrace.Commit(
                sequence: sequence,
                state: stateName,
                changed: changed,
                notifications: notifications,
                observersNotWoken: notWoken,
                start: origin.duration(to: start),
                duration: start.duration(to: end)
            ))
        }
    }
}

/// The field names of a generated state, in declaration order (nil for other states).
func _tableFieldNames<State>(_ type: State.Type) -> [String]? {
    guard let table = type as? any _TableDrivenState.Type else { return nil }
    return _fieldNames(of: table)
}

private func _fieldNames<State: _TableDrivenState>(of _: State.Type) -> [String] {
    State.Extended.__table.fieldNames
}
