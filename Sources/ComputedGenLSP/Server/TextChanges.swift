/// Applies `textDocument/didChange` content changes (LSP incremental sync).
public enum TextChanges {
    /// The text after `changes`, applied in order to the text of `lines`. A change with a `range`
    /// replaces that range (positions clamped to the text, as LSP asks); a change without one
    /// replaces the whole text; a change without `text` is skipped.
    public static func apply(_ changes: [JSONValue], to lines: LineTable) -> String {
        var table = lines
        for change in changes {
            guard let text = change["text"]?.stringValue else { continue }
            guard let range = LSPRange(json: change["range"]) else {
                table = LineTable(text)
                continue
            }
            let start = table.offset(of: range.start)
            let end = max(start, table.offset(of: range.end))
            var bytes = table.bytes
            bytes.replaceSubrange(start..<end, with: text.utf8)
            table = LineTable(bytes: bytes)
        }
        return String(decoding: table.bytes, as: UTF8.self)
    }
}
