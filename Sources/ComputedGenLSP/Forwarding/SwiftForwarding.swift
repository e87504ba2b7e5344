import ComputedGenCore
import Foundation

/// Swift inside a spec's bodies, types and default values, served by the toolchain's
/// `sourcekit-lsp` on the generated file: completion, hover, go to definition and diagnostics.
///
/// Each open spec's generated Swift is open in `sourcekit-lsp` as an in-memory document
/// (``GeneratedDocument``), brought up to date after every edit of the spec, and its
/// diagnostics are pulled after each update. Positions go through the generated file's
/// `#sourceLocation` blocks (``SourceMap``) both ways.
///
/// Nothing here waits for `sourcekit-lsp`: a forwarded request is answered when its response
/// arrives (``service(readable:)``), after at most ``timeout`` (then without Swift's part), or
/// when the client cancels it, while the server answers everything else at once.
///
/// On unless the server runs with `--no-forward-swift`: it starts `sourcekit-lsp`, which prepares
/// the package (builds its dependencies) in the background.
final class SwiftForwarding {
    /// What a response from `sourcekit-lsp` is read with: the request's generated file and spec.
    struct Snapshot {
        /// The generated document's URI in `sourcekit-lsp`.
        var uri: String
        var map: SourceMap
        var generated: LineTable
        /// The spec version the generated text was made from.
        var document: SpecDocument
        /// The generated document's version in `sourcekit-lsp`.
        var version: Int
    }

    /// A forwarded request waiting for its response.
    private struct Pending {
        var clientID: RequestID
        var deadline: ContinuousClock.Instant
        var snapshot: Snapshot
        var answer: (_ result: JSONValue?, _ snapshot: Snapshot?) -> JSONValue
    }

    /// The `sourcekit-lsp` to start.
    let executable: String
    /// How long a forwarded request may wait for `sourcekit-lsp` (its first answers in a package
    /// take seconds while it prepares the target); then it is answered without Swift's part.
    let timeout: Duration
    private let clock = ContinuousClock()
    private var client: SwiftServerClient?
    private var clientRoot: String?
    /// Package roots whose `sourcekit-lsp` could not be started: not tried again.
    private var failedRoots: Set<String> = []
    /// The generated documents open in `sourcekit-lsp`, by spec URI.
    private var generated: [String: GeneratedDocument] = [:]
    /// Specs changed since their generated document was last updated, by URI.
    private var changed: [String: SpecDocument] = [:]
    /// Forwarded requests, by the id they were sent to `sourcekit-lsp` with.
    private var pending: [Int: Pending] = [:]
    /// Diagnostic pulls in flight: the spec URI and snapshot each is for, by request id.
    private var pulls: [Int: Snapshot] = [:]
    /// Swift's diagnostics of each spec, in the spec, by spec URI.
    private(set) var diagnostics: [String: [JSONValue]] = [:]
    /// When the build's generated files were last looked for.
    private var lastLookup: ContinuousClock.Instant?
    /// Why forwarding is unavailable, by reason already told: each is said once.
    private var toldReasons: Set<String> = []
    /// Messages for the client (`window/showMessage`), collected for the server to send.
    private var pendingMessages: [JSONValue] = []

    init(executable: String = "sourcekit-lsp", timeout: Duration = .seconds(30)) {
        self.executable = executable
        self.timeout = timeout
    }

    /// Takes the messages to show in the editor.
    func takeMessages() -> [JSONValue] {
        defer { pendingMessages = [] }
        return pendingMessages
    }

    /// The descriptor to wait on for `sourcekit-lsp`'s output, while it runs.
    var descriptors: [Int32] { client.map { [$0.descriptor] } ?? [] }

    /// When ``service(readable:)`` has work without any input: now for specs to bring up to
    /// date, a forwarded request's deadline, the next look for the build's generated file.
    var deadline: ContinuousClock.Instant? {
        if !changed.isEmpty { return clock.now }
        var next = pending.values.map(\.deadline).min()
        if let lastLookup, generated.values.contains(where: { !$0.isBuilds }) {
            next = min(next ?? lastLookup + .seconds(1), lastLookup + .seconds(1))
        }
        return next
    }

    // MARK: - Documents

    /// Records a new version of a spec: its Swift diagnostics are stale now (dropped), and its
    /// generated document is brought up to date on the next ``service(readable:)``.
    func didChange(_ document: SpecDocument) {
        diagnostics[document.uri] = nil
        changed[document.uri] = document
    }

    /// Closes a spec's generated document.
    func didClose(_ uri: String) {
        diagnostics[uri] = nil
        changed[uri] = nil
        if let document = generated.removeValue(forKey: uri) {
            client?.notify("textDocument/didClose", ["textDocument": ["uri": .string(document.uri)]])
        }
    }

    // MARK: - Requests

