import ConcurrencyTestSupport
import Foundation
import Testing

@testable import ComputedRuntime

/// An element sorted by a key of type `Key`, with a reference-counted field (copies, moves and
/// releases of the entries are visible to ASan and to the leak check below).
private struct Keyed<Key: Comparable & Sendable>: Identifiable, Sendable {
    var id: Int
    var key: Key
    var tag: Tag
    /// The key read through a computed property: the sort reads it through the key path.
    var computedKey: Key { key }
}

private final class Tag: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}

/// The full evaluation of a key-path sort (a radix sort of the keys' integer images for integer,
/// floating-point and `Date` keys, `sort` otherwise) gives exactly the stable order that
/// `Array.sorted` gives with the same comparison, ascending and descending, with and without a
/// filter, for stored and computed key paths.
@Suite("Keyed sort of a full evaluation")
struct KeyedSortTests {
    private func check<Key: Comparable & Sendable>(_ keys: [Key], _ what: Comment, radix: Bool? = nil) {
        if let radix {
            let sorted = ListQuery<Keyed<Key>, Keyed<Key>>._radixSorted(ContiguousArray(keys), descending: false)
            #expect((sorted != nil) == radix, "\(what): sorted by the radix sort")
        }
        let elements = keys.enumerated().map { Keyed(id: $0.offset, key: $0.element, tag: Tag($0.offset)) }
        let list = IdentifiedList(elements)
        for descending in [false, true] {
            let expected = elements.sorted { descending ? $0.key > $1.key : $0.key < $1.key }.map(\.id)
            #expect(list.sorted(by: \.key, descending: descending).view.map(\.id) == expected, "\(what), descending: \(descending)")
            #expect(list.sorted(by: \.computedKey, descending: descending).view.map(\.id) == expected,
                    "\(what), computed key, descending: \(descending)")
            let filtered = elements.filter { $0.id % 3 != 0 }
                .sorted { descending ? $0.key > $1.key : $0.key < $1.key }.map(\.id)
            #expect(list.filter { $0.id % 3 != 0 }.sorted(by: \.key, descending: descending).view.map(\.id) == filtered,
                    "\(what), filtered, descending: \(descending)")
        }
    }

    @Test("integer keys of every width and sign, with many ties")
    func integers() {
        var generator = SeededGenerator(seed: 1)
        let ints = (0..<5_000).map { _ in Int.random(in: -300...300, using: &generator) }
        check(ints, "Int", radix: true)
        check(ints.map { $0 &* 0x1_0000_0001 }, "Int, wide")
        check([Int.min, .max, 0, -1, 1, .min, .max, -1], "Int, extremes")
        check(ints.map { Int64($0) << 40 }, "Int64")
        check(ints.map { Int32($0) }, "Int32")
        check(ints.map { UInt(bitPattern: $0) }, "UInt")
        check(ints.map { UInt64(bitPattern: Int64($0)) }, "UInt64, high bit set")
        check(ints.map { UInt32(truncatingIfNeeded: $0) }, "UInt32")
    }

    @Test("floating-point keys: signs, zeros of both signs, infinities, subnormals, ties")
    func floatingPoint() {
        var generator = SeededGenerator(seed: 2)
        let specials: [Double] = [0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                                  .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1, -1]
        let doubles = (0..<5_000).map { index in
            index % 7 == 0 ? specials[index % specials.count] : Double(Int.random(in: -50...50, using: &generator)) / 4
        }
        check(doubles, "Double", radix: true)
        check(doubles.map { Float($0) }, "Float")
        // Zeros of both signs are equal: they keep the list's order.
        check([0.0, -0.0, 0.0, -0.0, 1, -1], "signed zeros")
    }

    @Test("NaN keys: the same order as Array.sorted with the same comparison")
    func notANumber() {
        check([3, .nan, 1, 2, .nan, 0, -1], "NaN", radix: false)
    }

    @Test("dates, whole seconds and finer")
    func dates() {
        var generator = SeededGenerator(seed: 3)
        let seconds = (0..<5_000).map { _ in Date(timeIntervalSince1970: Double(Int.random(in: 0..<2_000, using: &generator))) }
        check(seconds, "whole seconds", radix: true)
        let fine = (0..<5_000).map { _ in Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &generator)) }
        check(fine, "fractions of a second", radix: true)
        check([Date.distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: 0), .distantPast], "distant dates")
    }

    @Test("keys without an integer image sort by comparison")
    func otherKeys() {
        check((0..<2_000).map { "k\(($0 * 7_919) % 101)" }, "String", radix: false)
    }

    @Test("empty and one-element lists")
    func small() {
        check([Int](), "empty")
        check([42], "one")
        check([2, 1], "two")
    }

    @Test("the radix sort is stable and sorts by the whole key")
    func radixItems() {
        var generator = SeededGenerator(seed: 4)
        var items = ContiguousArray((0..<20_000).map { position in
            _RadixItem(key: UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator) & ~0xFF,
                       position: position)
        })
        let expected = items.sorted { $0.key < $1.key }.map(\.position)
        _RadixItem.sort(&items)
        #expect(items.map(\.position) == expected)
    }

    @Test("entries are moved, not copied or leaked, through the sort")
    func noLeaks() {
        weak var watched: Tag?
        do {
            let elements = (0..<1_000).map { Keyed(id: $0, key: ($0 * 7_919) % 1_000, tag: Tag($0)) }
            watched = elements[500].tag
            let view = IdentifiedList(elements).sorted(by: \.key).view
            #expect(view.map(\.id) == elements.sorted { $0.key < $1.key }.map(\.id))
            #expect(watched != nil)
        }
        #expect(watched == nil)
    }
}
