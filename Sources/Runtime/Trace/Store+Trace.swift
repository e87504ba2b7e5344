/// What a root store's commit records while a change trace records (see ``ChangeTrace``): the
/// fields whose stamps moved, the members whose observers it woke, the subscribers it delivered
/// to, and how many armed observers it left asleep.
final class _CommitTracer {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var before = MemoInputs([])
    private var recorded = false
    /// The shared references the store follows, with the versions it last published.
    private var published: [ObjectIdentifier: VersionStamp] = [:]

    init() {
        start = clock.now
    }

    /// Records the fields' stamps before the mutation (under the store's lock).
    func begin<State>(_ state: inout State, _ detection: ChangeDetection<State>, following: SharedFollowing) {
        recorded = detection.versions.recordFieldVersions(&state, into: &before)
        published = Dictionary(following.published, uniquingKeysWith: { first, _ in first })
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
            // Shared fields written elsewhere since the store last published them (the commit
            // that publishes such a write changes no stamp of its own).
            if !published.isEmpty {
                for (field, version) in _movedSharedFields(&state, published: published) where !changed.contains(where: { $0.field == field }) {
                    changed.append((field, version))
                }
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
        // Members notified stay armed for a while (see `ObservationTable`): not counted here.
        let notWoken = observation.members.values.count { member in
            member.version != nil && !observed.members.contains(member.keyPath)
        }
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

/// The fields of a generated state holding a shared reference (directly, or in a nested state)
/// whose version is not the one `published`, with that version (empty for other states).
func _movedSharedFields<State>(_ state: inout State, published: [ObjectIdentifier: VersionStamp]) -> [(String, VersionStamp)] {
    guard let table = State.self as? any _TableDrivenState.Type else { return [] }
    return withUnsafePointer(to: &state) { _movedSharedFields(UnsafeRawPointer($0), table, published) }
}

private func _movedSharedFields<State: _TableDrivenState>(
    _ base: UnsafeRawPointer, _: State.Type, _ published: [ObjectIdentifier: VersionStamp]
) -> [(String, VersionStamp)] {
    var moved: [(String, VersionStamp)] = []
    var references: [any _SharedReference] = []
    for field in State.Extended.__table.fields {
        guard let collect = field.references else { continue }
        references.removeAll(keepingCapacity: true)
        collect(base) { references.append($0) }
        if let reference = references.first(where: { reference in
            published[ObjectIdentifier(reference)].map { $0 != reference.version } ?? false
        }) {
            moved.append((field.name, reference.version))
        }
    }
    return moved
}

/// The field names of a generated state, in declaration order (nil for other states).
func _tableFieldNames<State>(_ type: State.Type) -> [String]? {
    guard let table = type as? any _TableDrivenState.Type else { return nil }
    return _fieldNames(of: table)
}

private func _fieldNames<State: _TableDrivenState>(of _: State.Type) -> [String] {
    State.Extended.__table.fieldNames
}

// MARK: - Scoped stores and rows

/// What a scoped store's listener reports while a change trace records: it compared its state
/// after a parent commit, and was told (`woken`) or not.
func _traceScopeComparison<Parent, Child>(_: Parent.Type, _: Child.Type, keyPath: AnyKeyPath, woken: Bool) {
    guard ChangeTrace.isRecordingHere else { return }
    let store = "Store<\(Child.self)>"
    ChangeTrace.deliverScopeComparison("\(Parent.self) → \(store)", woken: woken)
    guard woken else { return }
    let member = _memberName(keyPath, in: Parent.self)
    let now = ContinuousClock.now
    ChangeTrace.deliver { sequence, origin in
        .delivery(ChangeTrace.Delivery(
            sequence: sequence, state: String(describing: Parent.self),
            notification: .init(observer: .scopedStore(store: store), member: member), start: origin.duration(to: now)
        ))
    }
}

/// What a list's row hub reports while a change trace records: the rows it woke after a commit.
func _traceRowsWoken<Parent>(_: Parent.Type, list: AnyKeyPath, ids: [String]) {
    guard ChangeTrace.isRecordingHere, !ids.isEmpty else { return }
    let member = _memberName(list, in: Parent.self)
    let state = String(describing: Parent.self)
    let now = ContinuousClock.now
    for id in ids {
        ChangeTrace.deliver { sequence, origin in
            .delivery(ChangeTrace.Delivery(
                sequence: sequence, state: state, notification: .init(observer: .row(id: id), member: member),
                start: origin.duration(to: now)
            ))
        }
    }
}

/// A member as users name it (`messages`, `computed.total`) for a generated state; the key path
/// otherwise.
func _memberName<State>(_ keyPath: AnyKeyPath, in _: State.Type) -> String {
    if let table = State.self as? any _TableDrivenState.Type, let name = _tableMemberName(keyPath, in: table) {
        return name
    }
    return "\(keyPath)"
}

private func _tableMemberName<State: _TableDrivenState>(_ keyPath: AnyKeyPath, in _: State.Type) -> String? {
    guard let keyPath = keyPath as? PartialKeyPath<State> else { return nil }
    return State.Extended.__table.stateMembers[keyPath]
}
