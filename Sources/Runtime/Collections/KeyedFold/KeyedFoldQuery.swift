/// A total per key of a list's included elements, maintained in O(1) per changed element:
/// ``ListQuery/count(by:fileID:line:column:)`` and ``ListQuery/sum(of:by:fileID:line:column:)``
/// (`articles.filter { !$0.isRead }.count(by: \.feedID)`), giving ``KeyedTotals``.
///
/// Floating-point sums maintained this way may differ from a fresh sum in the last bits
/// (additions happen in another order); integer totals are exact.
public struct KeyedFoldQuery<Source: Identifiable & Sendable, Key: Hashable & Sendable, Value: AdditiveArithmetic & Sendable>: Sendable
where Source.ID: Sendable {
    /// The list the query reads.
    public let source: IdentifiedList<Source>
    @usableFromInline let include: (@Sendable (Source) -> Bool)?
    @usableFromInline let key: @Sendable (Source) -> Key
    @usableFromInline let contribution: @Sendable (Source) -> Value
    @usableFromInline let steps: [_QueryStep]

    @usableFromInline
    init(source: IdentifiedList<Source>, include: (@Sendable (Source) -> Bool)?, key: @escaping @Sendable (Source) -> Key,
         contribution: @escaping @Sendable (Source) -> Value, steps: [_QueryStep]) {
        self.source = source
        self.include = include
        self.key = key
        self.contribution = contribution
        self.steps = steps
    }
}

/// What a pipeline keeps for a ``KeyedFoldQuery``: a slot per key seen, the totals by slot (in
/// a persistent vector its results share), and the number of included elements. An edited
/// element's key and contribution before the edit are computed again from its previous value
/// (the list's change record keeps it, see ``ListChanges``): no table by id.
public struct KeyedFoldState<ID: Hashable & Sendable, Key: Hashable & Sendable, Value: AdditiveArithmetic & Sendable>: Sendable {
    @usableFromInline var slots: _KeySlots<Key>
    @usableFromInline var totals: _SlotVector<_KeyedTotal<Value>>
    /// The number of included elements.
    @usableFromInline var includedCount: Int
    /// The number of slots with at least one element.
    @usableFromInline var keyCount: Int
    /// The last result's identity (see ``KeyedTotals``).
    @usableFromInline var token: UInt64
    /// The numbering of the keys in `slots`: new at each full evaluation that changes a total.
    @usableFromInline var numbering: UInt64
    @usableFromInline var steps: [_QueryStep]

    @inlinable
    init(slots: _KeySlots<Key>, totals: _SlotVector<_KeyedTotal<Value>>, includedCount: Int,
         keyCount: Int, token: UInt64, numbering: UInt64, steps: [_QueryStep]) {
        self.slots = slots
        self.totals = totals
        self.includedCount = includedCount
        self.keyCount = keyCount
        self.token = token
        self.numbering = numbering
        self.steps = steps
    }

    /// The result of this state, with `changed` since the result `previous`.
    @inlinable
    func _output(previous: UInt64?, changed: _ChangedKeys<Key>) -> KeyedTotals<Key, Value> {
        KeyedTotals(_slots: slots, _totals: totals, _keyCount: keyCount, _token: token, _previous: previous, _numbering: numbering,
                    _changed: changed)
    }
}

extension KeyedFoldQuery: IncrementalListQuery {
    /// Evaluates the totals (see ``IncrementalListQuery``): following the list's changes costs
    /// O(1) per changed element, whatever the number of keys.
    ///
    /// - Complexity: O(changes + log₃₂ keys) following `changes`; otherwise O(n), and O(keys)
    ///   more to compare the totals with the previous result's.
    @inlinable
    public func evaluate(updating previous: inout KeyedFoldState<Source.ID, Key, Value>?, changes: ListChanges<Source.ID>?)
        -> (output: KeyedTotals<Key, Value>, isIncremental: Bool) {
        _evaluate(updating: &previous, changes: changes, beforeEditing: {})
    }

