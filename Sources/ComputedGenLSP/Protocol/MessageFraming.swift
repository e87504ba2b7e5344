/// The LSP base protocol's framing: each message is a header part (`Name: value` lines, each
/// ended by `\r\n`, then an empty line) and `Content-Length` bytes of JSON content.
///
/// ``MessageFramer`` splits a byte stream into messages. A malformed header (no
/// `Content-Length`, a length that is not a number or is too large, a header part that never
/// ends) yields a ``Frame/malformed(_:)`` item and reading goes on after that header, so that one
/// bad message does not end the session.
public struct MessageFramer: Sendable {
    /// One item read from the stream.
    public enum Frame: Hashable, Sendable {
        /// The content of a well-framed message.
        case message([UInt8])
        /// A header that could not be read, with the reason; its content (if any) is skipped.
        case malformed(String)
    }

    /// The largest content accepted, 64 MiB: a longer message is reported and skipped.
    public static let maxContentLength = 64 << 20
    /// The longest header part accepted before its empty line, in bytes.
    public static let maxHeaderLength = 8 << 10

    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer` (consumed bytes are dropped in batches).
    private var start = 0
    /// Bytes of a rejected message's content still to be skipped.
    private var toSkip = 0

    /// Creates a framer with an empty buffer.
    public init() {}

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Whether bytes are buffered that do not yet form a whole message.
    public var hasPartialInput: Bool { start < buffer.count }

    /// The next complete item, or `nil` when more bytes are needed.
    public mutating func next() -> Frame? {
        if toSkip > 0 {
            let skipped = min(toSkip, buffer.count - start)
            start += skipped
            toSkip -= skipped
            if toSkip > 0 { return nil }
        }
        guard let headerEnd = findHeaderEnd() else {
            if buffer.count - start > Self.maxHeaderLength {
                // No empty line in sight: drop what is buffered up to the last line break.
                let lastBreak = buffer[start...].lastIndex(of: 0x0A).map { $0 + 1 } ?? buffer.count
                start = lastBreak
                return .malformed("a message header longer than \(Self.maxHeaderLength) bytes without an empty line")
            }
            return nil
        }
        let header = String(decoding: buffer[start..<headerEnd.contentStart - headerEnd.separatorLength], as: UTF8.self)
        let contentStart = headerEnd.contentStart
        switch Self.contentLength(inHeader: header) {
        case .failure(let reason):
            start = contentStart
            return .malformed(reason.description)
        case .success(let length) where length > Self.maxContentLength:
            start = contentStart
            toSkip = length
            _ = next() as Frame?  // Skip what is already buffered.
            return .malformed("Content-Length \(length) is larger than the \(Self.maxContentLength) bytes accepted")
        case .success(let length):
            guard buffer.count - contentStart >= length else { return nil }
            let content = Array(buffer[contentStart..<contentStart + length])
            start = contentStart + length
            return .message(content)
        }
    }

    /// The end of the header part: where the content starts, and the length of the empty line's
    /// separator (`\r\n\r\n`, or a bare `\n\n` as lenient clients send).
    private func findHeaderEnd() -> (contentStart: Int, separatorLength: Int)? {
        var index = start
        let end = min(buffer.count, start + Self.maxHeaderLength + 4)
        while index < end {
            if buffer[index] == 0x0A {
                if index + 1 < buffer.count, buffer[index + 1] == 0x0A { return (index + 2, 2) }
                if index + 2 < buffer.count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A {
                    let crBefore = index > start && buffer[index - 1] == 0x0D
                    return (index + 3, crBefore ? 4 : 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// The `Content-Length` of a header part, or why there is none.
    static func contentLength(inHeader header: String) -> Result<Int, MalformedHeader> {
        var length: Int?
        for line in header.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(MalformedHeader("a header line without ':': '\(line.prefix(80))'"))
            }
            let name = line[..<colon].trimmingSpaces()
            guard name.lowercased() == "content-length" else { continue }
            let value = line[line.index(after: colon)...].trimmingSpaces()
            guard let number = Int(value), number >= 0 else {
                return .failure(MalformedHeader("Content-Length is not a length: '\(value.prefix(80))'"))
            }
            length = number
        }
        guard let length else { return .failure(MalformedHeader("a message header without Content-Length")) }
        return .success(length)
    }

    /// Frames `content` for writing: its `Content-Length` header, then the content.
    public static func frame(_ content: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(content.count)\r\n\r\n".utf8) + content
    }
}

/// Why a header part has no usable `Content-Length`.
struct MalformedHeader: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while result.first == " " || result.first == "\t" { result.removeFirst() }
        while result.last == " " || result.last == "\t" { result.removeLast() }
        return result
    }
}
