/// Lays out a spec body so that every line and column in the generated file maps back to the spec.
///
/// The body is wrapped in `#sourceLocation(file:line:)` … `#sourceLocation()`. The first line that
/// holds code keeps its spec column by padding it with spaces (columns count UTF-8 bytes), and the
/// lines after it are copied verbatim, so a compile error inside a body is reported at the exact
/// `spec:line:column`.
struct BodyLayout {
    let body: Body

    init(_ body: Body) {
        self.body = body
    }

    /// The lines to emit, including both `#sourceLocation` directives and the body's closing
    /// brace, which sits where the spec has it (right after the body's last character): a body
    /// whose last token is cut (`"…" -}`) gets Swift's error at the spec's brace, not at a brace
    /// of the generated file.
    func lines(sourcePath: String) -> [String] {
        var lines = Self.splitLines(body.text)
        var firstLine = body.location.line
        var firstColumn = body.location.column

        // A body that starts on the line after `{` begins at column 1 of its next line.
        while let first = lines.first, first.allSatisfy(\.isWhitespace), lines.count > 1 {
            lines.removeFirst()
            firstLine += 1
            firstColumn = 1
        }
        lines[0] = String(repeating: " ", count: firstColumn - 1) + lines[0]
        lines = lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        // The last line's white space puts the brace at its spec column.
        let last = lines.removeLast()
        lines = lines.map(trimmingTrailingWhitespace) + [last + "}"]
        return ["#sourceLocation(file: \(sourcePath), line: \(firstLine))"] + lines + ["#sourceLocation()"]
    }

    /// The lines of spec text, LF or CRLF. ("\r\n" is a single Character in Swift, so splitting on
    /// "\n" alone would leave CRLF text in one piece, carrying its carriage returns along.)
    static func splitLines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(String.init)
    }

    private func trimmingTrailingWhitespace(_ line: String) -> String {
        var result = Substring(line)
        while let last = result.last, last == " " || last == "\t" {
            result.removeLast()
        }
        return String(result)
    }
}
