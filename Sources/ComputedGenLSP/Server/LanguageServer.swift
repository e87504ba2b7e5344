import ComputedGenCore

/// The language server's state and its answer to each message, independent of any transport.
///
/// ``handle(_:)`` takes one decoded message and returns the messages to send (a response,
/// diagnostics notifications), so the whole protocol can be driven in tests without pipes.
/// Lifecycle as LSP 3.17 defines it: requests before `initialize` get ServerNotInitialized,
/// notifications before it are dropped; after `shutdown`, requests get InvalidRequest; `exit`
/// ends the session with status 0 after `shutdown` and 1 without.
public final class LanguageServer {
    /// Where the session is in its lifecycle.
    public enum Phase: Hashable, Sendable {
        case uninitialized
        case running
        case shutDown
        /// `exit` was received; the transport stops and exits with this status.
        case exited(status: Int32)
    }

    /// The server's name and version, sent in `initialize`'s result.
    public static let name = "computedgen-lsp"
    public static let version = ComputedGenVersion.string

    /// Where the session is.
    public private(set) var phase = Phase.uninitialized
    /// The open documents by URI.
    public private(set) var documents: [String: SpecDocument] = [:]
    /// The text formats the client reads, from `initialize`.
    public private(set) var formats = ClientFormats()

    /// Forwards Swift inside bodies to `sourcekit-lsp`, when enabled.
    let swiftForwarding: SwiftForwarding?
    /// Forwarded requests answered (without Swift's part) at `shutdown`, sent after its response.
    var shutdownAnswers: [JSONValue] = []

    /// Creates a server that waits for `initialize`.
    ///
    /// - Parameters:
    ///   - sourceKitLSP: The `sourcekit-lsp` to forward Swift inside bodies to (completion,
    ///     hover, definition, diagnostics; a path or a name on `PATH`), or `nil` to keep to the
    ///     spec's own features.
    ///   - timeout: How long a forwarded request waits for `sourcekit-lsp` before it is answered
    ///     without Swift's part.
    public init(sourceKitLSP: String? = nil, timeout: Duration = .seconds(30)) {
        swiftForwarding = sourceKitLSP.map { SwiftForwarding(executable: $0, timeout: timeout) }
    }

    /// Answers one message: the messages to send back, in order.
    public func handle(_ message: IncomingMessage) -> [JSONValue] {
        switch message {
        case .response:
            return []
        case .notification(let method, let params):
            return handleNotification(method, params: params)
        case .request(let id, let method, let params):
            let result: Result<JSONValue?, ResponseError>
            switch phase {
            case .uninitialized where method != "initialize":
                result = .failure(.serverNotInitialized)
            case .shutDown, .exited:
                result = .failure(.shutDown)
            default:
                result = Result { () throws(ResponseError) in try handleRequest(method, id: id, params: params) }
            }
            let messages = shutdownAnswers + (swiftForwarding?.takeMessages() ?? [])
            shutdownAnswers = []
            switch result {
            case .success(let value?): return [OutgoingMessage.response(id: id, result: value)] + messages
            case .success(nil): return messages  // Answered by `service(readable:)`.
            case .failure(let error): return [OutgoingMessage.error(id: id, error)] + messages
            }
        }
    }

    /// Answers the content of one framed message: decodes it, then ``handle(_:)``; content that
    /// is not JSON or not a JSON-RPC message gets an error response (with a `null` id when none
    /// could be read).
    public func handle(content: [UInt8]) -> [JSONValue] {
        let json: JSONValue
        do {
            json = try JSONValue.parse(content)
        } catch {
            return [OutgoingMessage.error(id: nil, .parseError(error.description))]
        }
        switch IncomingMessage.decode(json) {
        case .success(let message): return handle(message)
        case .failure(let invalid): return [OutgoingMessage.error(id: invalid.id, invalid.error)]
        }
    }

    // MARK: - Requests

