import Foundation

/// The full sort of a query ordered by one key path (`sorted(by: \.date)`): decorate, sort,
/// undecorate. Each entry's key is read once, into an array of keys; the entries' positions are
/// sorted by those keys (a sort of 10^6 entries compares about 2 · 10^7 times: reading two keys
/// per comparison through the query's order closure was most of a bulk load's cost); the entries
/// are then gathered in that order.
///
/// Keys of a type that maps to an unsigned integer in the same order (fixed-width integers,
/// `Double`, `Float`, `Date`) are sorted by a radix sort of those integers, in O(n) passes over
/// 16-byte records instead of O(n log n) comparisons with mispredicted branches (at 10^6
/// entries the merge sort was the largest part of a bulk load); other keys by `sort`.
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
            var keys = ContiguousArray<Value>()
            keys.reserveCapacity(buffer.count)
            if let entryOffset {
                let raw = UnsafeRawPointer(base)
                let stride = MemoryLayout<_ListEntry<Source>>.stride
                for position in buffer.indices {
                    keys.append(raw.load(fromByteOffset: position * stride + entryOffset, as: Value.self))
                }
            } else {
                for position in buffer.indices { keys.append(key(buffer[position].element)) }
            }
            if let sorted = _radixSorted(keys, descending: descending) {
                _gather(buffer, sorted.lazy.map(\.position))
                return
            }
            var keyed = ContiguousArray<(key: Value, position: Int)>()
            keyed.reserveCapacity(keys.count)
            for (position, key) in keys.enumerated() { keyed.append((key, position)) }
            if descending {
                keyed.sort { $0.key > $1.key }
            } else {
                keyed.sort { $0.key < $1.key }
            }
            _gather(buffer, keyed.lazy.map(\.position))
        }
    }

    /// Reorders `buffer` so that its entry at offset `i` is the one that was at `positions[i]`
    /// (a permutation of its offsets), by moving the entries (no copy, nothing retained or
    /// released): into a scratch buffer in that order, then back.
    @inlinable
    static func _gather<Positions: Collection<Int>>(_ buffer: UnsafeMutableBufferPointer<_ListEntry<Source>>,
                                                    _ positions: Positions) {
        guard let base = buffer.baseAddress else { return }
        let scratch = UnsafeMutablePointer<_ListEntry<Source>>.allocate(capacity: buffer.count)
        defer { scratch.deallocate() }
        var target = scratch
        for position in positions {
            target.moveInitialize(from: base + position, count: 1)
            target += 1
        }
        base.moveInitialize(from: scratch, count: buffer.count)
    }

    /// The offsets of `keys` in the stable order of the keys (descending: of their reverse
    /// order), by a radix sort of their integer images; nil when `Value` has none (see
    /// `_RadixKey`), when a key has none (NaN), or when the result is not the one `sort` gives
    /// (checked in one pass, so an image that does not order as `<` does costs a fallback, never
    /// a wrong order).
    @inlinable
    static func _radixSorted<Value: Comparable>(_ keys: ContiguousArray<Value>, descending: Bool)
        -> ContiguousArray<_RadixItem>? {
        guard _RadixKey.supports(Value.self) else { return nil }
        var items = ContiguousArray<_RadixItem>()
        items.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() {
            guard let image = _RadixKey.image(key) else { return nil }
            items.append(_RadixItem(key: descending ? ~image : image, position: position))
        }
        _RadixItem.sort(&items)
        // Sorted as `sort` would have: each key not before its predecessor, and equal keys in
        // their original order.
        return keys.withUnsafeBufferPointer { keys in
            for index in items.indices.dropFirst() {
                let previous = items[index - 1].position
                let next = items[index].position
                let (a, b) = descending ? (keys[next], keys[previous]) : (keys[previous], keys[next])
                if b < a || (!(a < b) && previous > next) { return nil }
            }
            return items
        }
    }
}

/// A key's integer image and its entry's offset, for a radix sort.
@usableFromInline
struct _RadixItem {
    @usableFromInline var key: UInt64
    @usableFromInline var position: Int

