import Testing

@testable import ComputedGenLSP

@Suite("LSP base protocol framing")
struct MessageFramingTests {
    static func framed(_ content: String) -> [UInt8] {
        MessageFramer.frame(Array(content.utf8))
    }

    static func drain(_ framer: inout MessageFramer) -> [MessageFramer.Frame] {
        var frames: [MessageFramer.Frame] = []
        while let frame = framer.next() { frames.append(frame) }
        return frames
    }

    @Test("messages arrive byte by byte or several in one read")
    func chunking() {
        let stream = Self.framed(#"{"a":1}"#) + Self.framed("{\"b\":\"é\"}")
        var framer = MessageFramer()
        var frames: [MessageFramer.Frame] = []
        for byte in stream {
            framer.append([byte])
            frames += Self.drain(&framer)
        }
        #expect(frames == [.message(Array(#"{"a":1}"#.utf8)), .message(Array("{\"b\":\"é\"}".utf8))])
        var whole = MessageFramer()
        whole.append(stream)
        #expect(Self.drain(&whole) == frames)
        #expect(!whole.hasPartialInput)
    }

    @Test("other headers are allowed, names are case-insensitive, a bare \\n\\n is tolerated")
    func headers() {
        var framer = MessageFramer()
        framer.append(Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}".utf8))
        framer.append(Array("Content-Length: 2\n\n[]".utf8))
        #expect(Self.drain(&framer) == [.message(Array("{}".utf8)), .message(Array("[]".utf8))])
    }

    @Test("a malformed header is reported and the next message is still read", arguments: [
        "Content-Type: x\r\n\r\n", "Content-Length: abc\r\n\r\n", "Content-Length: -4\r\n\r\n", "garbage\r\n\r\n",
    ])
    func malformed(_ header: String) {
        var framer = MessageFramer()
        framer.append(Array(header.utf8) + Self.framed("{}"))
        let frames = Self.drain(&framer)
        #expect(frames.count == 2)
        if case .malformed = frames.first {} else { Issue.record("expected a malformed frame first, got \(frames)") }
        #expect(frames.last == .message(Array("{}".utf8)))
    }

    @Test("a length over the limit is reported and its content skipped")
    func tooLong() {
        var framer = MessageFramer()
        let length = MessageFramer.maxContentLength + 1
        framer.append(Array("Content-Length: \(length)\r\n\r\n".utf8))
        framer.append([UInt8](repeating: 0x20, count: 1 << 20))
        #expect(Self.drain(&framer).count == 1)
        framer.append([UInt8](repeating: 0x20, count: length - (1 << 20)))
        framer.append(Self.framed("{}"))
        #expect(Self.drain(&framer) == [.message(Array("{}".utf8))])
    }

    @Test("a header that never ends is dropped once it passes the limit")
    func endlessHeader() {
        var framer = MessageFramer()
        framer.append([UInt8](repeating: UInt8(ascii: "x"), count: MessageFramer.maxHeaderLength + 10))
        #expect(Self.drain(&framer).count == 1)
        framer.append(Array("\r\n".utf8) + Self.framed("{}"))
        #expect(Self.drain(&framer).last == .message(Array("{}".utf8)))
    }
}
