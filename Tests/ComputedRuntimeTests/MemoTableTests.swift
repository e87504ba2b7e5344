@testable import ComputedRuntime
import Testing

/// A state laid out as generated states are (one stored `Extended`, its fields' `StoredField`s and
/// one `MemoTable`), with computed values of several sizes and alignments and one holding a class
/// instance: the table's slots are laid out, copied and destroyed per type.
private struct Mixed {
    var computed: Extended

    struct Extended {
        var _count: StoredField<Int>
        var _memo: MemoTable

        var count: Int { _count.wrappedValue }
        var small: Int8 { read(0, Int8.self) }
        var text: String { read(1, String.self) }
        var vector: SIMD4<Double> { read(2, SIMD4<Double>.self) }
        var box: Box { read(3, Box.self) }

        func read<Value>(_ slot: Int, _: Value.Type) -> Value {
            if !_memo._isCached(slot) {
                withUnsafePointer(to: self) { Mixed.table.refresh(slot, in: $0) }
            }
            return _memo[_borrowed: slot, as: Value.self]
        }
    }

    init(count: Int) {
        computed = Extended(_count: StoredField(wrappedValue: count, version: .next()), _memo: Self.table.makeMemoTable())
    }

    var count: Int {
        get { computed._count.wrappedValue }
        set {
            if computed._count.update(newValue) {
                withUnsafeMutablePointer(to: &computed) { Self.table.invalidate(afterWritingField: 0, in: $0) }
            }
        }
    }

    final class Box: @unchecked Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    static let table = StateTable<Mixed, Extended>(\.computed, memo: \._memo) { table in
        table.field("count", \._count, \.count, \.count)
        table.computed("small", \.small, inputs: "count") { Int8(truncatingIfNeeded: $0.pointee.count) }
        table.computed("text", \.text, inputs: "count") { String(repeating: "x", count: 20) + "\($0.pointee.count)" }
        table.computed("vector", \.vector, inputs: "count") { SIMD4(repeating: Double($0.pointee.count)) }
        table.computed("box", \.box, inputs: "count") { Box($0.pointee.count) }
    }
}

@Suite("Memo table: one allocation for a state's computed values")
struct MemoTableTests {
    @Test("every slot is aligned for its value, and holds it")
    func alignment() {
        let state = Mixed(count: 300)
        #expect(state.computed.small == 44)
        #expect(state.computed.text == String(repeating: "x", count: 20) + "300")
        #expect(state.computed.vector == SIMD4(repeating: 300))
        #expect(state.computed.box.value == 300)
        let memo = state.computed._memo
        #expect(Int(bitPattern: _MemoCellHeader._valuePointer(memo._header(1), as: String.self)) % MemoryLayout<String>.alignment == 0)
        #expect(Int(bitPattern: _MemoCellHeader._valuePointer(memo._header(2), as: SIMD4<Double>.self)) % 16 == 0)
        #expect(Int(bitPattern: _MemoCellHeader._valuePointer(memo._header(3), as: Mixed.Box.self)) % 8 == 0)
        // Each slot's header is its word's offset from the first word, past the words.
        memo._slots.withUnsafeMutablePointerToElements { words in
            for slot in 0..<4 {
                #expect(UnsafeRawPointer(words) + words[slot] == UnsafeRawPointer(memo._header(slot)))
                #expect(words[slot] >= 4 * MemoryLayout<Int>.stride)
            }
        }
    }

    @Test("values are released with the last state that holds the table, and copies keep theirs")
    func release() {
        weak var first: Mixed.Box?
        weak var second: Mixed.Box?
        do {
            var state = Mixed(count: 1)
            first = state.computed.box
            let copy = state
            state.count = 2  // the table is shared: this copy takes its own
            second = state.computed.box
            #expect(copy.computed.box.value == 1)
            #expect(state.computed.box.value == 2)
            #expect(copy.computed.text.hasSuffix("1"))
            #expect(state.computed.text.hasSuffix("2"))
            #expect(first != nil && second != nil)
        }
        #expect(first == nil)
        #expect(second == nil)
    }

    @Test("a write to a state that does not share its table marks its values stale in place")
    func inPlace() {
        var state = Mixed(count: 1)
        _ = state.computed.box
        let table = ObjectIdentifier(state.computed._memo._slots)
        state.count = 2
        #expect(ObjectIdentifier(state.computed._memo._slots) == table)
        #expect(!state.computed._memo._isCached(3))
        #expect(state.computed.box.value == 2)
    }
}