    /// ``evaluate(updating:changes:)``, calling `beforeEditing` before it edits the totals (see
    /// `IncrementalListQuery._evaluate(updating:changes:beforeEditing:)`).
    @inlinable
    public func _evaluate(updating previous: inout KeyedFoldState<Source.ID, Key, Value>?, changes: ListChanges<Source.ID>?,
                          beforeEditing: () -> Void) -> (output: KeyedTotals<Key, Value>, isIncremental: Bool) {
        if var state = previous, state.steps == steps, let changes, changes.count <= Swift.max(64, state.includedCount / 4),
           let touched = changes._touched(Source.self) {
            // Let the totals be edited in place where no result holds them: neither `previous`
            // nor the result a memo cell caches, which this one replaces.
            previous = nil
            beforeEditing()
            let changed = _follow(touched, in: &state)
            let last = state.token
            if !changed.isEmpty { state.token = VersionStamp.next().rawValue }
            previous = state
            return (state._output(previous: changed.isEmpty ? nil : last, changed: changed), true)
        }
        var state = _evaluateInFull()
        let changedKeys = _changedKeys(from: previous, to: state)
        if changedKeys.isEmpty, var unchanged = previous {
            // Equal totals: keep the previous state, its identity and its numbering of the keys,
            // so that a cell keeping an earlier result may hand that result's changes (by slot)
            // to the later ones.
            unchanged.steps = steps
            state = unchanged
        }
        previous = state
        return (state._output(previous: nil, changed: _ChangedKeys(changedKeys)), false)
    }

    /// Applies the list's changes (the `touched` elements, each with its value before them) to
    /// the totals in `state`; returns the keys whose total changed, or that gained their first
    /// element or lost their last, by their slots. O(1) per touched element (and O(t log t) in the
    /// rare case where the touched slots come out of order).
    @inlinable
    func _follow(_ touched: [_TouchedElement<Source>], in state: inout KeyedFoldState<Source.ID, Key, Value>) -> _ChangedKeys<Key> {
        // Each touched slot's total when first touched (the first of its snapshots), to report
        // only the keys whose total changed: a list, not a table by slot, since an edit touches
        // one or two slots. It is a temporary allocation (on the stack when small): an array
        // would cost an allocation, and the lookup of its buffer type's metadata, per edit.
        withUnsafeTemporaryAllocation(of: (slot: Int, total: _KeyedTotal<Value>).self, capacity: 2 * touched.count) { buffer in
            var count = 0
            func snapshot(_ slot: Int) {
                (buffer.baseAddress! + count).initialize(to: (slot, state.totals[slot]))
                count += 1
            }
            for touch in touched {
                // Its key and contribution before the edits, from its value then: out.
                if let element = touch.old?.element, include?(element) ?? true {
                    guard let slot = state.slots.slot(of: key(element)) else {
                        preconditionFailure("KeyedFoldQuery: a key that was counted has no slot (a key or filter closure that is not a function of the element?)")
                    }
                    snapshot(slot)
                    let value = contribution(element)
                    let isEmpty = state.totals.update(slot) { total in
                        total.value -= value
                        total.members -= 1
                        return total.members == 0
                    }
                    if isEmpty { state.keyCount -= 1 }
                    state.includedCount -= 1
                }
                if let element = source._element(id: touch.id, hint: touch.offset), include?(element) ?? true {
                    let (slot, isNew) = state.slots.slot(adding: key(element))
                    if isNew { state.totals.append(_KeyedTotal(value: .zero, members: 0)) }
                    snapshot(slot)
                    let value = contribution(element)
                    let wasEmpty = state.totals.update(slot) { total in
                        total.value += value
                        total.members += 1
                        return total.members == 1
                    }
                    if wasEmpty { state.keyCount += 1 }
                    state.includedCount += 1
                }
            }
            let snapshots = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
            defer { _ = snapshots.deinitialize() }
            // Each slot's snapshots in slot order, a slot's first snapshot first among its own:
            // the order they were taken in, unless a later touch went back to an earlier slot.
            var order: [Int]? = nil
            if (1..<Swift.max(count, 1)).contains(where: { snapshots[$0 - 1].slot > snapshots[$0].slot }) {
                order = snapshots.indices.sorted { (snapshots[$0].slot, $0) < (snapshots[$1].slot, $1) }
            }
            var changed = _ChangedKeys<Key>()
            var last = -1
            for offset in snapshots.indices {
                let (slot, old) = snapshots[order?[offset] ?? offset]
                guard slot != last else { continue }
                last = slot
                let new = state.totals[slot]
                if old.value != new.value || (old.members == 0) != (new.members == 0) { changed.append(slot: slot) }
            }
            return changed
        }
    }

