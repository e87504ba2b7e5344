/// How a store decides that a commit changed its state: by the generated states' field stamps,
/// compared one by one, else by `==` for an `Equatable` state (both looked up once per store),
/// else always.
struct ChangeDetection<State>: @unchecked Sendable {
    // Safety: only metatypes of conformance witnesses, which are immutable.
    let versions = _MemberVersions<State>()
    let equality = _DynamicEquality<State>()

    /// What a later state is compared with.
    enum Token {
        /// The field stamps of a generated state, recorded in the `versions` passed along.
        case versions
        case value(State)
        case none
    }

    /// What a later state is compared with: for a generated state, its field stamps, recorded
    /// into `versions` (reusing its storage). (`inout` only so that the state is not copied.)
    func token(_ state: inout State, versions record: inout MemoInputs) -> Token {
        if versions.witness != nil, recordFieldVersions(of: &state, into: &record) != nil {
            return .versions
        }
        if equality.isEquatable { return .value(state) }
        return .none
    }

    /// Whether `state` differs from the state `token` was taken from; for a generated state,
    /// whether a field's stamp differs from the one in `versions`, which then holds `state`'s.
    func isChanged(from token: Token, to state: inout State, versions record: inout MemoInputs) -> Bool {
        switch token {
        case .versions:
            return recordFieldVersions(of: &state, into: &record) ?? true
        case .value(let value):
            return equality.isEqual(value, state) != true
        case .none:
            return true
        }
    }

    /// Records the field stamps of a generated `state` into `record` (reusing its storage) and
    /// returns whether one differs from what `record` held; `nil` when `state` records none.
    private func recordFieldVersions(of state: inout State, into record: inout MemoInputs) -> Bool? {
        record._restart()
        guard versions.recordFieldVersions(&state, into: &record) else { return nil }
        let changed = record.changed
        record._dropUnrecorded()
        return changed
    }

    /// Applies `mutation` to `state` and sets `isChanged` to whether it changed it, also when it
    /// throws. A generated state is compared by its field stamps, recorded one by one into
    /// `record` before and after (stamps come from per-thread blocks, so only their equality
    /// means anything), without a ``Token`` (whose layout depends on `State`: a metadata lookup
    /// and value-witness calls in unspecialized code).
    func apply<Result>(
        _ mutation: (inout State) throws -> Result,
        to state: inout State,
        versions record: inout MemoInputs,
        isChanged: inout Bool
    ) rethrows -> Result {
        if versions.witness != nil, recordFieldVersions(of: &state, into: &record) != nil {
            defer { isChanged = recordFieldVersions(of: &state, into: &record) ?? true }
            return try mutation(&state)
        }
        let token = token(&state, versions: &record)
        defer { isChanged = self.isChanged(from: token, to: &state, versions: &record) }
        return try mutation(&state)
    }
}
