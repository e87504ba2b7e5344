/// `sourcekit-lsp`'s answers, moved from the generated file into the spec.
///
/// A position inside a `#sourceLocation` block maps to the spec; one in generated code outside
/// every block has no spec position, and what is there is dropped rather than shown at a wrong
/// place (an edit's range, a diagnostic, a definition). Locations in other files pass through.
extension SwiftForwarding {
    /// A completion item with its edit's range moved into the spec; an edit outside the spec's
    /// fragments is dropped (the label is inserted instead), and so are edits elsewhere and the
    /// item's `data` (for a resolve this server does not forward).
    static func mapBack(_ item: JSONValue, snapshot: Snapshot, markdown: Bool) -> JSONValue {
        guard case .object(var members) = item else { return item }
        members["additionalTextEdits"] = nil
        members["data"] = nil
        if let edit = members["textEdit"], let range = LSPRange(json: edit["range"]) {
            if let mapped = specRange(of: range, snapshot: snapshot), let text = edit["newText"] {
                members["textEdit"] = ["range": mapped.json, "newText": text]
            } else {
                members["textEdit"] = nil
                members["insertText"] = edit["newText"]
            }
        }
        if let documentation = members["documentation"] {
            members["documentation"] = markup(documentation, markdown: markdown)
        }
        return .object(members)
    }

    /// Swift's hover, in the client's format, its range moved into the spec (or dropped), or
    /// `nil` when it has no text.
    static func hover(_ result: JSONValue, snapshot: Snapshot, markdown: Bool) -> JSONValue? {
        guard case .object(var hover) = result, let contents = hover["contents"], contents["value"] != nil || contents.stringValue != nil else {
            return nil
        }
        hover["contents"] = markup(contents, markdown: markdown)
        hover["range"] = LSPRange(json: result["range"]).flatMap { specRange(of: $0, snapshot: snapshot) }?.json
        return .object(hover)
    }

    /// Swift's diagnostics of a `textDocument/diagnostic` report, those in the spec's fragments
    /// moved into the spec; the others are dropped, and so are their related locations and data.
    static func diagnostics(_ report: JSONValue, snapshot: Snapshot) -> [JSONValue] {
        (report["items"]?.arrayValue ?? []).compactMap { diagnostic in
            guard case .object(var members) = diagnostic, let range = LSPRange(json: diagnostic["range"]),
                let mapped = specRange(of: range, snapshot: snapshot)
            else { return nil }
            members["range"] = mapped.json
            members["relatedInformation"] = nil
            members["data"] = nil
            if members["source"] == nil { members["source"] = "swift" }
            return .object(members)
        }
    }

    /// A definition's locations (`Location`, `[Location]` or `[LocationLink]`): those in the
    /// generated document moved into the spec (dropped outside its fragments), others as they are.
    static func locations(_ result: JSONValue, snapshot: Snapshot) -> JSONValue {
        let specURI = JSONValue.string(snapshot.document.uri)
        func moved(_ location: JSONValue) -> JSONValue? {
            if location["uri"] == .string(snapshot.uri) {
                guard case .object(var members) = location, let range = LSPRange(json: location["range"]),
                    let mapped = specRange(of: range, snapshot: snapshot)
                else { return nil }
                members["uri"] = specURI
                members["range"] = mapped.json
                return .object(members)
            }
            guard location["targetUri"] == .string(snapshot.uri) else { return location }
            guard case .object(var members) = location,
                let range = LSPRange(json: location["targetRange"]).flatMap({ specRange(of: $0, snapshot: snapshot) })
            else { return nil }
            let selection = LSPRange(json: location["targetSelectionRange"]).flatMap { specRange(of: $0, snapshot: snapshot) } ?? range
            members["targetUri"] = specURI
            members["targetRange"] = range.json
            members["targetSelectionRange"] = selection.json
            members["originSelectionRange"] = nil
            return .object(members)
        }
        if let array = result.arrayValue { return .array(array.compactMap(moved)) }
        if result["uri"] != nil { return moved(result) ?? .null }
        return .null
    }

    /// `MarkupContent` (or a string) in the format the client reads.
    static func markup(_ content: JSONValue, markdown: Bool) -> JSONValue {
        guard let value = content["value"]?.stringValue ?? content.stringValue else { return content }
        return Markup.content(value, asMarkdown: markdown && content["kind"] == "markdown")
    }

    /// The spec range of a range in the generated document, or `nil` when an end is outside the
    /// spec's fragments.
    static func specRange(of range: LSPRange, snapshot: Snapshot) -> LSPRange? {
        guard let start = specOffset(of: range.start, snapshot: snapshot), let end = specOffset(of: range.end, snapshot: snapshot), start <= end else {
            return nil
        }
        return snapshot.document.lines.range(from: start, to: end)
    }

    /// The spec offset of a position in the generated document, or `nil` outside its fragments.
    static func specOffset(of position: Position, snapshot: Snapshot) -> Int? {
        let generated = snapshot.generated
        let lines = snapshot.document.lines
        let offset = generated.offset(of: position)
        let line = generated.line(ofOffset: offset)
        guard let spec = snapshot.map.specPosition(generatedLine: line, column: offset - generated.lineStarts[line]),
            spec.line - 1 < lines.lineStarts.count
        else { return nil }
        let lineStart = lines.lineStarts[spec.line - 1]
        let specOffset = lineStart + spec.column - 1
        let generatedStart = generated.lineStarts[line]
        guard specOffset <= lines.contentEnd(ofLine: spec.line - 1),
            sameText(generated.bytes, at: offset, within: generatedStart..<generated.contentEnd(ofLine: line), lines.bytes, at: specOffset, within: lineStart..<lines.contentEnd(ofLine: spec.line - 1))
        else { return nil }
        return specOffset
    }

    /// Whether the character at (or, at the end of a word, just before) both offsets is the
    /// same: the block line holds the spec's own text there, not generated code around it.
    private static func sameText(_ generated: [UInt8], at offset: Int, within generatedLine: Range<Int>, _ spec: [UInt8], at specOffset: Int, within specLine: Range<Int>) -> Bool {
        if generatedLine.contains(offset), specLine.contains(specOffset), generated[offset] == spec[specOffset] { return true }
        return offset > generatedLine.lowerBound && specOffset > specLine.lowerBound && generated[offset - 1] == spec[specOffset - 1]
    }
}
