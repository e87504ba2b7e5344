/// A row of a hub: a listener of one part of a store's state (an element of a list, a key's
/// total), with its own number so that its token can remove it.
protocol _HubRow {
    var id: Int { get }
}

/// The rows of a hub by what they show (an element's id, a key), and the hub's one listener on the
/// store while any row listens: what ``Store/scope(_:id:)`` and ``Store/derived(_:key:)`` share.
/// Kept under the hub's lock.
struct _HubRows<Key: Hashable, Row: _HubRow> {
    /// The rows of each key, edited in place by the hub as commits reach them.
    var byKey: [Key: [Row]] = [:]
    /// How many rows listen.
    private(set) var count = 0
    private var nextID = 0
    /// The listener on the store, while any row listens.
    private var subscription: StoreSubscription?

    /// A number for a new row.
    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Adds `row`; returns whether it is the first row, after which the hub starts listening
    /// (outside its lock; see ``listen(_:)``).
    mutating func insert(_ row: Row, for key: Key) -> Bool {
        byKey[key, default: []].append(row)
        count += 1
        return count == 1
    }

    /// Removes the row numbered `id` of `key`; returns the store listener to cancel (outside the
    /// hub's lock) when it was the last row.
    mutating func remove(id: Int, for key: Key) -> StoreSubscription? {
        guard let index = byKey.index(forKey: key),
            let position = byKey.values[index].firstIndex(where: { $0.id == id })
        else { return nil }
        byKey.values[index].remove(at: position)
        if byKey.values[index].isEmpty {
            byKey.remove(at: index)
        }
        count -= 1
        guard count == 0 else { return nil }
        defer { subscription = nil }
        return subscription
    }

    /// Keeps `subscription`, made after the first row came in, unless the rows left meanwhile or
    /// another first row's is kept: then returns it, to cancel outside the hub's lock.
    mutating func listen(_ subscription: StoreSubscription) -> StoreSubscription? {
        guard count > 0, self.subscription == nil else { return subscription }
        self.subscription = subscription
        return nil
    }
}