    /// The totals evaluated in full. O(n).
    @inlinable
    func _evaluateInFull() -> KeyedFoldState<Source.ID, Key, Value> {
        var slots = _KeySlots<Key>()
        var totals = ContiguousArray<_KeyedTotal<Value>>()
        var includedCount = 0
        for element in source._elements {
            if let include, !include(element) { continue }
            let (slot, isNew) = slots.slot(adding: key(element))
            if isNew { totals.append(_KeyedTotal(value: .zero, members: 0)) }
            let value = contribution(element)
            totals[slot].value += value
            totals[slot].members += 1
            includedCount += 1
        }
        let stamp = VersionStamp.next().rawValue
        return KeyedFoldState(slots: slots, totals: _SlotVector(totals), includedCount: includedCount, keyCount: totals.count,
                              token: stamp, numbering: stamp, steps: steps)
    }

    /// The keys whose total differs between `old` (if any) and `new`. O(keys).
    @inlinable
    func _changedKeys(from old: KeyedFoldState<Source.ID, Key, Value>?, to new: KeyedFoldState<Source.ID, Key, Value>) -> Set<Key> {
        var changed: Set<Key> = []
        new.totals.forEach { slot, total in
            let key = new.slots.key(at: slot)
            let previous = old.flatMap { old in old.slots.slot(of: key).map { old.totals[$0] } }
            if previous == nil || previous!.members == 0 || previous!.value != total.value { changed.insert(key) }
        }
        old?.totals.forEach { slot, total in
            let key = old!.slots.key(at: slot)
            if total.members > 0, new.slots.slot(of: key) == nil { changed.insert(key) }
        }
        return changed
    }

    /// Evaluates the totals once, in full (no state kept).
    ///
    /// - Complexity: O(n).
    public var totals: KeyedTotals<Key, Value> {
        var state: KeyedFoldState<Source.ID, Key, Value>? = nil
        return evaluate(updating: &state, changes: nil).output
    }
}

extension ListQuery {
    /// The number of elements of the result per key, maintained in O(1) per changed element:
    /// `articles.filter { !$0.isRead }.count(by: \.feedID)`, an unread count per feed.
    ///
    /// - Complexity: O(1) (builds the query; see ``KeyedFoldQuery`` for its evaluation).
    @inlinable @inline(__always)
    public func count<Key: Hashable & Sendable>(by key: @escaping @Sendable (Element) -> Key,
                                                fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> KeyedFoldQuery<Source, Key, Int> {
        KeyedFoldQuery(source: source, include: _include, key: _onSource(key), contribution: { _ in 1 },
                       steps: _steps._appending(_QueryStep(.fold, fileID, line, column)))
    }

    /// The sum of `value` over the elements of the result per key, maintained in O(1) per
    /// changed element.
    ///
    /// - Complexity: O(1) (builds the query).
    @inlinable @inline(__always)
    public func sum<Key: Hashable & Sendable, Value: AdditiveArithmetic & Sendable>(
        of value: @escaping @Sendable (Element) -> Value, by key: @escaping @Sendable (Element) -> Key,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> KeyedFoldQuery<Source, Key, Value> {
        KeyedFoldQuery(source: source, include: _include, key: _onSource(key), contribution: _onSource(value),
                       steps: _steps._appending(_QueryStep(.fold, fileID, line, column)))
    }

    /// `function` applied to the source elements: directly when no map was applied, otherwise
    /// after the map.
    @inlinable
    func _onSource<T>(_ function: @escaping @Sendable (Element) -> T) -> @Sendable (Source) -> T {
        if _isIdentity, let direct = function as? @Sendable (Source) -> T { return direct }
        let project = _project
        return { function(project($0)) }
    }
}

extension IdentifiedList where Element: Sendable, ID: Sendable {
    /// Starts a count of the elements per key, maintained per change (see
    /// ``ListQuery/count(by:fileID:line:column:)``).
    ///
    /// - Complexity: O(1) (builds the query).
    @inlinable @inline(__always)
    public func count<Key: Hashable & Sendable>(by key: @escaping @Sendable (Element) -> Key,
                                                fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column)
        -> KeyedFoldQuery<Element, Key, Int> {
        query.count(by: key, fileID: fileID, line: line, column: column)
    }

    /// Starts a sum of `value` over the elements per key, maintained per change.
    ///
    /// - Complexity: O(1) (builds the query).
    @inlinable @inline(__always)
    public func sum<Key: Hashable & Sendable, Value: AdditiveArithmetic & Sendable>(
        of value: @escaping @Sendable (Element) -> Value, by key: @escaping @Sendable (Element) -> Key,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> KeyedFoldQuery<Element, Key, Value> {
        query.sum(of: value, by: key, fileID: fileID, line: line, column: column)
    }
}
