/// The full sort of a query ordered by one key path (`sorted(by: \.date)`): decorate, sort,
/// undecorate. Each entry's key is read once, into an array of keys and positions; that array is
/// sorted, comparing keys only (a sort of 10^6 entries compares about 2 · 10^7 times: reading two
/// keys per comparison through the query's order closure was most of a bulk load's cost); the
/// entries are then gathered in that order.
extension ListQuery {
    /// A full sort by `key` (of a source element), ascending or descending, stable (the entries
    /// arrive in source order, and `sort` keeps equal keys in their order). `sourceOffset`, when
    /// the key is a stored property of the source elements themselves, is its byte offset: the
    /// key is then loaded from the entries' storage, without copying the element.
    @inlinable
    static func _keyedSort<Value: Comparable & Sendable>(descending: Bool, sourceOffset: Int?,
                                               _ key: @escaping @Sendable (Source) -> Value)
        -> @Sendable (UnsafeMutableBufferPointer<_ListEntry<Source>>) -> Void {
        let entryOffset = sourceOffset.flatMap { offset in
            MemoryLayout<_ListEntry<Source>>.offset(of: \_ListEntry<Source>.element).map { $0 + offset }
        }
        return { buffer in
            guard let base = buffer.baseAddress, buffer.count > 1 else { return }
            var keyed = ContiguousArray<(key: Value, position: Int)>()
            keyed.reserveCapacity(buffer.count)
            if let entryOffset {
                let raw = UnsafeRawPointer(base)
                let stride = MemoryLayout<_ListEntry<Source>>.stride
                for position in buffer.indices {
                    keyed.append((raw.load(fromByteOffset: position * stride + entryOffset, as: Value.self), position))
                }
            } else {
                for position in buffer.indices { keyed.append((key(buffer[position].element), position)) }
            }
            if descending {
                keyed.sort { $0.key > $1.key }
            } else {
                keyed.sort { $0.key < $1.key }
            }
            // Gather by moving the entries (no copy, nothing retained or released): into a
            // scratch buffer in the sorted order, then back.
            let scratch = UnsafeMutablePointer<_ListEntry<Source>>.allocate(capacity: buffer.count)
            defer { scratch.deallocate() }
            for (index, pair) in keyed.enumerated() {
                (scratch + index).moveInitialize(from: base + pair.position, count: 1)
            }
            base.moveInitialize(from: scratch, count: buffer.count)
        }
    }
}
