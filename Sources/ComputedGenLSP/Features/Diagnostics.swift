import ComputedGenCore

/// The generator's diagnostics as LSP diagnostics (`textDocument/publishDiagnostics`).
///
/// Messages are the build's, word for word. Each range starts where the build's
/// `line:column` points (converted from UTF-8 bytes to UTF-16 code units) and covers the token
/// that starts there, clamped to its line, so that editors underline the name or brace the
/// message is about; where no token starts (the end of the file), the range is empty.
public enum DiagnosticsFeature {
    /// The `source` every diagnostic carries.
    public static let source = "computedgen"

    /// The parameters of `textDocument/publishDiagnostics` for `document`.
    public static func publishParams(for document: SpecDocument) -> JSONValue {
        [
            "uri": .string(document.uri),
            "version": .int(document.version),
            "diagnostics": .array(document.analysis.checked.diagnostics.map { json(for: $0, in: document) }),
        ]
    }

    /// One diagnostic as LSP JSON.
    static func json(for diagnostic: Diagnostic, in document: SpecDocument) -> JSONValue {
        [
            "range": range(of: diagnostic, in: document).json,
            "severity": .int(severity(diagnostic.severity)),
            "source": .string(source),
            "message": .string(diagnostic.message),
        ]
    }

    /// The range a diagnostic underlines.
    static func range(of diagnostic: Diagnostic, in document: SpecDocument) -> LSPRange {
        let start = min(diagnostic.location.offset, document.lines.bytes.count)
        var end = start
        if let index = document.tokenIndex(before: start + 1), document.tokens[index].location.offset == start {
            let line = document.lines.line(ofOffset: start)
            end = min(document.tokens[index].endOffset, document.lines.contentEnd(ofLine: line))
        }
        return document.lines.range(from: start, to: end)
    }

    static func severity(_ severity: Diagnostic.Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }
}
