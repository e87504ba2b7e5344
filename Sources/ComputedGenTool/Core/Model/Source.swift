/// A position in a spec file.
///
/// Lines and columns are 1-based; columns count UTF-8 bytes, as the Swift compiler and clang do,
/// so a location printed as `path:line:column` lines up with what Xcode and SwiftPM show.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in UTF-8 bytes.
    public var column: Int
    /// The 0-based UTF-8 byte offset from the start of the file.
    public var offset: Int

    /// Creates a location.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.offset < rhs.offset
    }

    public var description: String { "\(line):\(column)" }
}

/// A span of text in a spec file, with the location of its first byte.
public struct SourceText: Hashable, Sendable {
    /// The text exactly as written in the spec (trimmed of surrounding white space where noted).
    public var text: String
    /// Where `text` starts.
    public var location: SourceLocation

    /// Creates a span of spec text.
    public init(_ text: String, at location: SourceLocation) {
        self.text = text
        self.location = location
    }
}

/// An identifier as written in a spec.
public struct Identifier: Hashable, Sendable, CustomStringConvertible {
    /// The name without backticks (`default` for `` `default` ``).
    public var name: String
    /// Whether the spec wrote the name in backticks.
    public var isEscaped: Bool
    /// Where the identifier starts (the backtick, when escaped).
    public var location: SourceLocation

    /// Creates an identifier.
    public init(_ name: String, isEscaped: Bool = false, at location: SourceLocation) {
        self.name = name
        self.isEscaped = isEscaped
        self.location = location
    }

    public var description: String { name }
}
