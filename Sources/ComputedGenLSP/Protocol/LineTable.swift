/// A position as the LSP counts it: a 0-based line and a 0-based character offset in UTF-16
/// code units (the protocol's default and only mandatory position encoding).
public struct Position: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 0-based line.
    public var line: Int
    /// The 0-based offset in the line, in UTF-16 code units.
    public var character: Int

    /// Creates a position.
    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// The position in `json` (`{"line": …, "character": …}`), or `nil`.
    public init?(json: JSONValue?) {
        guard let line = json?["line"]?.intValue, let character = json?["character"]?.intValue else { return nil }
        self.init(line: line, character: character)
    }

    /// The position as JSON.
    public var json: JSONValue { ["line": .int(line), "character": .int(character)] }

    public static func < (lhs: Position, rhs: Position) -> Bool {
        (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }

    public var description: String { "\(line):\(character)" }
}

/// A range of LSP positions, end exclusive.
public struct LSPRange: Hashable, Sendable {
    /// The first position.
    public var start: Position
    /// The position after the last character.
    public var end: Position

    /// Creates a range.
    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }

    /// The range in `json`, or `nil`.
    public init?(json: JSONValue?) {
        guard let start = Position(json: json?["start"]), let end = Position(json: json?["end"]) else { return nil }
        self.init(start: start, end: end)
    }

    /// The range as JSON.
    public var json: JSONValue { ["start": start.json, "end": end.json] }
}

/// Converts between the UTF-8 byte offsets the generator reports (``SourceLocation/offset``)
/// and LSP positions of one text.
///
/// Lines end at `\n`, `\r\n` or a lone `\r`, as the LSP defines them. Offsets, not the
/// generator's line and column, are the bridge: the spec lexer counts lines at `\n` only, so an
/// offset is the one coordinate both sides agree on.
public struct LineTable: Sendable {
    /// The text's UTF-8 bytes.
    public let bytes: [UInt8]
    /// The byte offset where each line starts.
    public let lineStarts: [Int]

    /// Builds the table of `text`.
    public init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Builds the table of a text's UTF-8 bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                starts.append(index + 1)
            } else if byte == 0x0D {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        lineStarts = starts
    }

    /// The index of the line that holds byte `offset`.
    public func line(ofOffset offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The offset one past the line's last character (before its line break).
    public func contentEnd(ofLine line: Int) -> Int {
        guard line + 1 < lineStarts.count else { return bytes.count }
        var end = lineStarts[line + 1]
        if end > lineStarts[line], bytes[end - 1] == 0x0A { end -= 1 }
        if end > lineStarts[line], bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// The LSP position of byte `offset` (clamped to the text). An offset inside a multi-byte
    /// character counts the characters before it.
    public func position(ofOffset offset: Int) -> Position {
        let offset = min(max(offset, 0), bytes.count)
        let line = line(ofOffset: offset)
        let start = lineStarts[line]
        return Position(line: line, character: Self.utf16Count(bytes[start..<min(offset, contentEnd(ofLine: line))]))
    }

    /// The byte offset of an LSP position. A line past the end gives the end of the text; a
    /// character past the end of its line gives the end of the line (as the LSP asks); a
    /// character inside a surrogate pair gives the start of that character.
    public func offset(of position: Position) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        var offset = lineStarts[position.line]
        let end = contentEnd(ofLine: position.line)
        var units = 0
        while offset < end {
            let length = Self.sequenceLength(bytes[offset])
            let width = length == 4 ? 2 : 1
            if units + width > position.character { break }
            units += width
            offset = min(offset + length, end)
        }
        return offset
    }

    /// The LSP range of the bytes `start..<end`.
    public func range(from start: Int, to end: Int) -> LSPRange {
        LSPRange(start: position(ofOffset: start), end: position(ofOffset: max(start, end)))
    }

    /// The number of UTF-16 code units that the UTF-8 bytes encode.
    static func utf16Count(_ bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 {  // Each lead byte starts one scalar.
            count += byte >= 0xF0 ? 2 : 1
        }
        return count
    }

    /// The length of the UTF-8 sequence that `lead` starts (1 for a stray continuation byte).
    static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
