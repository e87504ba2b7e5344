// The edits a join makes to the list of its rows (`JoinQuery`). A row takes the label of the
// element it is made from, so that the rows keep the order of the joined list: a row inserted,
// removed or moved is placed by that label, in one pass over the rows for all of an update's
// structural edits (one `insert(_:at:)` per row would shift the rows after it, and their offsets
// in the id index, once per row: k · n for a new related value that k rows refer to).

extension IdentifiedList {
    /// A list of `elements` with `labels` (strictly increasing), in a history of its own.
    @inlinable
    init(_elements elements: ContiguousArray<Element>, labels: ContiguousArray<UInt64>, changeRecordCapacity: Int) {
        self.init(changeRecordCapacity: changeRecordCapacity)
        _offsets = _IDIndex(minimumCapacity: elements.count)
        elements.withUnsafeBufferPointer { elements in
            for offset in elements.indices {
                precondition(_offsets.insertNew(elements[offset].id, at: offset), "IdentifiedList: duplicate id \(elements[offset].id)")
            }
        }
        _elements = elements
        _labels = labels
    }

    /// The label of the element at `offset`.
    @inlinable
    func _label(at offset: Int) -> UInt64 {
        _labels[offset]
    }

    /// The offset at which an element labelled `label` belongs: the number of elements whose
    /// labels are smaller. O(log n).
    @inlinable
    func _offset(forLabel label: UInt64) -> Int {
        var low = 0
        var high = _labels.count
        while low < high {
            let middle = low + (high - low) / 2
            if _labels[middle] < label { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Removes the elements at `removals` (offsets, each once, in any order), moves the elements
    /// at `relabelled` to their new labels, and inserts `insertions` (elements whose ids are not in
    /// the list, with labels no element keeps), each placed by its label: recorded as one
    /// removal, move or insertion per element. O(n − m + k · log n), where m is the smallest offset
    /// the edits touch and k their number.
    @inlinable
    mutating func _applyLabelledEdits(removals: [Int], relabelled: [(offset: Int, label: UInt64)],
                                      insertions: [(element: Element, label: UInt64)]) {
        guard !removals.isEmpty || !relabelled.isEmpty || !insertions.isEmpty else { return }
        // The records first: each holds the element's entry before this edit.
        for offset in removals {
            _record(.removed, _elements[offset].id, prior: _ListEntry(element: _elements[offset], label: _labels[offset]))
        }
        for move in relabelled {
            _record(.moved, _elements[move.offset].id, prior: _ListEntry(element: _elements[move.offset], label: _labels[move.offset]))
        }
        // Everything that leaves its offset (removed or moved) goes out; everything placed by a
        // label (moved or inserted) comes back in, in label order.
        var leaving = Set(removals)
        var placed = insertions
        for move in relabelled {
            leaving.insert(move.offset)
            placed.append((_elements[move.offset], move.label))
        }
        placed.sort { $0.label < $1.label }
        var start = leaving.min() ?? _elements.count
        if let first = placed.first { start = Swift.min(start, _offset(forLabel: first.label)) }
        for offset in removals { _offsets[_elements[offset].id] = nil }
        var elements = ContiguousArray<Element>()
        var labels = ContiguousArray<UInt64>()
        let tail = _elements.count - start
        elements.reserveCapacity(tail - leaving.count + placed.count)
        labels.reserveCapacity(tail - leaving.count + placed.count)
        var next = 0
        for offset in start..<_elements.count where !leaving.contains(offset) {
            while next < placed.count, placed[next].label < _labels[offset] {
                elements.append(placed[next].element)
                labels.append(placed[next].label)
                next += 1
            }
            elements.append(_elements[offset])
            labels.append(_labels[offset])
        }
        while next < placed.count {
            elements.append(placed[next].element)
            labels.append(placed[next].label)
            next += 1
        }
        _elements.replaceSubrange(start..., with: elements)
        _labels.replaceSubrange(start..., with: labels)
        _shiftOffsets(from: start)
        for insertion in insertions { _record(.inserted, insertion.element.id, prior: nil) }
    }
}
