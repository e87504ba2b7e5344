import ComputedGenCore
import Foundation

/// Swift completion and hover inside a spec's bodies, types and default values, forwarded to the
/// toolchain's `sourcekit-lsp` on the generated file.
///
/// The generated Swift is opened in `sourcekit-lsp` as a document that exists only in memory,
/// `<spec>.swift` beside the spec, in the target's folder: there the target's build settings
/// apply, so `$0.` in `todos.filter { … }` completes `Todo`'s members (measured with Swift 6.3.1:
/// the first answer after about 13 s, as for any file of the target; the plugin's own output file
/// under `.build/plugins/outputs` gets no completion at all, for lack of build settings).
/// Positions go through the generated file's `#sourceLocation` blocks (``SourceMap``) both ways.
///
/// Opt-in (`--forward-swift`): it starts `sourcekit-lsp`, which prepares the package (builds
/// its dependencies) in the background.
final class SwiftForwarding {
    /// The `sourcekit-lsp` to start.
    let executable: String
    /// How long a completion may wait for `sourcekit-lsp` (its first answer in a package takes
    /// seconds while it prepares the target).
    let timeout: Duration
    private var client: SwiftServerClient?
    private var clientRoot: String?
    /// The generated text and version each virtual document was last sent with.
    private var sent: [String: (text: String, version: Int)] = [:]
    /// Why forwarding is unavailable, by reason already told: each is said once.
    private var toldReasons: Set<String> = []
    /// Messages for the client (`window/showMessage`), collected for the server to send.
    private(set) var pendingMessages: [JSONValue] = []

    init(executable: String = "sourcekit-lsp", timeout: Duration = .seconds(30)) {
        self.executable = executable
        self.timeout = timeout
    }

    /// Takes the messages to show in the editor.
    func takeMessages() -> [JSONValue] {
        defer { pendingMessages = [] }
        return pendingMessages
    }

    /// Swift's completion items at `offset` of `document`, with ranges in the spec, or `nil` when
    /// forwarding is unavailable (the reason is told once).
    func completion(in document: SpecDocument, at offset: Int, markdown: Bool = true) -> [JSONValue]? {
        guard let (result, map, generated) = forward("textDocument/completion", in: document, at: offset) else { return nil }
        let items = result["items"]?.arrayValue ?? result.arrayValue ?? []
        return items.map { item in
            var mapped = Self.mapBack(item, map: map, generated: generated, document: document)
            if case .object(var members) = mapped, let documentation = members["documentation"] {
                members["documentation"] = Self.markup(documentation, markdown: markdown)
                mapped = .object(members)
            }
            return mapped
        }
    }

    /// `MarkupContent` (or a string) in the format the client reads.
    static func markup(_ content: JSONValue, markdown: Bool) -> JSONValue {
        guard let value = content["value"]?.stringValue ?? content.stringValue else { return content }
        return Markup.content(value, asMarkdown: markdown && content["kind"] == "markdown")
    }

    /// Swift's hover at `offset` of `document`, its range moved into the spec, or `nil`.
    func hover(in document: SpecDocument, at offset: Int, markdown: Bool = true) -> JSONValue? {
        guard let (result, map, generated) = forward("textDocument/hover", in: document, at: offset),
            case .object(var hover) = result, let contents = hover["contents"], contents["value"] != nil || contents.stringValue != nil
        else { return nil }
        hover["contents"] = Self.markup(contents, markdown: markdown)
        hover["range"] = nil
        if let range = LSPRange(json: result["range"]),
            let start = Self.specOffset(of: range.start, map: map, generated: generated, document: document),
            let end = Self.specOffset(of: range.end, map: map, generated: generated, document: document)
        {
            hover["range"] = document.lines.range(from: start, to: end).json
        }
        return .object(hover)
    }

