import Foundation
import Testing

@testable import ComputedGenLSP

/// The built `computedgen-lsp` executable, run as a child process and driven over pipes as an
/// editor drives it.
final class ServerProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var framer = MessageFramer()
    private var nextID = 1
    /// Notifications received while waiting for responses, in order.
    private(set) var notifications: [JSONValue] = []

    /// `computedgen-lsp` (or another executable of the package), built next to the test bundle
    /// (the test target depends on it).
    static func executable(named name: String = "computedgen-lsp") throws -> URL {
        let starts = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])].compactMap { $0 }
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        struct Missing: Error, CustomStringConvertible {
            var description: String
        }
        throw Missing(description: "\(name) was not built next to the tests; run `swift build --build-tests`")
    }

    init() throws {
        process.executableURL = try Self.executable()
        process.arguments = ["--stdio", "--no-forward-swift"]  // the spec's own features; forwarding has its own tests
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Writes raw bytes to the server's standard input.
    func write(_ bytes: [UInt8]) {
        input.fileHandleForWriting.write(Data(bytes))
    }

    /// Sends a message, framed.
    func send(_ message: JSONValue) {
        write(MessageFramer.frame(Array(message.serialized().utf8)))
    }

    func notify(_ method: String, _ params: JSONValue) {
        send(OutgoingMessage.notification(method: method, params: params))
    }

    /// Sends a request and waits for its response.
    @discardableResult
    func request(_ method: String, _ params: JSONValue = [:]) throws -> JSONValue {
        let id = nextID
        nextID += 1
        send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
        while true {
            let message = try receive()
            if message["id"] == .int(id) { return message }
            notifications.append(message)
        }
    }

    /// The next message from the server.
    func receive() throws -> JSONValue {
        while true {
            if let frame = framer.next() {
                guard case .message(let content) = frame else { throw Failure("the server sent a malformed frame: \(frame)") }
                return try JSONValue.parse(content)
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { throw Failure("the server closed its output") }
            framer.append(data)
        }
    }

    /// The next notification named `method` (from those already received, or read now).
    func notification(_ method: String) throws -> JSONValue {
        if let index = notifications.firstIndex(where: { $0["method"] == .string(method) }) {
            return notifications.remove(at: index)
        }
        while true {
            let message = try receive()
            if message["method"] == .string(method) { return message }
            notifications.append(message)
        }
    }

    /// Closes standard input and waits for the exit status.
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
