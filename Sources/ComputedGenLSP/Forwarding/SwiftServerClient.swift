import Foundation

/// A child `sourcekit-lsp`, spoken to synchronously: each request waits for its response (up to
/// a timeout), answering the child's own requests with `null` meanwhile.
final class SwiftServerClient {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var framer = MessageFramer()
    private var nextID = 1

    /// Starts `executable` (a path, or a name looked up on `PATH`) in `root`, the package folder.
    init(executable: String, root: String) throws {
        // A child that exited must be a failed write, not SIGPIPE ending this process.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Whether the child is still running.
    var isRunning: Bool { process.isRunning }

    func notify(_ method: String, _ params: JSONValue) {
        send(OutgoingMessage.notification(method: method, params: params))
    }

    /// Sends a request; returns its result, or `nil` after `timeout`, on an error response or when
    /// the child has gone.
    func request(_ method: String, _ params: JSONValue, timeout: Duration) -> JSONValue? {
        let id = nextID
        nextID += 1
        send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            while let frame = framer.next() {
                guard case .message(let content) = frame, let message = try? JSONValue.parse(content) else { continue }
                if message["method"] != nil, let request = message["id"].flatMap(RequestID.init(json:)) {
                    send(OutgoingMessage.response(id: request, result: .null))
                } else if message["id"] == .int(id) {
                    return message["result"]
                }
            }
            let remaining = deadline - clock.now
            guard remaining > .zero else { return nil }
            var descriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000, 60_000))
            guard poll(&descriptor, 1, max(1, milliseconds)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let count = buffer.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            framer.append(buffer[0..<count])
        }
    }

    private func send(_ message: JSONValue) {
        try? input.fileHandleForWriting.write(contentsOf: Data(MessageFramer.frame(Array(message.serialized().utf8))))
    }
}