    /// Sends `method` for the generated position of `offset` to `sourcekit-lsp`, the generated
    /// document brought up to date first; returns the result with the map to read it back.
    private func forward(_ method: String, in document: SpecDocument, at offset: Int) -> (JSONValue, SourceMap, LineTable)? {
        let specPath = DocumentURI.path(of: document.uri)
        guard let swift = Generator.generate(source: document.text, path: specPath).swift else {
            tell("Swift completion and hover inside bodies need a spec without errors: fix the errors shown in the spec.")
            return nil
        }
        guard let root = Self.packageRoot(of: specPath) else {
            tell("Swift completion and hover inside bodies need the spec in a Swift package: no Package.swift above \(specPath).")
            return nil
        }
        guard let client = client(root: root) else { return nil }

        // The spec position, as the generator counts it, then the generated position.
        let specLine = document.lines.line(ofOffset: offset)
        let lineStart = document.lines.lineStarts[specLine]
        let specBytes = Array(document.lines.bytes[lineStart..<document.lines.contentEnd(ofLine: specLine)])
        let map = SourceMap(generated: swift)
        guard let mapped = map.generatedPosition(line: specLine + 1, column: offset - lineStart + 1, specLine: specBytes) else { return nil }
        let generated = LineTable(swift)
        let position = generated.position(ofOffset: generated.lineStarts[mapped.line] + mapped.column)

        let uri = "file://" + specPath + ".swift"
        // Sent only when it changed: each change makes sourcekit-lsp prepare the target again.
        if let last = sent[uri] {
            if last.text != swift {
                client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(last.version + 1)], "contentChanges": [["text": .string(swift)]]])
                sent[uri] = (swift, last.version + 1)
            }
        } else {
            client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "swift", "version": 1, "text": .string(swift)]])
            sent[uri] = (swift, 1)
        }
        guard let result = client.request(method, ["textDocument": ["uri": .string(uri)], "position": position.json], timeout: timeout) else {
            return nil
        }
        return (result, map, generated)
    }

    /// An item with its edits' ranges moved from the generated file to the spec; edits that fall
    /// outside the spec's fragments are dropped (the label is inserted instead).
    static func mapBack(_ item: JSONValue, map: SourceMap, generated: LineTable, document: SpecDocument) -> JSONValue {
        guard case .object(var members) = item else { return item }
        members["additionalTextEdits"] = nil
        members["data"] = nil
        if let edit = members["textEdit"], let range = LSPRange(json: edit["range"]) {
            let start = specOffset(of: range.start, map: map, generated: generated, document: document)
            let end = specOffset(of: range.end, map: map, generated: generated, document: document)
            if let start, let end, let text = edit["newText"] {
                members["textEdit"] = ["range": document.lines.range(from: start, to: end).json, "newText": text]
            } else {
                members["textEdit"] = nil
                members["insertText"] = edit["newText"]
            }
        }
        return .object(members)
    }

    static func specOffset(of position: Position, map: SourceMap, generated: LineTable, document: SpecDocument) -> Int? {
        let offset = generated.offset(of: position)
        let line = generated.line(ofOffset: offset)
        guard let spec = map.specPosition(generatedLine: line, column: offset - generated.lineStarts[line]),
            spec.line - 1 < document.lines.lineStarts.count
        else { return nil }
        return document.lines.lineStarts[spec.line - 1] + spec.column - 1
    }

    /// The nearest folder above `path` that holds a `Package.swift`.
    static func packageRoot(of path: String) -> String? {
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory.path }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// The running `sourcekit-lsp` for `root`, started and initialized on first use.
    private func client(root: String) -> SwiftServerClient? {
        if let client, client.isRunning, clientRoot == root { return client }
        sent = [:]
        do {
            let started = try SwiftServerClient(executable: executable, root: root)
            let rootURI = "file://" + root
            // Without completion capabilities, sourcekit-lsp answers completion with nothing.
            let capabilities: JSONValue = ["textDocument": ["completion": ["completionItem": ["snippetSupport": false]], "hover": ["contentFormat": ["markdown", "plaintext"]]]]
            let processID = JSONValue.int(Int(ProcessInfo.processInfo.processIdentifier))
            let params: JSONValue = ["processId": processID, "rootUri": .string(rootURI), "capabilities": capabilities]
            guard started.request("initialize", params, timeout: timeout) != nil else {
                tell("Swift completion and hover inside bodies are unavailable: \(executable) did not answer 'initialize'.")
                return nil
            }
            started.notify("initialized", [:])
            client = started
            clientRoot = root
            return started
        } catch {
            tell("Swift completion and hover inside bodies are unavailable: \(executable) could not be started (\(error)).")
            return nil
        }
    }

    private func tell(_ message: String) {
        guard toldReasons.insert(message).inserted else { return }
        pendingMessages.append(OutgoingMessage.notification(method: "window/showMessage", params: ["type": 3, "message": .string(message)]))
    }
}
