/// Positions in a generated file ↔ positions in its spec, read from the file's
/// `#sourceLocation(file:line:)` … `#sourceLocation()` blocks.
///
/// The emitter keeps every spec fragment (type, default value, body) at its spec column inside
/// such a block (see the generator's `BodyLayout`), with generated code around it on the same
/// lines. So a spec position maps to the generated line the block gives it, at the same column
/// (in UTF-8 bytes), in the block whose text there is the spec's own text; a generated position
/// inside a block maps back by line offset. This is what forwarding Swift inside bodies
/// (diagnostics, completion, hover, definition) to `sourcekit-lsp` on the generated file needs
/// (issue 35).
public struct SourceMap: Sendable {
    /// One `#sourceLocation` block.
    public struct Block: Hashable, Sendable {
        /// The spec line (1-based) of the block's first line.
        public var specLine: Int
        /// The generated lines (0-based) between the two directives.
        public var generatedLines: Range<Int>
    }

    /// The generated file's lines, as UTF-8 bytes.
    public let generatedLines: [[UInt8]]
    /// The blocks, in file order.
    public let blocks: [Block]

    /// Reads the blocks of `generated`.
    public init(generated: String) {
        let lines = generated.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        generatedLines = lines
        var blocks: [Block] = []
        var open: (specLine: Int, start: Int)?
        let prefix = Array("#sourceLocation(".utf8)
        for (index, line) in lines.enumerated() where line.starts(with: prefix) {
            if let current = open {
                blocks.append(Block(specLine: current.specLine, generatedLines: current.start..<index))
                open = nil
            }
            if let specLine = Self.lineArgument(of: line) { open = (specLine, index + 1) }
        }
        self.blocks = blocks
    }

    /// `N` in `#sourceLocation(file: "…", line: N)`, or `nil` for `#sourceLocation()`.
    static func lineArgument(of directive: [UInt8]) -> Int? {
        let key = Array("line: ".utf8)
        guard directive.count >= key.count else { return nil }
        for start in stride(from: directive.count - key.count, through: 0, by: -1) where directive[start..<start + key.count].elementsEqual(key) {
            let digits = directive[(start + key.count)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            return Int(String(decoding: digits, as: UTF8.self))
        }
        return nil
    }

    /// The generated position (0-based line, 0-based UTF-8 column) of the spec position
    /// (1-based line, 1-based UTF-8 column) whose line is `specLine`, or `nil` when no fragment of
    /// the generated file holds that text. Of the blocks that cover the line, the one whose text
    /// before the column matches the spec's longest wins (a field's line appears in several).
    public func generatedPosition(line: Int, column: Int, specLine: [UInt8]) -> (line: Int, column: Int)? {
        var best: (line: Int, column: Int, match: Int)?
        for block in blocks where block.specLine <= line && line < block.specLine + block.generatedLines.count {
            let generatedLine = block.generatedLines.lowerBound + line - block.specLine
            let generated = generatedLines[generatedLine]
            let column = column - 1
            guard column <= generated.count, column <= specLine.count else { continue }
            var match = 0
            while match < column, generated[column - match - 1] == specLine[column - match - 1] { match += 1 }
            let atText = column < generated.count && column < specLine.count && generated[column] == specLine[column]
            guard match > 0 || atText else { continue }
            if best == nil || match > best!.match { best = (generatedLine, column, match) }
        }
        return best.map { ($0.line, $0.column) }
    }

    /// The spec position (1-based line, 1-based UTF-8 column) of a generated position (0-based
    /// line and column), or `nil` outside every block.
    public func specPosition(generatedLine: Int, column: Int) -> (line: Int, column: Int)? {
        guard let block = blocks.first(where: { $0.generatedLines.contains(generatedLine) }) else { return nil }
        return (block.specLine + generatedLine - block.generatedLines.lowerBound, column + 1)
    }
}