    @inlinable
    init(key: UInt64, position: Int) {
        self.key = key
        self.position = position
    }

    /// Sorts `items` by key, stably: a least-significant-digit radix sort, 11 bits per pass,
    /// skipping the passes whose digit all items share (the high bits of dates, the low bits
    /// of whole numbers).
    @inlinable
    static func sort(_ items: inout ContiguousArray<_RadixItem>) {
        let count = items.count
        guard count > 1 else { return }
        let bits = 11
        let radix = 1 << bits
        let mask = UInt64(radix - 1)
        let passes = (64 + bits - 1) / bits
        var histograms = [Int](repeating: 0, count: radix * passes)
        histograms.withUnsafeMutableBufferPointer { histograms in
            for item in items {
                var key = item.key
                for pass in 0..<passes {
                    histograms[pass * radix + Int(key & mask)] += 1
                    key >>= UInt64(bits)
                }
            }
        }
        var scratch = ContiguousArray<_RadixItem>(repeating: _RadixItem(key: 0, position: 0), count: count)
        var sortedIntoScratch = false
        histograms.withUnsafeMutableBufferPointer { histograms in
            for pass in 0..<passes {
                let counts = UnsafeMutableBufferPointer(rebasing: histograms[pass * radix ..< (pass + 1) * radix])
                if counts.contains(count) { continue }
                var start = 0
                for digit in 0..<radix {
                    let size = counts[digit]
                    counts[digit] = start
                    start += size
                }
                let shift = UInt64(pass * bits)
                items.withUnsafeMutableBufferPointer { items in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        let (source, target) = sortedIntoScratch ? (scratch, items) : (items, scratch)
                        for item in source {
                            let digit = Int((item.key >> shift) & mask)
                            target[counts[digit]] = item
                            counts[digit] += 1
                        }
                    }
                }
                sortedIntoScratch.toggle()
            }
        }
        if sortedIntoScratch { swap(&items, &scratch) }
    }
}

/// The key types a radix sort handles, each mapped to an unsigned integer in its order: a < b
/// exactly when image(a) < image(b).
@usableFromInline
enum _RadixKey {
    /// Whether `type` has an integer image.
    @inlinable
    static func supports<Value>(_ type: Value.Type) -> Bool {
        type == Int.self || type == Int64.self || type == Int32.self || type == UInt.self || type == UInt64.self
            || type == UInt32.self || type == Double.self || type == Float.self || type == Date.self
    }

    /// The integer image of `value`, or nil (a type without one, or NaN).
    @inlinable @inline(__always)
    static func image<Value>(_ value: Value) -> UInt64? {
        if Value.self == Int.self { return signed(Int64(unsafeBitCast(value, to: Int.self))) }
        if Value.self == Int64.self { return signed(unsafeBitCast(value, to: Int64.self)) }
        if Value.self == Int32.self { return signed(Int64(unsafeBitCast(value, to: Int32.self))) }
        if Value.self == UInt.self { return UInt64(unsafeBitCast(value, to: UInt.self)) }
        if Value.self == UInt64.self { return unsafeBitCast(value, to: UInt64.self) }
        if Value.self == UInt32.self { return UInt64(unsafeBitCast(value, to: UInt32.self)) }
        if Value.self == Double.self { return floating(unsafeBitCast(value, to: Double.self)) }
        if Value.self == Float.self { return floating(Double(unsafeBitCast(value, to: Float.self))) }
        if Value.self == Date.self { return floating(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate) }
        return nil
    }

    /// Signed integers: the sign bit flipped (negatives first).
    @inlinable @inline(__always)
    static func signed(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: value) ^ (1 << 63)
    }

    /// Floating point: positives with the sign bit set, negatives with every bit flipped (larger
    /// magnitudes first); -0 as 0 (they are equal); nil for NaN (unordered).
    @inlinable @inline(__always)
    static func floating(_ value: Double) -> UInt64? {
        if value.isNaN { return nil }
        let bits = (value == 0 ? 0.0 : value).bitPattern
        return bits & (1 << 63) == 0 ? bits | (1 << 63) : ~bits
    }
}
