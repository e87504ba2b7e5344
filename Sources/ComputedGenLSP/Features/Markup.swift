/// The client's text formats, from its `initialize` capabilities, and hover and completion text
/// in the format it reads.
public struct ClientFormats: Hashable, Sendable {
    /// Whether completion items may insert snippets (`$1` placeholders).
    public var snippets = false
    /// Whether completion documentation may be Markdown.
    public var completionMarkdown = false
    /// Whether hover contents may be Markdown.
    public var hoverMarkdown = false

    /// Plain text, no snippets: what a client that declares nothing gets.
    public init() {}

    /// The formats that the capabilities of `initialize` declare.
    public init(capabilities: JSONValue?) {
        let textDocument = capabilities?["textDocument"]
        let item = textDocument?["completion"]?["completionItem"]
        snippets = item?["snippetSupport"]?.boolValue ?? false
        completionMarkdown = item?["documentationFormat"]?.arrayValue?.contains("markdown") ?? false
        hoverMarkdown = textDocument?["hover"]?["contentFormat"]?.arrayValue?.contains("markdown") ?? false
    }
}

/// `MarkupContent`: Markdown as written, or the same text as plain text (without code fences and
/// rules) for a client that reads only plain text.
enum Markup {
    static func content(_ markdown: String, asMarkdown: Bool) -> JSONValue {
        guard !asMarkdown else { return ["kind": "markdown", "value": .string(markdown)] }
        var lines: [Substring] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix("```") && line != "---" {
            if line.isEmpty, lines.last?.isEmpty ?? true { continue }  // One blank line between paragraphs.
            lines.append(line)
        }
        return ["kind": "plaintext", "value": .string(lines.joined(separator: "\n"))]
    }
}
