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
/// Single-threaded: each message is answered before the next is read, which keeps diagnostics
/// in the order of the edits that caused them. A malformed header gets a ParseError response
/// (with a `null` id) and reading goes on; the end of the input without `exit` ends the session
/// with status 1, as LSP 3.17 asks of an `exit` without `shutdown`.
public enum StdioTransport {
    /// Reads messages from `input` and writes the answers to `output` until `exit` or the end of
    /// the input; returns the exit status.
    public static func run(_ server: LanguageServer, input: Int32 = 0, output: Int32 = 1) -> Int32 {
        signal(SIGPIPE, SIG_IGN)  // A client that went away is a write error, not a crash.
        var framer = MessageFramer()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
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
                for reply in replies {
                    guard write(MessageFramer.frame(Array(reply.serialized().utf8)), to: output) else {
                        log("writing standard output failed (errno \(errno))")
                        return 1
                    }
                }
                if case .exited(let status) = server.phase { return status }
            }
        }
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
