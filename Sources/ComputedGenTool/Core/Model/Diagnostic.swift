/// A problem found in a spec, reported as `path:line:column: error: message`.
///
/// That format is the one Xcode and SwiftPM recognize, so diagnostics from the build-tool plugin
/// appear inline in the editor and in `swift build` output.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Hashable, Sendable {
        case error
        case warning
        case note
    }

    /// How serious the problem is.
    public var severity: Severity
    /// The path of the spec, as it was given to the generator.
    public var path: String
    /// Where the problem is.
    public var location: SourceLocation
    /// A one-line, human-readable explanation that says what is wrong and, where it can, how to fix it.
    public var message: String

    /// Creates a diagnostic. A message that quotes spec text written over several lines (a type
    /// such as `[\n  String\n]`) is put on one line, its lines trimmed and joined by spaces: the
    /// `path:line:column: error: message` format allows one line per diagnostic.
    public init(_ severity: Severity = .error, path: String, at location: SourceLocation, _ message: String) {
        self.severity = severity
        self.path = path
        self.location = location
        self.message = Self.oneLine(message)
    }

    private static func oneLine(_ message: String) -> String {
        guard message.contains(where: \.isNewline) else { return message }
        return message.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed() }
            .filter { !$0.isEmpty }
            .map { String($0) }
            .joined(separator: " ")
    }

    /// The diagnostic as `path:line:column: severity: message`.
    public var description: String {
        "\(path):\(location.line):\(location.column): \(severity.rawValue): \(message)"
    }
}

/// The diagnostics of one run over a spec, thrown when any of them is an error.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic found, in source order.
    public var diagnostics: [Diagnostic]

    /// Creates the error from a list of diagnostics.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
