/// The tokens of a spec being converted, with the lookups ``SpecConverter`` makes: by offset,
/// forwards from an offset, and the lines around a member.
struct ConversionTokens {
    let bytes: [UInt8]
    /// The top-level tokens, in order.
    let top: [Token]
    /// The top-level tokens and those of every string interpolation.
    let all: [Token]
    /// The top-level tokens, then those of each string interpolation on its own.
    let runs: [[Token]]
    private let indexOfOffset: [Int: Int]
    private let matching: [Int: Int]

    init(_ source: String) {
        bytes = Array(source.utf8)
        runs = Renamer.tokenRuns(of: source)
        top = runs[0]
        all = runs.flatMap { $0 }
        var indexOfOffset: [Int: Int] = [:]
        var matching: [Int: Int] = [:]
        var open: [Int] = []
        for (index, token) in top.enumerated() {
            indexOfOffset[token.location.offset] = index
            if token.isPunctuation("{") { open.append(index) }
            if token.isPunctuation("}"), let opener = open.popLast() { matching[opener] = index }
        }
        self.indexOfOffset = indexOfOffset
        self.matching = matching
    }

    /// The top-level token that starts at `offset`.
    func token(at offset: Int) -> Token? {
        indexOfOffset[offset].map { top[$0] }
    }

    /// The token after `token`.
    func next(after token: Token) -> Token? {
        guard let index = indexOfOffset[token.location.offset], index + 1 < top.count else { return nil }
        return top[index + 1]
    }

    /// The token before `token`.
    func previous(before token: Token) -> Token? {
        guard let index = indexOfOffset[token.location.offset], index > 0 else { return nil }
        return top[index - 1]
    }

    /// The first top-level token at or after `offset` (and before `end`) that matches.
    func first(after offset: Int, before end: Int = .max, where matches: (Token) -> Bool) -> Token? {
        var low = 0
        var high = top.count
        while low < high {
            let middle = (low + high) / 2
            if top[middle].location.offset < offset { low = middle + 1 } else { high = middle }
        }
        for token in top[low...] {
            if token.location.offset >= end { return nil }
            if matches(token) { return token }
        }
        return nil
    }

    /// The `}` that closes the `{` token `open`.
    func matchingBrace(of open: Token) -> Token? {
        indexOfOffset[open.location.offset].flatMap { matching[$0] }.map { top[$0] }
    }

    /// Whether `token` comes right after a `.` (a member, not a type or a variable).
    func isAfterDot(_ token: Token) -> Bool {
        guard let index = indexOfOffset[token.location.offset] else {
            // Inside an interpolation: look at the byte before.
            return token.location.offset > 0 && bytes[token.location.offset - 1] == UInt8(ascii: ".")
        }
        return index > 0 && top[index - 1].isPunctuation(".")
    }

    /// Whether the tokens of `run` at `index` are `<operand>.computed.`: a nested state's
    /// computed value read through `computed`.
    func readsThroughComputed(_ run: [Token], at index: Int) -> Bool {
        index >= 2 && index + 1 < run.count && run[index].isWord("computed") && run[index - 1].isPunctuation(".")
            && run[index + 1].isPunctuation(".") && endsOperand(run[index - 2])
    }

    /// Whether `token` can end an operand, so that `.computed` after it reads a member.
    func endsOperand(_ token: Token) -> Bool {
        token.kind == .identifier || [")", "]", "?", "!"].contains(where: token.isPunctuation)
    }

    /// The `@` of `@name` right before `keyword`, if there is one.
    func attribute(_ name: String, before keyword: Token) -> Token? {
        guard let index = indexOfOffset[keyword.location.offset], index >= 2,
              top[index - 2].isPunctuation("@"), top[index - 1].isWord(name) else { return nil }
        return top[index - 2]
    }

    /// The access modifiers among the tokens from `start` up to `end`.
    func modifiers(from start: Int, before end: Int) -> [Token] {
        guard let first = indexOfOffset[start] else { return [] }
        return top[first...].prefix { $0.location.offset < end }
            .filter { ["public", "package", "internal"].contains(where: $0.isWord) }
    }

    /// Whether the line starting at `token` declares a state (`public struct NameSpec`).
    func startsState(at token: Token) -> Bool {
        guard let index = indexOfOffset[token.location.offset], index + 2 < top.count else { return false }
        return top[index + 1].isWord("struct") && SpecForm.stateName(forSwiftType: top[index + 2].text) != nil
    }

    /// The offset where the line holding `offset` starts.
    func lineStart(of offset: Int) -> Int {
        var start = min(offset, bytes.count)
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return start
    }

    /// The offset of the line break that ends the line holding `offset` (or the end of the text).
    func lineEnd(after offset: Int) -> Int {
        var end = offset
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return end
    }

    /// The text of the bytes `start..<end`.
    func text(from start: Int, to end: Int) -> String {
        String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    /// The ranges of the `// computedgen:` lines (with their line breaks) just before the member
    /// that starts at `offset`, among its doc comment lines.
    func directiveLines(before offset: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var lineEnd = lineStart(of: offset)
        while lineEnd > 0 {
            let start = lineStart(of: lineEnd - 1)
            let line = text(from: start, to: lineEnd - 1).trimmingWhitespace()
            if line.hasPrefix("//"), !line.hasPrefix("///"),
               String(line.dropFirst(2)).trimmingWhitespace().hasPrefix(SpecForm.directivePrefix) {
                ranges.append(start..<lineEnd)
            } else if !line.hasPrefix("///") {
                break
            }
            lineEnd = start
        }
        return ranges
    }
}
