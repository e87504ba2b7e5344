import Testing

@testable import ComputedGenLSP

@Suite("Positions: UTF-8 offsets and LSP's UTF-16 positions")
struct LineTableTests {
    @Test("characters count UTF-16 code units: é is one, 😀 is two, each is several bytes")
    func utf16() {
        let table = LineTable("ab\né😀x\n")
        #expect(table.position(ofOffset: 3) == Position(line: 1, character: 0))
        #expect(table.position(ofOffset: 5) == Position(line: 1, character: 1))  // After é (2 bytes).
        #expect(table.position(ofOffset: 9) == Position(line: 1, character: 3))  // After 😀 (4 bytes).
        #expect(table.offset(of: Position(line: 1, character: 3)) == 9)
        #expect(table.offset(of: Position(line: 1, character: 4)) == 10)
        #expect(table.offset(of: Position(line: 1, character: 2)) == 5)  // Inside the pair: its start.
    }

    @Test("lines end at \\n, \\r\\n and a lone \\r")
    func lineBreaks() {
        let table = LineTable("a\r\nb\rc\nd")
        #expect(table.lineStarts == [0, 3, 5, 7])
        #expect(table.position(ofOffset: 7) == Position(line: 3, character: 0))
        #expect(table.contentEnd(ofLine: 0) == 1)
        #expect(table.offset(of: Position(line: 0, character: 99)) == 1)  // Past the end of the line.
    }

    @Test("positions outside the text are clamped")
    func clamping() {
        let table = LineTable("ab\ncd")
        #expect(table.offset(of: Position(line: 9, character: 0)) == 5)
        #expect(table.offset(of: Position(line: -1, character: 0)) == 0)
        #expect(table.position(ofOffset: 99) == Position(line: 1, character: 2))
        #expect(LineTable("").position(ofOffset: 0) == Position(line: 0, character: 0))
    }

    @Test("every offset maps to a position and back, in a text of every kind of character")
    func roundTrip() {
        let text = "state S {\r\n  var é😀: Int = 0 // ü\n\tcomputed x: Int { 1 }\r}"
        let table = LineTable(text)
        var offset = 0
        for scalar in text.unicodeScalars {
            // The `\n` of a `\r\n` is inside a line break: no position points at it.
            if scalar != "\n" || offset == 0 || table.bytes[offset - 1] != 0x0D {
                #expect(table.offset(of: table.position(ofOffset: offset)) == offset)
            }
            offset += String(scalar).utf8.count
        }
    }
}
