import Foundation
import Testing

@testable import ComputedGenLSP

/// A ``LanguageServer`` driven in memory, as a client would drive it, for the protocol and
/// feature tests.
final class ServerHarness {
    let server = LanguageServer()
    private var nextID = 1
    /// Every notification the server sent, in order.
    private(set) var notifications: [JSONValue] = []

    /// A server that has been initialized by a client that reads Markdown (and snippets when
    /// asked), or only plain text.
    static func initialized(snippets: Bool = false, markdown: Bool = true) -> ServerHarness {
        let harness = ServerHarness()
        let formats: JSONValue = markdown ? ["markdown", "plaintext"] : ["plaintext"]
        let capabilities: JSONValue = [
            "textDocument": [
                "completion": ["completionItem": ["snippetSupport": .bool(snippets), "documentationFormat": formats]],
                "hover": ["contentFormat": formats],
            ],
        ]
        _ = harness.request("initialize", ["processId": .null, "rootUri": .null, "capabilities": capabilities])
        harness.notify("initialized", [:])
        return harness
    }

    /// Sends a request; returns its response (notifications sent with it are recorded).
    @discardableResult
    func request(_ method: String, _ params: JSONValue = [:]) -> JSONValue {
        let id = nextID
        nextID += 1
        let replies = server.handle(.request(id: .int(id), method: method, params: params))
        notifications += replies.filter { $0["method"] != nil }
        return replies.first { $0["id"] == .int(id) } ?? .null
    }

    /// Sends a notification; returns what the server sent back.
    @discardableResult
    func notify(_ method: String, _ params: JSONValue) -> [JSONValue] {
        let replies = server.handle(.notification(method: method, params: params))
        notifications += replies
        return replies
    }

    /// Opens `text` as `uri`; returns the diagnostics published for it.
    @discardableResult
    func open(_ text: String, uri: String = "file:///tmp/Spec.statespec", version: Int = 1) -> [JSONValue] {
        let replies = notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "statespec", "version": .int(version), "text": .string(text)]])
        return replies.last?["params"]?["diagnostics"]?.arrayValue ?? []
    }

    /// `{"textDocument": {"uri": …}, "position": …}` at the first occurrence of `needle` in
    /// `text`, `delta` characters (UTF-16) into it.
    static func position(of needle: String, in text: String, delta: Int = 0, uri: String = "file:///tmp/Spec.statespec") -> JSONValue {
        let lines = text.components(separatedBy: "\n")
        for (number, line) in lines.enumerated() {
            if let range = line.range(of: needle) {
                let character = line[..<range.lowerBound].utf16.count + delta
                return ["textDocument": ["uri": .string(uri)], "position": ["line": .int(number), "character": .int(character)]]
            }
        }
        Issue.record("'\(needle)' is not in the text")
        return [:]
    }
}

/// The repository's files, for tests that read fixtures.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("Fixtures/Specs/\(name)"), encoding: .utf8)
    }

    static func fixtureNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Fixtures/Specs").path)
            .filter { $0.hasSuffix(".statespec") }.sorted()
    }
}

/// Generated specs of a given size, for the scale and latency tests.
enum LargeSpecs {
    /// A state with `count` members: a third fields, a third computed values over them, a third
    /// computed values over those.
    static func members(_ count: Int) -> String {
        var lines = ["import Foundation", "", "/// A large state.", "state Large {"]
        let third = max(1, count / 3)
        for index in 0..<third { lines.append("  /// Field \(index).\n  var field\(index): Int = \(index)") }
        for index in 0..<third { lines.append("  computed double\(index): Int { field\(index) * 2 }") }
        for index in 0..<(count - 2 * third) { lines.append("  computed sum\(index): Int { double\(index % third) + field\((index + 1) % third) }") }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