    /// Forwards `method` at `offset` of `document` for the client's request `clientID`.
    ///
    /// Returns the answer at once (`answer(nil, nil)`) when forwarding is unavailable (the
    /// reason is told once), or `nil` when the answer will come from ``service(readable:)``.
    func forward(
        _ method: String, in document: SpecDocument, at offset: Int, for clientID: RequestID,
        answer: @escaping (_ result: JSONValue?, _ snapshot: Snapshot?) -> JSONValue
    ) -> JSONValue? {
        guard let snapshot = update(document, telling: true), let client else { return answer(nil, nil) }
        // The spec position, as the generator counts it, then the generated position.
        let specLine = document.lines.line(ofOffset: offset)
        let lineStart = document.lines.lineStarts[specLine]
        let specBytes = Array(document.lines.bytes[lineStart..<document.lines.contentEnd(ofLine: specLine)])
        guard let mapped = snapshot.map.generatedPosition(line: specLine + 1, column: offset - lineStart + 1, specLine: specBytes) else {
            return answer(nil, nil)
        }
        let position = snapshot.generated.position(ofOffset: snapshot.generated.lineStarts[mapped.line] + mapped.column)
        let id = client.request(method, ["textDocument": ["uri": .string(snapshot.uri)], "position": position.json])
        pending[id] = Pending(clientID: clientID, deadline: clock.now + timeout, snapshot: snapshot, answer: answer)
        return nil
    }

    /// Cancels the forwarded request `clientID`: its RequestCancelled response, or `nil` when it
    /// is not waiting.
    func cancel(_ clientID: RequestID) -> JSONValue? {
        guard let (id, _) = pending.first(where: { $0.value.clientID == clientID }) else { return nil }
        pending[id] = nil
        client?.cancel(id)
        return OutgoingMessage.error(id: clientID, .requestCancelled)
    }

    /// Answers every waiting request without Swift's part and stops `sourcekit-lsp`.
    func stop() -> [JSONValue] {
        let answers = pending.values.map { OutgoingMessage.response(id: $0.clientID, result: $0.answer(nil, nil)) }
        pending = [:]
        pulls = [:]
        if let client {
            _ = client.request("shutdown", .null)
            client.notify("exit", .null)
        }
        client = nil
        generated = [:]
        changed = [:]
        diagnostics = [:]
        return answers
    }

    // MARK: - Work

    /// Does what waits for no client message: brings changed specs' generated documents up to
    /// date, reads `sourcekit-lsp`'s output when `readable`, answers requests whose response
    /// came or whose deadline passed.
    ///
    /// Returns the responses to send, and the URIs of the specs whose diagnostics changed.
    func service(readable: Bool) -> (responses: [JSONValue], diagnosticsChanged: Set<String>) {
        var responses: [JSONValue] = []
        var changedDiagnostics: Set<String> = []
        for document in changed.values { _ = update(document, telling: false) }
        changed = [:]
        if readable, let client {
            if let incoming = client.readAvailable() {
                for message in incoming {
                    switch message {
                    case .response(let id, let result):
                        if let request = pending.removeValue(forKey: id) {
                            let value = request.answer(result, result == nil ? nil : request.snapshot)
                            responses.append(OutgoingMessage.response(id: request.clientID, result: value))
                        } else if let snapshot = pulls.removeValue(forKey: id), let result,
                            generated[snapshot.document.uri]?.snapshot.version == snapshot.version
                        {
                            let swift = Self.diagnostics(result, snapshot: snapshot)
                            if swift != diagnostics[snapshot.document.uri] ?? [] { changedDiagnostics.insert(snapshot.document.uri) }
                            diagnostics[snapshot.document.uri] = swift
                        }
                    case .message("workspace/diagnostic/refresh", _):
                        generated.values.forEach(pull)
                    case .message("textDocument/publishDiagnostics", let params):
                        // Pushed diagnostics carry no version, so they may be for a text already
                        // replaced: they only say that Swift's diagnostics changed (a pull
                        // before the build settings came answers with none), so pull again.
                        generated.values.filter { .string($0.uri) == params["uri"] }.forEach(pull)
                    case .message:
                        break
                    }
                }
            } else {
                responses += exited()
                changedDiagnostics.formUnion(diagnostics.keys)
                diagnostics = [:]
            }
        }
        let now = clock.now
        for (id, request) in pending where request.deadline <= now {
            pending[id] = nil
            client?.cancel(id)
            responses.append(OutgoingMessage.response(id: request.clientID, result: request.answer(nil, nil)))
        }
        lookForBuildFiles()
        return (responses, changedDiagnostics)
    }

    /// The child exited: waiting requests are answered without it, and it is said once.
    private func exited() -> [JSONValue] {
        let answers = pending.values.map { OutgoingMessage.response(id: $0.clientID, result: $0.answer(nil, nil)) }
        pending = [:]
        pulls = [:]
        generated = [:]
        if let clientRoot { failedRoots.insert(clientRoot) }
        client = nil
        tell("Swift inside bodies is unavailable: \(executable) exited.")
        return answers
    }

