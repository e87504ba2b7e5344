import Foundation
import Testing

@testable import ComputedGenLSP

/// A ``LanguageServer`` that forwards Swift to the FakeSourceKitLSP stand-in, over a spec in a
/// package made in a temporary folder, driven in memory and serviced as the transport does.
final class ForwardingHarness {
    let server: LanguageServer
    let folder: URL
    let uri: String
    /// The file the stand-in logs each method it receives to.
    let log: URL
    private var nextID = 1
    /// Every message the server sent, in order.
    private(set) var received: [JSONValue] = []

    /// `delay`: how long the stand-in takes to answer completion, hover and definition;
    /// `timeout`: how long the server waits for it.
    init(delay: Double = 0, timeout: Duration = .seconds(30), executable: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("forwarding-\(UUID().uuidString)")
        let sources = folder.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("Package.swift"))
        uri = sources.appendingPathComponent("Todo.statespec").absoluteString
        log = folder.appendingPathComponent("methods.log")
        try Data().write(to: log)
        let fake = try ServerProcess.executable(named: "FakeSourceKitLSP").path
        let wrapper = folder.appendingPathComponent("sourcekit-lsp")
        try "#!/bin/sh\nFAKE_SOURCEKIT_LSP_LOG='\(log.path)' exec '\(fake)' --delay \(delay) \"$@\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        server = LanguageServer(sourceKitLSP: executable ?? wrapper.path, timeout: timeout)
        _ = request("initialize", ["processId": .null, "rootUri": .null, "capabilities": [:]])
    }

    deinit {
        _ = server.handle(.request(id: .int(-1), method: "shutdown", params: .null))
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sends a request; returns its id and what the server answered at once.
    @discardableResult
    func request(_ method: String, _ params: JSONValue = [:]) -> (id: Int, replies: [JSONValue]) {
        let id = nextID
        nextID += 1
        let replies = server.handle(.request(id: .int(id), method: method, params: params))
        received += replies
        return (id, replies)
    }

    /// Sends a notification; returns what the server sent back at once.
    @discardableResult
    func notify(_ method: String, _ params: JSONValue) -> [JSONValue] {
        let replies = server.handle(.notification(method: method, params: params))
        received += replies
        return replies
    }

    @discardableResult
    func open(_ text: String) -> [JSONValue] {
        notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "statespec", "version": 1, "text": .string(text)]])
    }

    @discardableResult
    func change(_ text: String, version: Int) -> [JSONValue] {
        notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(version)], "contentChanges": [["text": .string(text)]]])
    }

    func at(_ needle: String, _ delta: Int = 0, in text: String) -> JSONValue {
        ServerHarness.position(of: needle, in: text, delta: delta, uri: uri)
    }

    /// Services the server as the transport does (waiting on its descriptors and deadline)
    /// until it sends a message that satisfies `condition`; returns that message, or `nil`
    /// after `limit`.
    func pump(for limit: Duration = .seconds(10), until condition: (JSONValue) -> Bool) -> JSONValue? {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while clock.now < end {
            var descriptors = server.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), 20)
            let replies = server.service(readable: descriptors.contains { $0.revents != 0 })
            received += replies
            if let match = replies.first(where: condition) { return match }
        }
        return nil
    }

    /// What the server sent from now until it answered a hover at `position`: a barrier, not a
    /// window. Hover in a body goes through the stand-in, which answers in order, and the server
    /// handles the stand-in's messages in order, so by the answer every reply the stand-in owed
    /// before it (a pull of diagnostics) has been handled, and anything it made the server publish
    /// has been received. (Where the server answers the hover itself, the answer follows every
    /// message it had to handle before.) However slow the machine, the test waits for the barrier.
    func settle(at position: JSONValue) -> [JSONValue] {
        let start = received.count
        let hover = request("textDocument/hover", position)
        _ = response(to: hover.id, within: .seconds(30))
        return Array(received[start...])
    }

    /// The response to request `id`, waited for.
    func response(to id: Int, within limit: Duration = .seconds(10)) -> JSONValue? {
        received.first { $0["id"] == .int(id) } ?? pump(for: limit) { $0["id"] == .int(id) }
    }

    /// Services the server until the stand-in's received methods satisfy `condition`, or `limit`
    /// has passed; returns whether they did. The limit only keeps a broken server from hanging the
    /// test: a busy machine slows the wait, never fails it.
    func waitForMethods(within limit: Duration = .seconds(10), _ condition: ([String]) -> Bool) throws -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while clock.now < end {
            if try condition(methodsReceived()) { return true }
            _ = pump(for: .milliseconds(50)) { _ in false }
        }
        return try condition(methodsReceived())
    }

    /// The methods the stand-in has received, in order.
    func methodsReceived() throws -> [String] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The diagnostics of a `publishDiagnostics` notification.
    static func diagnostics(_ notification: JSONValue?) -> [JSONValue] {
        notification?["params"]?["diagnostics"]?.arrayValue ?? []
    }
}
