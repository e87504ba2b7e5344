/// Swift inside bodies, through ``SwiftForwarding``, and the work the transport does between
/// client messages: reading `sourcekit-lsp`'s answers and sending what they complete.
extension LanguageServer {
    /// The descriptors to wait on besides the client's input (`sourcekit-lsp`'s output).
    public var descriptors: [Int32] { swiftForwarding?.descriptors ?? [] }

    /// When ``service(readable:)`` must run even if nothing arrives (`nil`: only on input).
    public var deadline: ContinuousClock.Instant? { swiftForwarding?.deadline }

    /// Does the work that waits for no client message, after the messages read so far have
    /// been answered: brings generated documents up to date, reads `sourcekit-lsp`'s output when
    /// one of ``descriptors`` is `readable`, and returns what to send (forwarded requests'
    /// responses, diagnostics that gained or lost Swift's, messages for the editor).
    public func service(readable: Bool) -> [JSONValue] {
        guard let swiftForwarding, phase == .running else { return [] }
        let (responses, changed) = swiftForwarding.service(readable: readable)
        let notifications = changed.sorted().compactMap { documents[$0].map(diagnosticsNotification) }
        return responses + notifications + swiftForwarding.takeMessages()
    }

    /// `textDocument/publishDiagnostics` for `document`: the spec's own diagnostics, then
    /// Swift's inside its bodies, types and defaults (when forwarded and up to date).
    func diagnosticsNotification(for document: SpecDocument) -> JSONValue {
        var params = DiagnosticsFeature.publishParams(for: document)
        if let swift = swiftForwarding?.diagnostics[document.uri], case .object(var members) = params {
            members["diagnostics"] = .array((params["diagnostics"]?.arrayValue ?? []) + swift)
            params = .object(members)
        }
        return OutgoingMessage.notification(method: "textDocument/publishDiagnostics", params: params)
    }

    /// The spec's completion `items`, and in Swift code Swift's after them: `nil` while
    /// `sourcekit-lsp` is asked.
    func swiftCompletion(in document: SpecDocument, at offset: Int, for id: RequestID, items: [JSONValue]) -> JSONValue? {
        guard let swiftForwarding else { return .array(items) }
        switch CompletionContext.at(offset, in: document).context {
        case .swiftCode, .body:
            let markdown = formats.completionMarkdown
            return swiftForwarding.forward("textDocument/completion", in: document, at: offset, for: id) { result, snapshot in
                let swift = snapshot.map { snapshot in
                    (result?["items"]?.arrayValue ?? result?.arrayValue ?? []).map { SwiftForwarding.mapBack($0, snapshot: snapshot, markdown: markdown) }
                }
                // Incomplete: Swift's answer grows as sourcekit-lsp finishes preparing the
                // target, so the client asks again as the user types.
                return ["isIncomplete": true, "items": .array(items + (swift ?? []))]
            }
        default:
            return .array(items)
        }
    }

    /// Swift's hover in Swift code: `nil` while `sourcekit-lsp` is asked.
    func swiftHover(in document: SpecDocument, at offset: Int, for id: RequestID) -> JSONValue? {
        guard let swiftForwarding, document.index.codeSpan(at: offset) != nil else { return .null }
        let markdown = formats.hoverMarkdown
        return swiftForwarding.forward("textDocument/hover", in: document, at: offset, for: id) { result, snapshot in
            guard let result, let snapshot else { return .null }
            return SwiftForwarding.hover(result, snapshot: snapshot, markdown: markdown) ?? .null
        }
    }

    /// Swift's definition in Swift code, moved into the spec when it is in the generated file:
    /// `nil` while `sourcekit-lsp` is asked.
    func swiftDefinition(in document: SpecDocument, at offset: Int, for id: RequestID) -> JSONValue? {
        guard let swiftForwarding, document.index.codeSpan(at: offset) != nil else { return .null }
        return swiftForwarding.forward("textDocument/definition", in: document, at: offset, for: id) { result, snapshot in
            guard let result, let snapshot else { return .null }
            return SwiftForwarding.locations(result, snapshot: snapshot)
        }
    }
}