    // MARK: - The generated documents

    /// Brings the generated document of `document` up to date in `sourcekit-lsp` (starting it
    /// when needed); returns what its responses are read with, or `nil` when the spec cannot be
    /// generated or forwarded (said once when `telling`).
    private func update(_ document: SpecDocument, telling: Bool) -> Snapshot? {
        let specPath = DocumentURI.path(of: document.uri)
        let checked = document.analysis.checked
        guard let spec = checked.spec, !checked.diagnostics.contains(where: { $0.severity == .error }) else {
            if telling { tell("Swift inside bodies needs a spec without errors: fix the errors shown in the spec.") }
            return nil
        }
        guard let root = Self.packageRoot(of: specPath) else {
            // Said on open too: without a package, no Swift diagnostics ever come.
            if telling || generated[document.uri] == nil { tell("Swift inside bodies needs the spec in a Swift package: no Package.swift above \(specPath).") }
            return nil
        }
        guard let client = client(root: root) else { return nil }
        let swift = SwiftEmitter.emit(spec)
        let current = generated[document.uri]
        let buildFile = current?.isBuilds == true ? current.map { DocumentURI.path(of: $0.uri) } : GeneratedDocument.buildFile(ofSpec: specPath, root: root)
        if buildFile == nil {
            tell("Swift diagnostics inside bodies start once sourcekit-lsp has prepared the package (its generated file for \((specPath as NSString).lastPathComponent) is not under .build/index-build yet); completion and hover work meanwhile.")
        }
        let uri = "file://" + (buildFile ?? specPath + ".swift")
        if let current, current.uri == uri, current.text == swift, current.snapshot.document === document {
            return current.snapshot
        }
        var next = GeneratedDocument(uri: uri, isBuilds: buildFile != nil, swift: swift, version: 1, document: document)
        if let current, current.uri == uri {
            next.snapshot.version = current.snapshot.version + 1
            if current.text != swift {
                client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(next.snapshot.version)], "contentChanges": [["text": .string(next.sentText)]]])
            }
        } else {
            if let current {
                client.notify("textDocument/didClose", ["textDocument": ["uri": .string(current.uri)]])
            }
            client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "swift", "version": 1, "text": .string(next.sentText)]])
        }
        generated[document.uri] = next
        pull(next)
        return next.snapshot
    }

    /// Asks `sourcekit-lsp` for the diagnostics of `document` as it is now, dropping the pull
    /// for an older version.
    private func pull(_ document: GeneratedDocument) {
        guard let client else { return }
        for (id, snapshot) in pulls where snapshot.document.uri == document.snapshot.document.uri {
            pulls[id] = nil
            client.cancel(id)
        }
        let id = client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(document.uri)]])
        pulls[id] = document.snapshot
    }

    /// Generated documents opened before the package was prepared move to the build's file
    /// once it exists (looked for once a second).
    private func lookForBuildFiles() {
        guard generated.values.contains(where: { !$0.isBuilds }) else { return }
        let now = clock.now
        if let lastLookup, now - lastLookup < .seconds(1) { return }
        lastLookup = now
        for (uri, document) in generated where !document.isBuilds {
            let specPath = DocumentURI.path(of: uri)
            guard let root = clientRoot, GeneratedDocument.buildFile(ofSpec: specPath, root: root) != nil else { continue }
            changed[uri] = document.snapshot.document
        }
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

    /// The running `sourcekit-lsp` for `root`, started on first use.
    private func client(root: String) -> SwiftServerClient? {
        if let client, clientRoot == root { return client }
        guard !failedRoots.contains(root) else { return nil }
        _ = stop()
        // Completion capabilities make sourcekit-lsp answer completion; pull diagnostics give
        // each set of diagnostics the version it is for.
        let capabilities: JSONValue = [
            "textDocument": [
                "completion": ["completionItem": ["snippetSupport": false]],
                "hover": ["contentFormat": ["markdown", "plaintext"]],
                "diagnostic": ["dynamicRegistration": false],
            ],
            "workspace": ["diagnostics": ["refreshSupport": true]],
        ]
        let processID = JSONValue.int(Int(ProcessInfo.processInfo.processIdentifier))
        let params: JSONValue = ["processId": processID, "rootUri": .string("file://" + root), "capabilities": capabilities]
        do {
            client = try SwiftServerClient(executable: executable, root: root, initialize: params)
            clientRoot = root
            return client
        } catch {
            failedRoots.insert(root)
            tell("Swift inside bodies is unavailable: \(executable) could not be started (\(error)).")
            return nil
        }
    }

    private func tell(_ message: String) {
        guard toldReasons.insert(message).inserted else { return }
        pendingMessages.append(OutgoingMessage.notification(method: "window/showMessage", params: ["type": 3, "message": .string(message)]))
    }
}
