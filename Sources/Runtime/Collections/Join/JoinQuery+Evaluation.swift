extension JoinQuery: IdentifiedListQuery {
    /// The joined list's elements.
    public typealias Source = Left
    /// The rows, as a list.
    public typealias Output = IdentifiedList<Row>
    /// The rows and what the query keeps to update them.
    public typealias State = JoinQueryState<Left, Other, Row>

    /// Evaluates the join into the ``IdentifiedList`` of its rows (see ``IncrementalListQuery``).
    @inlinable
    public func evaluate(updating previous: inout JoinQueryState<Left, Other, Row>?, changes: ListChanges<Left.ID>?)
        -> (output: IdentifiedList<Row>, isIncremental: Bool) {
        _evaluate(updating: &previous, changes: changes, beforeEditing: {})
    }

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` before it edits the rows (see
    /// `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    public func _evaluate(updating previous: inout JoinQueryState<Left, Other, Row>?, changes: ListChanges<Left.ID>?,
                          beforeEditing: () -> Void) -> (output: IdentifiedList<Row>, isIncremental: Bool) {
        var reason: ListEvaluation.Reason? = nil
        if var state = previous, state.step == _step, let changes, let touched = changes._touched(Left.self) {
            if let keys = other._changedKeys(since: state.mark) {
                if !keys.isEmpty, state.referrers == nil { state.referrers = _referrers() }
                var affected = touched.count
                for key in keys { affected += state.referrers?[key]?.count ?? 0 }
                if affected <= Swift.max(64, source.count / 4) {
                    // Let the rows be edited in place when no one else holds them: neither
                    // `previous` nor the rows a memo cell caches, which these replace.
                    previous = nil
                    beforeEditing()
                    _follow(touched, keys, in: &state)
                    previous = state
                    return (state.rows, true)
                }
                reason = .changesNotFollowed
            } else {
                reason = .joinedChangesUnavailable
            }
        }
        var state = _fullEvaluation()
        state.fullReason = reason
        previous = state
        return (state.rows, false)
    }

    /// Why the last evaluation into `state` was made in full, when the query decided it (the
    /// other side's changes unknown, or too many).
    @inlinable
    public static func _fullEvaluationReason(_ state: JoinQueryState<Left, Other, Row>?) -> ListEvaluation.Reason? {
        state?.fullReason
    }

    /// Every element's row, in the list's order, with the element's label. O(n).
    @inlinable
    func _fullEvaluation() -> JoinQueryState<Left, Other, Row> {
        var rows = ContiguousArray<Row>()
        var labels = ContiguousArray<UInt64>()
        rows.reserveCapacity(source.count)
        labels.reserveCapacity(source.count)
        // The closures read once (a closure read from `self` per element is retained and released
        // per element).
        let key = _key
        let row = _row
        let other = other
        for offset in 0..<source.count {
            let element = source._elements[offset]
            if let made = row(element, key(element).flatMap(other._value(for:))) {
                rows.append(made)
                labels.append(source._labels[offset])
            }
        }
        return JoinQueryState(rows: IdentifiedList(_elements: rows, labels: labels, changeRecordCapacity: source.changeRecordCapacity),
                              referrers: nil, mark: other._mark, step: _step)
    }

    /// How many referrers ahead of the one being made `_follow` asks for the next element and row.
    @inlinable static var _prefetchDistance: Int { 4 }

    /// For each key, the ids of the list's elements that refer to it, with their offsets. O(n).
    @inlinable
    func _referrers() -> [Other.Key: [Left.ID: Int]] {
        var referrers: [Other.Key: [Left.ID: Int]] = [:]
        let key = _key
        for offset in 0..<source.count {
            let element = source._elements[offset]
            if let elementKey = key(element) { referrers[elementKey, default: [:]][element.id] = offset }
        }
        return referrers
    }

    /// Makes again the rows of the `touched` elements and of the elements that refer to the
    /// changed `keys`, editing `state`'s rows in place: updates first, then the insertions,
    /// removals and moves in one pass (`_applyLabelledEdits`). O(k · log n + structural edits).
    @inlinable
    func _follow(_ touched: [_TouchedElement<Left>], _ keys: [Other.Key], in state: inout JoinQueryState<Left, Other, Row>) {
        // Read once: a list or closure read from `self` in the loops is retained and released
        // per element.
        let source = self.source
        let other = self.other
        let _key = self._key
        let _row = self._row
        var equality = _Equality<Row>(known: _rowEqual)
        var removals: [Int] = []
        var relabelled: [(offset: Int, label: UInt64)] = []
        var insertions: [(element: Row, label: UInt64)] = []
        // Each element once: one touched on this side that also refers to a changed key is made
        // again once. (The touched elements are distinct, and so are the elements that refer to
        // distinct keys: only both at once need the set.)
        let isShared = !touched.isEmpty && !keys.isEmpty
        var done = Set<Left.ID>()
        /// Makes `id`'s row again, looking for its element at `hint` first; `known` is a key and
        /// its value, looked up once for all the elements that refer to it; `labelKept` when the
        /// element was not edited (only an edit of it changes its label: its row cannot have
        /// moved, and the label is not read). Returns the element's offset (nil: it is not in the
        /// list).
        @discardableResult
        func remake(_ id: Left.ID, hint: Int, known: (key: Other.Key, value: Other.Value?)? = nil, labelKept: Bool = false) -> Int? {
            if isShared, !done.insert(id).inserted { return hint }
            let sourceOffset = source._offset(of: id, hint: hint)
            let made = sourceOffset.flatMap { sourceOffset in
                let element = source._elements[sourceOffset]
                let key = _key(element)
                let value = key.flatMap { key in key == known?.key ? known!.value : other._value(for: key) }
                return _row(element, value)
            }
            // When every element before it has a row (a left join, or an inner join whose keys all
            // find values), a row is at its element's offset: found without a second lookup by id.
            // (Checked by id: a row that moved keeps its old label until the edits are applied.)
            let sameOffset = sourceOffset.flatMap { offset in
                offset < state.rows.count && state.rows[offset].id == id ? offset : nil
            }
            guard let offset = sameOffset ?? state.rows.index(id: id) else {
                if let made, let sourceOffset { insertions.append((made, source._labels[sourceOffset])) }
                return sourceOffset
            }
            guard let made, let sourceOffset else {
                removals.append(offset)
                return sourceOffset
            }
            if !equality.areEqual(state.rows[offset], made) { state.rows[offset] = made }
            if !labelKept, state.rows._label(at: offset) != source._labels[sourceOffset] {
                relabelled.append((offset, source._labels[sourceOffset]))
            }
            return sourceOffset
        }
        for element in touched {
            // The referrers follow the elements' keys once they are made (made from the list as it
            // is now, they already hold the new keys: removing and inserting again is a no-op).
            let offset = remake(element.id, hint: element.offset)
            guard state.referrers != nil else { continue }
            let oldKey = element.old.flatMap { _key($0.element) }
            let newKey = offset.flatMap { _key(source._elements[$0]) }
            if oldKey != newKey, let oldKey {
                state.referrers![oldKey]?[element.id] = nil
                if state.referrers![oldKey]?.isEmpty == true { state.referrers![oldKey] = nil }
            }
            if let newKey, let offset, oldKey != newKey || offset != element.offset {
                state.referrers![newKey, default: [:]][element.id] = offset
            }
        }
        // Offsets that no longer held (an element before them inserted or removed), set to where
        // the elements are now after the loop that reads them.
        var moved: [(key: Other.Key, id: Left.ID, offset: Int)] = []
        for key in keys {
            guard let ids = state.referrers?[key] else { continue }
            let known = (key, other._value(for: key))
            // In an array, so that the element and row of a referrer a few places ahead are asked
            // for while this one is made: each is a cache miss in a large list, and a rename's time
            // is mostly those.
            let referrers = Array(ids)
            for index in referrers.indices {
                if index + Self._prefetchDistance < referrers.count {
                    let ahead = referrers[index + Self._prefetchDistance].value
                    source._prefetch(at: ahead)
                    state.rows._prefetch(at: ahead)
                }
                let (id, hint) = referrers[index]
                // Not edited on this side (the edited ones were made above): its label is kept.
                if let offset = remake(id, hint: hint, known: known, labelKept: true), offset != hint { moved.append((key, id, offset)) }
            }
        }
        for hint in moved { state.referrers![hint.key]?[hint.id] = hint.offset }
        state.rows._applyLabelledEdits(removals: removals, relabelled: relabelled, insertions: insertions)
        state.mark = other._mark
        state.fullReason = nil
    }
}
