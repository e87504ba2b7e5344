/// The questions a trace answers, for tests and for the console.
extension ChangeTrace {
    /// The refreshes kept, oldest first.
    public var refreshes: [Refresh] {
        events.compactMap { if case .refresh(let refresh) = $0 { refresh } else { nil } }
    }

    /// The commits kept, oldest first.
    public var commits: [Commit] {
        events.compactMap { if case .commit(let commit) = $0 { commit } else { nil } }
    }

    /// Every recomputation kept (refreshes that ran a body), oldest first.
    public var recomputations: [Refresh] {
        refreshes.filter(\.recomputed)
    }

    /// The recomputations whose result was equal to the cached value (early cutoffs).
    public var cutOffs: [Refresh] {
        recomputations.filter(\.isCutOff)
    }

    /// Every notification kept, in order: those the recorded commits sent, then, after each
    /// commit, those its scoped stores and rows sent.
    public var notifications: [Notification] {
        events.flatMap { event -> [Notification] in
            switch event {
            case .commit(let commit): commit.notifications
            case .delivery(let delivery): [delivery.notification]
            case .refresh, .cacheMiss: []
            }
        }
    }

    /// The notifications of row stores kept (`scope(\.messages, id:)`): which rows were woken.
    public var wokenRows: [String] {
        notifications.compactMap { if case .row(let id) = $0.observer { id } else { nil } }
    }

    /// The parameterized selectors' cache misses kept, oldest first.
    public var cacheMisses: [CacheMiss] {
        events.compactMap { if case .cacheMiss(let miss) = $0 { miss } else { nil } }
    }

    /// The refreshes of the selector named `name` (`"todos(ownedBy:)"`), every argument's,
    /// those that kept their value included.
    public func selectorRefreshes(of name: String) -> [Refresh] {
        refreshes.filter { $0.value.name == name || $0.value.name.hasPrefix(name + " for ") }
    }

    /// The recomputations of the value named `name` (`"visibleTodos"`), of any state or of the
    /// state whose type is `state`.
    public func recomputations(of name: String, in state: Any.Type? = nil) -> [Refresh] {
        let stateName = state.map { String(describing: $0) }
        return recomputations.filter { $0.value.name == name && (stateName == nil || $0.value.state == stateName) }
    }

    /// The recomputations of the computed value at `keyPath` (`\TodoState.computed.visibleTodos`).
    public func recomputations<State: _TableDrivenState, Value>(of keyPath: KeyPath<State, Value>) -> [Refresh] {
        guard let name = Self.valueName(of: keyPath) else { return [] }
        return recomputations(of: name, in: State.self)
    }

    /// The refreshes of the computed value at `keyPath`, those that kept it included.
    public func refreshes<State: _TableDrivenState, Value>(of keyPath: KeyPath<State, Value>) -> [Refresh] {
        guard let name = Self.valueName(of: keyPath) else { return [] }
        let stateName = String(describing: State.self)
        return refreshes.filter { $0.value.name == name && $0.value.state == stateName }
    }

    /// The statistics of the computed value at `keyPath` (zero when it did no work).
    public func statistics<State: _TableDrivenState, Value>(of keyPath: KeyPath<State, Value>) -> Statistics {
        guard let name = Self.valueName(of: keyPath) else { return Statistics() }
        return statistics[ValueID(state: String(describing: State.self), name: name)] ?? Statistics()
    }

    /// Why the computed value at `keyPath` last recomputed, or why it did not, in a sentence:
    /// "visibleTodos recomputed because query moved (v3 → v9)", "visibleTodos was kept: none of
    /// its inputs moved since v7", or that the trace saw no refresh of it (every read was served
    /// from cache).
    public func why<State: _TableDrivenState, Value>(_ keyPath: KeyPath<State, Value>) -> String {
        let name = Self.valueName(of: keyPath) ?? "\(keyPath)"
        guard let last = refreshes(of: keyPath).last else {
            return "\(name) did no work in this trace: it was not read, or every read was served from its cache"
        }
        return last.explanation
    }

    /// Why an observer of the member at `keyPath` (a SwiftUI view reading
    /// `store.computed.visibleCount`) was last woken, in a sentence: the commit that woke it and
    /// the fields that commit changed ("Observation of computed.visibleCount was woken by commit #4
    /// of TodoState, which changed todos (v9)"), or that no recorded commit woke it (it was not
    /// observed through a store, or the member's version did not move: a cutoff kept it).
    public func whyWoken<State: _TableDrivenState, Value>(_ keyPath: KeyPath<State, Value>) -> String {
        let member = State.Extended.__table.stateMembers[keyPath] ?? "\(keyPath)"
        let stateName = String(describing: State.self)
        guard let commit = commits.last(where: { commit in
            commit.state == stateName && commit.notifications.contains { $0.observer == .observation && $0.member == member }
        }) else {
            return "no recorded commit woke the observers of \(member): it was not observed through a store, or its version did not move"
        }
        let changed = commit.changed.map { "\($0.field) (\($0.version))" }.joined(separator: ", ")
        return "Observation of \(member) was woken by commit #\(commit.sequence) of \(stateName), which changed \(changed)"
    }

    /// The name of the computed value at `keyPath` of a generated state (`computed.total` → `total`).
    static func valueName<State: _TableDrivenState, Value>(of keyPath: KeyPath<State, Value>) -> String? {
        guard let member = State.Extended.__table.stateMembers[keyPath], member.hasPrefix("computed.") else { return nil }
        return String(member.dropFirst("computed.".count))
    }
}

extension ChangeTrace.Refresh {
    /// Why this refresh did what it did, in a sentence.
    public var explanation: String {
        if !recomputed {
            return "\(value.name) was kept: none of its inputs moved since it was computed (\(version))"
        }
        if isFirstComputation {
            return "\(value.name) was computed for the first time"
        }
        var sentence = "\(value.name) recomputed because " + causes.map(\.description).joined(separator: ", ") + " moved"
        if let evaluation {
            sentence += "; it \(evaluation)"
        }
        if isCutOff {
            sentence += "; its result was equal, so it kept \(version)"
            sentence += readers.isEmpty ? "" : " and spared " + readers.joined(separator: ", ")
        }
        return sentence
    }
}
