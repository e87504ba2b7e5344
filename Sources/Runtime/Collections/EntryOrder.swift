/// The strict total order of an ``_OrderedTree``'s entries: a closure over two entries, or, where
/// the keys can be read where the entries are (a key path to a stored property of the elements),
/// over their addresses.
///
/// A search compares the entry it looks for with a dozen or so entries of the tree. A closure
/// over values is handed each entry by value, and one that reads a key at a byte offset must
/// first copy both entries somewhere it can take their address (the whole entry, every cache line
/// of it, for one key). Over addresses, a comparison reads the key, and the label only on a tie:
/// a third of the instructions, and one line of the entry rather than all of them, which counts
/// when the tree is not in the caches.
@usableFromInline
struct _EntryOrder<Entry>: Sendable {
    // Two closures, each always set (one forwards to the other), and a flag saying which one is
    // the order as given: called from stored properties of a borrowed value, neither is retained
    // per call (a closure taken out of an enum's payload is, once per search).
    /// The order over values.
    @usableFromInline let _byValue: @Sendable (Entry, Entry) -> Bool
    /// The order over addresses.
    @usableFromInline let _byAddress: @Sendable (UnsafePointer<Entry>, UnsafePointer<Entry>) -> Bool
    /// Whether the order was given over addresses: searches then pass the entries' addresses.
    @usableFromInline let _isByAddress: Bool

    /// The order `less` (true when its first argument comes first).
    @inlinable
    init(_ less: @escaping @Sendable (Entry, Entry) -> Bool) {
        _byValue = less
        _byAddress = { less($0.pointee, $1.pointee) }
        _isByAddress = false
    }

    /// The order `less`, given the entries' addresses (valid for the call only).
    @inlinable
    init(byAddress less: @escaping @Sendable (UnsafePointer<Entry>, UnsafePointer<Entry>) -> Bool) {
        _byValue = { a, b in withUnsafePointer(to: a) { a in withUnsafePointer(to: b) { b in less(a, b) } } }
        _byAddress = less
        _isByAddress = true
    }

    /// Whether `a` comes before `b`.
    @inlinable
    func callAsFunction(_ a: Entry, _ b: Entry) -> Bool {
        _byValue(a, b)
    }

    /// Whether `entry` comes before the entry at `position` of `entries`: read where they are, for
    /// an order over addresses.
    @inlinable
    func isLess(_ entry: Entry, than entries: ContiguousArray<Entry>, at position: Int) -> Bool {
        guard _isByAddress else { return _byValue(entry, entries[position]) }
        return entries.withUnsafeBufferPointer { entries in
            withUnsafePointer(to: entry) { entry in _byAddress(entry, entries.baseAddress! + position) }
        }
    }

    /// The first position in `entries` whose entry does not come before `entry` (binary search).
    @inlinable
    func lowerBound(_ entries: ContiguousArray<Entry>, _ entry: Entry) -> Int {
        guard _isByAddress else {
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if _byValue(entries[middle], entry) { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return entries.withUnsafeBufferPointer { entries in
            withUnsafePointer(to: entry) { entry in
                guard let base = entries.baseAddress else { return 0 }
                var low = 0
                var high = entries.count
                while low < high {
                    let middle = (low + high) / 2
                    if _byAddress(base + middle, entry) { low = middle + 1 } else { high = middle }
                }
                return low
            }
        }
    }
}
