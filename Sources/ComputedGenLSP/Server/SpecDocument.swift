import ComputedGenCore

/// One version of an open spec: its text and what the generator's front end found in it.
///
/// The front end runs when the version is made (diagnostics are published for every version);
/// the index and the tokens that the other features need are built on first use.
public final class SpecDocument {
    /// The document's URI, as the client names it.
    public let uri: String
    /// The version the client gave this text.
    public let version: Int
    /// The text.
    public let text: String
    /// Offsets ↔ LSP positions of the text.
    public let lines: LineTable
    /// The syntax tree and diagnostics, exactly as the build's generator finds them.
    public let analysis: SpecFrontEnd.Analysis

    /// Analyses `text`, the content of `uri` at `version`.
    public init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        self.text = text
        self.lines = LineTable(text)
        self.analysis = SpecFrontEnd.analyze(source: text, path: DocumentURI.path(of: uri))
    }

    /// The members, their occurrences and the Swift code spans.
    public private(set) lazy var index = SpecIndex(file: analysis.parsed.file)

    /// The lexical tokens of the whole text (doc comments included, other comments not).
    public private(set) lazy var tokens: [Token] = Lexer.tokenize(text).tokens

    /// The checked state `name`, when the spec has no errors.
    public func checkedState(named name: String) -> CheckedState? {
        analysis.checked.spec?.states.first { $0.name == name }
    }

    /// The index of the last token that starts before `offset`.
    public func tokenIndex(before offset: Int) -> Int? {
        var low = 0
        var high = tokens.count
        while low < high {
            let middle = (low + high) / 2
            if tokens[middle].location.offset < offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }
}

/// `file:` URIs and the paths they name.
public enum DocumentURI {
    /// The path of a `file:` URI, percent-decoded; other URIs are returned unchanged, so that the
    /// generator's messages name something the user recognises.
    public static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        var path = String(uri.dropFirst("file://".count))
        if let slash = path.firstIndex(of: "/"), slash != path.startIndex {
            path = String(path[slash...])  // `file://host/path`
        }
        return percentDecoded(path)
    }

    /// `text` with `%XX` escapes decoded; invalid escapes are kept as written.
    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
