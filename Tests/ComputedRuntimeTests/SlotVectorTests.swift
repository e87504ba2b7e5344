import ConcurrencyTestSupport
import Testing

@testable import ComputedRuntime

/// `_SlotVector`, the persistent vector keyed results keep their per-key values in: compared with
/// an `Array` under random appends and updates, with copies kept along the way that must keep
/// their values.
@Suite("Slot vector: a persistent array by slot")
struct SlotVectorTests {
    @Test("random appends and updates equal an Array's; copies keep their values", arguments: [1, 2] as [UInt64])
    func randomEdits(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var vector = _SlotVector<Int>()
        var array: [Int] = []
        var kept: [(_SlotVector<Int>, [Int])] = []
        for step in 0..<40_000 {
            if array.isEmpty || Int.random(in: 0..<3, using: &generator) == 0 {
                vector.append(step)
                array.append(step)
            } else {
                let slot = Int.random(in: 0..<array.count, using: &generator)
                let old = vector.update(slot) { value in
                    defer { value = step }
                    return value
                }
                #expect(old == array[slot])
                array[slot] = step
            }
            if step % 997 == 0 { kept.append((vector, array)) }
        }
        #expect(vector.count == array.count)
        #expect((0..<array.count).allSatisfy { vector[$0] == array[$0] })
        for (copy, values) in kept {
            var seen: [Int] = []
            copy.forEach { slot, value in
                #expect(slot == seen.count)
                seen.append(value)
            }
            #expect(seen == values)
        }
        #expect(array.count > 32 * 32)   // three levels
    }

    @Test("built from an array, of any size around the levels' widths")
    func buildFromArray() {
        for count in [0, 1, 31, 32, 33, 1_023, 1_024, 1_025, 40_000] {
            let values = ContiguousArray(0..<count)
            var vector = _SlotVector(values)
            #expect(vector.count == count)
            #expect((0..<count).allSatisfy { vector[$0] == $0 })
            vector.append(count)
            #expect(vector[count] == count && vector.count == count + 1)
            if count > 0 {
                let before = vector
                vector.update(count / 2) { $0 = -1 }
                #expect(vector[count / 2] == -1 && before[count / 2] == count / 2)
            }
        }
    }

    @Test("key slots: stable, and a copy keeps its keys")
    func keySlots() {
        var slots = _KeySlots<String>()
        var added: [String] = []
        for key in ["a", "b", "a", "c", "b"] {
            let (slot, isNew) = slots.slot(adding: key)
            added.append("\(key)\(slot)\(isNew ? "+" : "")")
            if key == "b", isNew {
                let copy = slots
                _ = slots.slot(adding: "c")
                #expect(copy.count == 2 && copy.slot(of: "c") == nil && slots.slot(of: "c") == 2)
            }
        }
        #expect(added == ["a0+", "b1+", "a0", "c2", "b1"])
        #expect(slots.key(at: 2) == "c" && slots.slot(of: "b") == 1)
    }

    @Test("key slots of integer keys (hashed by the id index's mix): every key found, extremes included")
    func integerKeySlots() {
        var generator = SeededGenerator(seed: 7)
        var keys = (0..<5_000).map { $0 &* 7_919 - 2_500 } + [Int.min, Int.max, 0, -1]
        keys.shuffle(using: &generator)
        var slots = _KeySlots<Int>()
        var expected: [Int: Int] = [:]
        for key in keys + keys.prefix(100) {
            let (slot, isNew) = slots.slot(adding: key)
            #expect(isNew == (expected[key] == nil))
            if isNew { expected[key] = slot }
            #expect(expected[key] == slot)
        }
        #expect(slots.count == expected.count)
        #expect(expected.allSatisfy { slots.slot(of: $0.key) == $0.value && slots.key(at: $0.value) == $0.key })
        #expect(slots.slot(of: 1) == nil && slots.slot(of: Int.min + 1) == nil)
    }
}
