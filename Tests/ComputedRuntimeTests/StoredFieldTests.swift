import Testing
@testable import ComputedRuntime

private struct NotEquatable {
    var number: Int
}

@Suite("StoredField")
struct StoredFieldTests {
    @Test("every set and modify takes a new stamp; copies share it until written")
    func versions() {
        var field = StoredField(wrappedValue: 1)
        let v0 = field.version
        field.wrappedValue = 1  // a plain set is a write even when equal
        let v1 = field.version
        field.wrappedValue += 1
        let v2 = field.version
        #expect(v0 != v1)
        #expect(v1 != v2)
        #expect(field.wrappedValue == 2)
        var copy = field
        #expect(copy.version == field.version)
        copy.wrappedValue = 3
        #expect(copy.version != field.version)
        #expect(field.wrappedValue == 2)
    }

    @Test("update skips an equal Equatable value and keeps its stamp")
    func updateSkipsEqual() {
        var field = StoredField(wrappedValue: "a")
        let before = field.version
        #expect(field.update("a") == false)
        #expect(field.version == before)
        #expect(field.update("b") == true)
        #expect(field.version != before)
        #expect(field.wrappedValue == "b")
    }

    @Test("update always writes a value that is not Equatable")
    func updateWithoutEquatable() {
        var field = StoredField(wrappedValue: NotEquatable(number: 1))
        let before = field.version
        #expect(field.update(NotEquatable(number: 1)) == true)
        #expect(field.version != before)
    }

    @Test("modify mutates in place without copying the value")
    func modifyInPlace() {
        var field = StoredField(wrappedValue: [Int]())
        field.wrappedValue.reserveCapacity(64)
        let address = field.wrappedValue.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let before = field.version
        for i in 0..<32 {
            field.wrappedValue.append(i)
        }
        let after = field.wrappedValue.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(address == after, "the array buffer was copied by the accessor")
        #expect(field.wrappedValue == Array(0..<32))
        #expect(field.version != before)
    }

    @Test("a field is its value and one stamp: no middleware slot, unlike Edge")
    func layout() {
        // Generated states are copied whole into selectors and store calls: every word counts.
        #expect(MemoryLayout<StoredField<Int>>.size == 2 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<StoredField<[Int]>>.size == 2 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<StoredField<Int>>.size < MemoryLayout<Edge<Int>>.size)
    }

    @Test("description shows the value and the stamp")
    func description() {
        let field = StoredField(wrappedValue: 7)
        #expect(field.description == "7 @\(field.version)")
    }
}
