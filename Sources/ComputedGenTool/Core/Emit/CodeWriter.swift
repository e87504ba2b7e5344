/// Builds Swift source text line by line with four-space indentation.
///
/// The emitter never concatenates indentation by hand: it opens and closes blocks, so the output is
/// formatted like hand-written Swift and deterministic.
struct CodeWriter {
    private(set) var text = ""
    private var depth = 0
    private static let indentUnit = "    "

    /// Appends one line at the current indentation; an empty string appends an empty line.
    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            // Appended piece by piece: building the line first costs an allocation per line.
            for _ in 0..<depth { text += Self.indentUnit }
            text += content
            text += "\n"
        }
    }

    /// Appends several lines at the current indentation.
    mutating func lines(_ contents: [String]) {
        for content in contents { line(content) }
    }

    /// The current indentation, for lines written with ``verbatim(_:)`` that should still line up.
    var indentation: String {
        String(repeating: Self.indentUnit, count: depth)
    }

    /// Appends a line exactly as given, ignoring the current indentation (for `#sourceLocation`
    /// directives and spec bodies whose columns must match the spec).
    mutating func verbatim(_ content: String) {
        text += content + "\n"
    }

    /// Appends `header {`, runs `body` one level deeper and closes with `}` (plus `suffix`).
    mutating func block(_ header: String, suffix: String = "", _ body: (inout CodeWriter) -> Void) {
        line(header + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}" + suffix)
    }

    /// Runs `body` one level deeper (for the arguments of a call spread over several lines).
    mutating func indent(_ body: (inout CodeWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    /// Appends `///` lines for a doc comment; nothing when `lines` is empty.
    mutating func doc(_ lines: [String]) {
        for docLine in lines {
            line(docLine.isEmpty ? "///" : "/// " + docLine)
        }
    }

    /// Removes a trailing empty line, so that blocks do not end with a blank line.
    mutating func trimTrailingBlankLine() {
        while text.hasSuffix("\n\n") { text.removeLast() }
    }

    /// Appends `callee(a, b)` on one line when it fits in `width` columns, otherwise with one
    /// argument per line, as hand-written Swift does.
    mutating func call(_ callee: String, arguments: [String], width: Int = 100) {
        let single = "\(callee)(\(arguments.joined(separator: ", ")))"
        if depth * Self.indentUnit.count + single.count <= width || arguments.isEmpty {
            line(single)
            return
        }
        line(callee + "(")
        for (index, argument) in arguments.enumerated() {
            line(Self.indentUnit + argument + (index == arguments.count - 1 ? "" : ","))
        }
        line(")")
    }
}
