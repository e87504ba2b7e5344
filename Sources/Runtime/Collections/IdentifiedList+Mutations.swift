extension IdentifiedList {
    /// Adds `element` at the end. Its id must be new (a precondition failure otherwise).
    /// O(1) amortized; recorded as an insertion.
    @inlinable
    public mutating func append(_ element: Element) {
        insert(element, at: _elements.count)
    }

    /// Adds the elements of `elements` at the end, in order (one insertion recorded each).
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    /// Inserts `element` at `offset` (0…count). Its id must be new. O(count − offset); recorded
    /// as an insertion (and, rarely, as moves of neighbours whose place in the order is renumbered
    /// to make room).
    @inlinable
    public mutating func insert(_ element: Element, at offset: Int) {
        precondition(offset >= 0 && offset <= _elements.count, "IdentifiedList: offset \(offset) out of bounds")
        precondition(_offsets[element.id] == nil, "IdentifiedList: duplicate id \(element.id)")
        let label = _labelForInsertion(at: offset)
        _elements.insert(element, at: offset)
        _labels.insert(label, at: offset)
        _shiftOffsets(from: offset)
        _record(.inserted, element.id, prior: nil, at: offset)
    }

    /// Removes the element with `id` and returns it, or returns nil if there is none.
    /// O(count − offset); recorded as a removal.
    @discardableResult
    @inlinable
    public mutating func remove(id: ID) -> Element? {
        guard let offset = _offsets[id] else { return nil }
        return remove(at: offset)
    }

    /// Removes the element at `offset` and returns it. O(count − offset); recorded as a removal.
    @discardableResult
    @inlinable
    public mutating func remove(at offset: Int) -> Element {
        let element = _elements.remove(at: offset)
        let label = _labels.remove(at: offset)
        _offsets[element.id] = nil
        _shiftOffsets(from: offset)
        _record(.removed, element.id, prior: _ListEntry(element: element, label: label))
        return element
    }

    /// Removes the last element and returns it. O(1); recorded as a removal.
    @discardableResult
    @inlinable
    public mutating func removeLast() -> Element {
        remove(at: _elements.count - 1)
    }

    /// Removes the elements that satisfy `shouldBeRemoved` (one removal recorded each). O(n).
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var offset = _elements.count - 1
        while offset >= 0 {
            if try shouldBeRemoved(_elements[offset]) { remove(at: offset) }
            offset -= 1
        }
    }

    /// Replaces the element with the same id as `element`, or appends it if there is none.
    /// Returns the element it replaced. O(1) amortized; recorded as an update or an insertion.
    @discardableResult
    @inlinable
    public mutating func updateOrAppend(_ element: Element) -> Element? {
        guard let offset = _offsets[element.id] else {
            append(element)
            return nil
        }
        let old = _elements[offset]
        _elements[offset] = element
        _record(.updated, element.id, prior: _ListEntry(element: old, label: _labels[offset]), at: offset)
        return old
    }

    /// The element with `id`, or nil.
    ///
    /// Mutating through it edits the element in place (`list[id: id]?.isRead = true` copies
    /// nothing) and records an update; setting nil removes the element; setting an element when
    /// there is none appends it. The id of what is set must be `id` (a precondition failure
    /// otherwise). O(1) for reads, updates and appends; a removal costs what ``remove(id:)`` costs.
    @inlinable
    public subscript(id id: ID) -> Element? {
        get {
            _offsets[id].map { _elements[$0] }
        }
        _modify {
            guard let offset = _offsets[id] else {
                var item: Element? = nil
                yield &item
                if let item {
                    precondition(item.id == id, "IdentifiedList: subscript(id: \(id)) set an element with id \(item.id)")
                    append(item)
                }
                return
            }
            // Move the element out of the array (swap it to the end and pop it), so the caller
            // mutates the only copy, then put it back: O(1), no copy of the element's storage.
            let last = _elements.count - 1
            if offset != last { _elements.swapAt(offset, last) }
            var item: Element? = _elements.removeLast()
            // The value before the edit, for the change record (a copy: a field the caller then
            // mutates in place is copied on write, once, when the record still holds it).
            let prior = _ListEntry(element: item!, label: _labels[offset])
            defer {
                if let item {
                    precondition(item.id == id, "IdentifiedList: an element's id must not change in place")
                    _elements.append(item)
                    if offset != last { _elements.swapAt(offset, last) }
                    _record(.updated, id, prior: prior, at: offset)
                } else {
                    // Removed: the former last element sits at `offset`; put it back at the end.
                    if offset != last { _elements.append(_elements.remove(at: offset)) }
                    _labels.remove(at: offset)
                    _offsets[id] = nil
                    _shiftOffsets(from: offset)
                    _record(.removed, id, prior: prior)
                }
            }
            yield &item
        }
        set {
            if let newValue {
                precondition(newValue.id == id, "IdentifiedList: subscript(id: \(id)) set an element with id \(newValue.id)")
                updateOrAppend(newValue)
            } else {
                remove(id: id)
            }
        }
    }

    /// Moves the element at `source` so that it ends at offset `destination` (both in
    /// 0..<count). O(distance); recorded as a move.
    @inlinable
    public mutating func move(fromOffset source: Int, toOffset destination: Int) {
        precondition(_elements.indices.contains(source) && _elements.indices.contains(destination),
                     "IdentifiedList: move(fromOffset: \(source), toOffset: \(destination)) out of bounds")
        guard source != destination else { return }
        let element = _elements.remove(at: source)
        let prior = _ListEntry(element: element, label: _labels.remove(at: source))
        let label = _labelForInsertion(at: destination)
        _elements.insert(element, at: destination)
        _labels.insert(label, at: destination)
        _shiftOffsets(from: Swift.min(source, destination))
        _record(.moved, element.id, prior: prior, at: destination)
    }

    /// Moves the element with `id` to `destination` (its offset afterwards). Recorded as a move.
    @inlinable
    public mutating func move(id: ID, toOffset destination: Int) {
        guard let source = _offsets[id] else { preconditionFailure("IdentifiedList: no element with id \(id)") }
        move(fromOffset: source, toOffset: destination)
    }

    /// Moves the elements at `sources` before the element at `destination` (0…count), keeping
    /// their order, as SwiftUI's `onMove` asks. Recorded as one move per element moved.
    public mutating func move<S: Sequence<Int>>(fromOffsets sources: S, toOffset destination: Int) {
        let sorted = Set(sources).sorted()
        guard !sorted.isEmpty else { return }
        let moving = sorted.map { _elements[$0] }
        let target = destination - sorted.count { $0 < destination }
        // Recorded before the labels change: a renumbering below may record a moved element
        // again, and the first record of an id must hold its label before the whole edit.
        for offset in sorted { _record(.moved, _elements[offset].id, prior: _ListEntry(element: _elements[offset], label: _labels[offset])) }
        for offset in sorted.reversed() {
            _elements.remove(at: offset)
            _labels.remove(at: offset)
        }
        for (step, element) in moving.enumerated() {
            let label = _labelForInsertion(at: target + step)
            _elements.insert(element, at: target + step)
            _labels.insert(label, at: target + step)
        }
        _shiftOffsets(from: Swift.min(sorted[0], target))
    }

    /// Replaces every element with `elements` (ids unique) and starts a new history: derived
    /// values recompute in full once, instead of replaying one change per element. O(n).
    @inlinable
    public mutating func replaceAll<S: Sequence>(with elements: S) where S.Element == Element {
        _startNewHistory()
        _load(ContiguousArray(elements))
    }

    /// Removes every element, starting a new history (see ``replaceAll(with:)``).
    public mutating func removeAll() {
        replaceAll(with: EmptyCollection())
    }

    // MARK: Offsets and labels

    /// Rewrites the id index for the elements from `offset` on.
    @inlinable
    mutating func _shiftOffsets(from offset: Int) {
        var index = offset
        while index < _elements.count {
            _offsets[_elements[index].id] = index
            index += 1
        }
    }

    /// The gap left between the labels of consecutive appended elements.
    @inlinable static var _labelSpacing: UInt64 { 1 << 32 }

    /// `count` labels spread evenly strictly between `lower` and `upper`.
    @usableFromInline
    static func _evenLabels(count: Int, above lower: UInt64, below upper: UInt64) -> ContiguousArray<UInt64> {
        guard count > 0 else { return [] }
        let room = (upper - lower) / UInt64(count + 1)
        let step = lower == 0 && upper == .max ? Swift.min(room, _labelSpacing) : room
        let base = lower == 0 && upper == .max ? (UInt64.max / 2) - step * UInt64(count / 2) : lower
        return ContiguousArray(unsafeUninitializedCapacity: count) { labels, initialized in
            var label = base
            for index in 0..<count {
                label += step
                labels.initializeElement(at: index, to: label)
            }
            initialized = count
        }
    }

    /// A label for an element about to be inserted at `offset`, strictly between the labels of
    /// its neighbours. When they leave no room, renumbers the smallest window of neighbours
    /// around `offset` that has room (doubling it each time), recording each renumbered element
    /// as moved so derived views re-place it; amortized O(log² n) per insertion.
    @inlinable
    mutating func _labelForInsertion(at offset: Int) -> UInt64 {
        let below: UInt64 = offset == 0 ? 0 : _labels[offset - 1]
        let above: UInt64 = offset == _labels.count ? .max : _labels[offset]
        if offset == _labels.count, offset > 0, below <= UInt64.max - 2 * Self._labelSpacing {
            return below + Self._labelSpacing
        }
        if offset == 0, offset < _labels.count, above >= 2 * Self._labelSpacing {
            return above - Self._labelSpacing
        }
        if above - below >= 2 {
            return below + (above - below) / 2
        }
        return _relabel(around: offset)
    }

    /// The slow part of `_labelForInsertion`: renumbers a window around `offset`.
    @usableFromInline
    mutating func _relabel(around offset: Int) -> UInt64 {
        var half = 8
        while true {
            let low = Swift.max(0, offset - half)
            let high = Swift.min(_labels.count, offset + half)
            let lower: UInt64 = low == 0 ? 0 : _labels[low - 1]
            let upper: UInt64 = high == _labels.count ? .max : _labels[high]
            let slots = high - low + 1
            let whole = low == 0 && high == _labels.count
            if whole || (upper - lower) / UInt64(slots + 1) >= 64 {
                let fresh = Self._evenLabels(count: slots, above: lower, below: upper)
                var next = 0
                for index in low..<high {
                    if index == offset { next += 1 }
                    let prior = _ListEntry(element: _elements[index], label: _labels[index])
                    _labels[index] = fresh[next]
                    next += 1
                    _record(.moved, prior.element.id, prior: prior, at: index)
                }
                return fresh[offset - low]
            }
            half *= 2
        }
    }
}