    /// The result of a request, or `nil` when it was forwarded to `sourcekit-lsp` and will be
    /// answered later.
    private func handleRequest(_ method: String, id: RequestID, params: JSONValue) throws(ResponseError) -> JSONValue? {
        switch method {
        case "initialize":
            guard phase == .uninitialized else { throw ResponseError.invalidRequest("'initialize' was already received") }
            phase = .running
            formats = ClientFormats(capabilities: params["capabilities"])
            return ["capabilities": Self.capabilities, "serverInfo": ["name": .string(Self.name), "version": .string(Self.version)]]
        case "shutdown":
            phase = .shutDown
            documents = [:]
            shutdownAnswers = swiftForwarding?.stop() ?? []
            return .null
        case "textDocument/completion":
            let (document, offset) = try location(in: params)
            guard let document else { return .array([]) }
            let items = CompletionFeature.items(in: document, at: offset, formats: formats).arrayValue ?? []
            return swiftCompletion(in: document, at: offset, for: id, items: items)
        case "textDocument/hover":
            let (document, offset) = try location(in: params)
            guard let document else { return .null }
            if let hover = HoverFeature.hover(in: document, at: offset, markdown: formats.hoverMarkdown) { return hover }
            // Not a member or attribute: in Swift code, Swift's hover.
            return swiftHover(in: document, at: offset, for: id)
        case "textDocument/definition":
            let (document, offset) = try location(in: params)
            guard let document else { return .null }
            if let definition = NavigationFeature.definition(in: document, at: offset) { return definition }
            return swiftDefinition(in: document, at: offset, for: id)
        case "textDocument/references":
            let (document, offset) = try location(in: params)
            let includeDeclaration = params["context"]?["includeDeclaration"]?.boolValue ?? true
            return document.map { NavigationFeature.references(in: $0, at: offset, includeDeclaration: includeDeclaration) } ?? .array([])
        case "textDocument/prepareRename":
            let (document, offset) = try location(in: params)
            return document.flatMap { NavigationFeature.prepareRename(in: $0, at: offset) } ?? .null
        case "textDocument/rename":
            let (document, offset) = try location(in: params)
            guard let newName = params["newName"]?.stringValue else { throw ResponseError.invalidParams("'newName' must be a string") }
            guard let document else { return .null }
            return try NavigationFeature.rename(in: document, at: offset, to: newName)
        case "textDocument/documentSymbol":
            return try document(in: params).map(SymbolsFeature.documentSymbols) ?? .array([])
        case "textDocument/semanticTokens/full":
            return try document(in: params).map(SemanticTokensFeature.full) ?? .null
        default:
            throw ResponseError.methodNotFound(method)
        }
    }

    /// The open document named by `params.textDocument.uri` (`nil` when it is not open).
    func document(in params: JSONValue) throws(ResponseError) -> SpecDocument? {
        guard let uri = params["textDocument"]?["uri"]?.stringValue else {
            throw ResponseError.invalidParams("'textDocument.uri' must be a string")
        }
        return documents[uri]
    }

    /// The document and byte offset of `params.textDocument` and `params.position`.
    private func location(in params: JSONValue) throws(ResponseError) -> (SpecDocument?, Int) {
        let document = try document(in: params)
        guard let position = Position(json: params["position"]) else {
            throw ResponseError.invalidParams("'position' must be an object with 'line' and 'character'")
        }
        return (document, document?.lines.offset(of: position) ?? 0)
    }

    // MARK: - Notifications

    private func handleNotification(_ method: String, params: JSONValue) -> [JSONValue] {
        if method == "exit" {
            phase = .exited(status: phase == .shutDown ? 0 : 1)
            _ = swiftForwarding?.stop()
            return []
        }
        guard phase == .running else { return [] }
        switch method {
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.stringValue, let text = item["text"]?.stringValue else { return [] }
            return publish(SpecDocument(uri: uri, version: item["version"]?.intValue ?? 0, text: text))
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, let current = documents[uri],
                let changes = params["contentChanges"]?.arrayValue
            else { return [] }
            let text = TextChanges.apply(changes, to: current.lines)
            let version = params["textDocument"]?["version"]?.intValue ?? current.version + 1
            return publish(SpecDocument(uri: uri, version: version, text: text))
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, documents.removeValue(forKey: uri) != nil else { return [] }
            swiftForwarding?.didClose(uri)
            return [OutgoingMessage.notification(method: "textDocument/publishDiagnostics", params: ["uri": .string(uri), "diagnostics": []])]
        case "$/cancelRequest":
            guard let id = params["id"].flatMap(RequestID.init(json:)), let answer = swiftForwarding?.cancel(id) else { return [] }
            return [answer]
        default:
            return []  // `initialized`, `didSave` and unknown notifications.
        }
    }

    private func publish(_ document: SpecDocument) -> [JSONValue] {
        documents[document.uri] = document
        swiftForwarding?.didChange(document)
        return [diagnosticsNotification(for: document)]
    }

    // MARK: - Capabilities

    /// What the server offers, as `initialize` returns it.
    static var capabilities: JSONValue {
        [
            "positionEncoding": "utf-16",
            "textDocumentSync": ["openClose": true, "change": 2],
            "completionProvider": ["triggerCharacters": ["@", ".", "(", ","], "resolveProvider": false],
            "hoverProvider": true,
            "definitionProvider": true,
            "referencesProvider": true,
            "documentSymbolProvider": true,
            "renameProvider": ["prepareProvider": true],
            "semanticTokensProvider": ["legend": SemanticTokensFeature.legend, "full": true, "range": false],
        ]
    }
}
