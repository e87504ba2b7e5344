import Foundation

/// A child `sourcekit-lsp`, spoken to without waiting: messages are written as they are made,
/// and what the child sends is read only when its output is readable (``readAvailable()``), so
/// that the server goes on answering the editor while the child works.
///
/// `initialize` is sent on start; everything else is held until the child has answered it, as
/// LSP 3.17 asks. The child's own requests (`workspace/diagnostic/refresh`, progress) are
/// answered with `null` and, when the caller wants them, returned.
final class SwiftServerClient {
    /// What the child sent.
    enum Incoming {
        /// The response to the request sent with `id`: its result, or `nil` for an error response.
        case response(id: Int, result: JSONValue?)
        /// A notification, or a request of the child's (already answered).
        case message(method: String, params: JSONValue)
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var framer = MessageFramer()
    private var nextID = 1
    /// Messages made before `initialize` was answered.
    private var held: [JSONValue] = []
    private let initializeID: Int
    /// Whether the child has answered `initialize`.
    private(set) var isInitialized = false

    /// Starts `executable` (a path, or a name looked up on `PATH`) in `root`, the package
    /// folder, and sends it `initialize` with `params`.
    init(executable: String, root: String, initialize params: JSONValue) throws {
        // A child that exited must be a failed write, not SIGPIPE ending this process.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        initializeID = nextID
        nextID += 1
        write(["jsonrpc": "2.0", "id": .int(initializeID), "method": "initialize", "params": params])
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The descriptor to wait on for the child's output.
    var descriptor: Int32 { output.fileHandleForReading.fileDescriptor }

    func notify(_ method: String, _ params: JSONValue) {
        send(OutgoingMessage.notification(method: method, params: params))
    }

    /// Sends a request; returns the id its response will carry.
    func request(_ method: String, _ params: JSONValue) -> Int {
        let id = nextID
        nextID += 1
        send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
        return id
    }

    /// Asks the child to drop the request sent with `id` (it still answers it).
    func cancel(_ id: Int) {
        notify("$/cancelRequest", ["id": .int(id)])
    }

    /// Reads what the child has written (call when ``descriptor`` is readable): the messages
    /// it completed, or `nil` when the child has closed its output (it exited).
    func readAvailable() -> [Incoming]? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        guard count > 0 else { return nil }
        framer.append(buffer[0..<count])
        var incoming: [Incoming] = []
        while let frame = framer.next() {
            guard case .message(let content) = frame, let message = try? JSONValue.parse(content) else { continue }
            if let method = message["method"]?.stringValue {
                if let id = message["id"] { write(["jsonrpc": "2.0", "id": id, "result": .null]) }
                incoming.append(.message(method: method, params: message["params"] ?? .null))
            } else if let id = message["id"]?.intValue {
                let result = message["error"] == nil ? message["result"] ?? .null : nil
                if id == initializeID {
                    guard result != nil else { return nil }  // A child that refuses to start is gone.
                    isInitialized = true
                    write(OutgoingMessage.notification(method: "initialized", params: [:]))
                    held.forEach(write)
                    held = []
                } else {
                    incoming.append(.response(id: id, result: result))
                }
            }
        }
        return incoming
    }

    private func send(_ message: JSONValue) {
        if isInitialized { write(message) } else { held.append(message) }
    }

    private func write(_ message: JSONValue) {
        try? input.fileHandleForWriting.write(contentsOf: Data(MessageFramer.frame(Array(message.serialized().utf8))))
    }
}
