// A stand-in for sourcekit-lsp, for the tests of computedgen-lsp's Swift forwarding: it speaks
// LSP over standard input and output and answers from the text of the documents it is sent.
//
//   FakeSourceKitLSP [--delay <seconds>]
//
// - textDocument/diagnostic: an error at every `missing…` identifier of the document ("cannot
//   find 'missingX' in scope"), and a warning at 0:0, in the generated file's header comment,
//   which no spec position maps to. Answered at once.
// - textDocument/completion: one item, `fakeSwiftMember`, whose edit is at the position asked.
// - textDocument/hover: "fake Swift hover", its range the position asked.
// - textDocument/definition: the position asked, 0:0 of the same document, and 0:0 of
//   file:///elsewhere/Other.swift.
// Those three after --delay seconds (0 by default); $/cancelRequest answers one at once with
// RequestCancelled. Every message received is appended, one method a line, to the file named by
// the FAKE_SOURCEKIT_LSP_LOG environment variable when it is set.
import ComputedGenLSP
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let delay = arguments.firstIndex(of: "--delay").flatMap { Double(arguments[$0 + 1]) } ?? 0
let log = ProcessInfo.processInfo.environment["FAKE_SOURCEKIT_LSP_LOG"].flatMap { FileHandle(forWritingAtPath: $0) }
log?.seekToEndOfFile()

var documents: [String: String] = [:]
/// Responses held back for --delay: when, the request id, the result.
var delayed: [(due: Date, id: JSONValue, result: JSONValue)] = []

func send(_ message: JSONValue) {
    let bytes = MessageFramer.frame(Array(message.serialized().utf8))
    FileHandle.standardOutput.write(Data(bytes))
}

func respond(_ id: JSONValue, _ result: JSONValue) {
    send(["jsonrpc": "2.0", "id": id, "result": result])
}

func diagnostics(of text: String) -> JSONValue {
    var items: [JSONValue] = [
        ["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 2]], "severity": 2, "message": "outside every spec fragment"],
    ]
    for (line, content) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var rest = Substring(content)
        while let range = rest.range(of: "missing") {
            let name = rest[range.lowerBound...].prefix { $0.isLetter || $0.isNumber }
            let start = content.utf16.distance(from: content.startIndex, to: range.lowerBound)
            let position = { (character: Int) -> JSONValue in ["line": .int(line), "character": .int(character)] }
            items.append(["range": ["start": position(start), "end": position(start + name.utf16.count)], "severity": 1, "source": "SourceKit", "message": .string("cannot find '\(name)' in scope")])
            rest = rest[name.endIndex...]
        }
    }
    return ["kind": "full", "items": .array(items)]
}

func answer(_ method: String, _ params: JSONValue) -> JSONValue? {
    let uri = params["textDocument"]?["uri"] ?? .null
    let position = params["position"] ?? .null
    let here: JSONValue = ["start": position, "end": position]
    let origin: JSONValue = ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]]
    switch method {
    case "textDocument/completion":
        return ["isIncomplete": false, "items": [["label": "fakeSwiftMember", "kind": 5, "textEdit": ["range": here, "newText": "fakeSwiftMember"]]]]
    case "textDocument/hover":
        return ["contents": ["kind": "markdown", "value": "fake Swift hover"], "range": here]
    case "textDocument/definition":
        return [["uri": uri, "range": here], ["uri": uri, "range": origin], ["uri": "file:///elsewhere/Other.swift", "range": origin]]
    default:
        return nil
    }
}

var framer = MessageFramer()
var buffer = [UInt8](repeating: 0, count: 1 << 16)
while true {
    let now = Date()
    for response in delayed where response.due <= now { respond(response.id, response.result) }
    delayed.removeAll { $0.due <= now }
    var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    let wait = delayed.map { max(0, Int32($0.due.timeIntervalSince(now) * 1000) + 1) }.min() ?? -1
    guard poll(&descriptor, 1, wait) >= 0 || errno == EINTR else { exit(1) }
    guard descriptor.revents != 0 else { continue }
    let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    guard count > 0 else { exit(0) }
    framer.append(buffer[0..<count])
    while let frame = framer.next() {
        guard case .message(let content) = frame, let message = try? JSONValue.parse(content),
            let method = message["method"]?.stringValue
        else { continue }
        log?.write(Data("\(method)\n".utf8))
        let params = message["params"] ?? .null
        let id = message["id"]
        switch method {
        case "initialize":
            respond(id ?? .null, ["capabilities": ["completionProvider": [:], "hoverProvider": true, "definitionProvider": true]])
        case "shutdown":
            respond(id ?? .null, .null)
        case "exit":
            exit(0)
        case "textDocument/didOpen":
            if let uri = params["textDocument"]?["uri"]?.stringValue { documents[uri] = params["textDocument"]?["text"]?.stringValue }
        case "textDocument/didChange":
            if let uri = params["textDocument"]?["uri"]?.stringValue { documents[uri] = params["contentChanges"]?.arrayValue?.last?["text"]?.stringValue }
        case "textDocument/diagnostic":
            respond(id ?? .null, diagnostics(of: documents[params["textDocument"]?["uri"]?.stringValue ?? ""] ?? ""))
        case "$/cancelRequest":
            guard let index = delayed.firstIndex(where: { $0.id == params["id"] }) else { break }
            send(["jsonrpc": "2.0", "id": delayed.remove(at: index).id, "error": ["code": -32800, "message": "cancelled"]])
        default:
            guard let id else { break }
            if let result = answer(method, params) {
                delayed.append((Date().addingTimeInterval(delay), id, result))
            } else {
                respond(id, .null)
            }
        }
    }
}
