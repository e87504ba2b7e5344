#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves a ``LanguageServer`` over two file descriptors (standard input and output), framed as
/// the LSP base protocol asks.
///
/// One thread: it waits (`poll`) for the client's input and for the server's own
/// ``LanguageServer/descriptors`` (a forwarded-to `sourcekit-lsp`), answers every message read
/// in order, which keeps diagnostics in the order of the edits that caused them, then lets the
/// server do the rest (``LanguageServer/service(readable:)``): requests forwarded to
/// `sourcekit-lsp` are answered when it answers, and never hold up the others. A malformed
/// header gets a ParseError response (with a `null` id) and reading goes on; the end of the
/// input without `exit` ends the session with status 1, as LSP 3.17 asks of an `exit` without
/// `shutdown`.
public enum StdioTransport {
    /// Reads messages from `input` and writes the answers to `output` until `exit` or the end of
    /// the input; returns the exit status.
    public static func run(_ server: LanguageServer, input: Int32 = 0, output: Int32 = 1) -> Int32 {
        signal(SIGPIPE, SIG_IGN)  // A client that went away is a write error, not a crash.
        var framer = MessageFramer()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let clock = ContinuousClock()
        while true {
            var descriptors = ([input] + server.descriptors).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var timeout: Int32 = -1
            if let deadline = server.deadline {
                let remaining = max(.zero, deadline - clock.now).components
                timeout = Int32(clamping: remaining.seconds * 1000 + (remaining.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            }
            if poll(&descriptors, nfds_t(descriptors.count), timeout) < 0 {
                if errno == EINTR { continue }
                log("waiting for input failed (errno \(errno))")
                return 1
            }
            if descriptors[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    log("reading standard input failed (errno \(errno))")
                    return 1
                }
                if count == 0 {
                    if case .exited(let status) = server.phase { return status }
                    return 1
                }
                framer.append(buffer[0..<count])
                while let frame = framer.next() {
                    let replies: [JSONValue]
                    switch frame {
                    case .message(let content):
                        replies = server.handle(content: content)
                    case .malformed(let reason):
                        log(reason)
                        replies = [OutgoingMessage.error(id: nil, .parseError(reason))]
                    }
                    guard send(replies, to: output) else { return 1 }
                    if case .exited(let status) = server.phase { return status }
                }
            }
            let readable = descriptors.dropFirst().contains { $0.revents != 0 }
            guard send(server.service(readable: readable), to: output) else { return 1 }
        }
    }

    /// Writes messages, framed; `false` (logged) when the output failed.
    static func send(_ messages: [JSONValue], to output: Int32) -> Bool {
        for message in messages {
            guard write(MessageFramer.frame(Array(message.serialized().utf8)), to: output) else {
                log("writing standard output failed (errno \(errno))")
                return false
            }
        }
        return true
    }

    /// Writes all of `bytes`, retrying after interruptions and partial writes.
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #elseif canImport(Musl)
                Musl.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #else
                Darwin.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #endif
            }
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += result
        }
        return true
    }

    /// Writes a line to standard error, where clients show a server's log.
    static func log(_ message: String) {
        _ = write(Array("computedgen-lsp: \(message)\n".utf8), to: 2)
    }
}
