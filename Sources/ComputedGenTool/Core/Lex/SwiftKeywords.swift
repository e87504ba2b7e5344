/// The reserved words of Swift, which a spec may use as names only in backticks.
public enum SwiftKeywords {
    /// Keywords used in declarations, statements, expressions and types, as *The Swift
    /// Programming Language* lists them, less the contextual ones the compiler accepts as plain
    /// names (`open`, `borrowing`, `consuming`, `nonisolated`, like `get` or `some`).
    public static let reserved: Set<String> = [
        // Declarations.
        "associatedtype", "class", "deinit", "enum", "extension",
        "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var",
        // Statements.
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions and types.
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]

    /// Whether `name` is a reserved keyword.
    public static func isReserved(_ name: String) -> Bool {
        reserved.contains(name)
    }
}

extension Identifier {
    /// The name as it must be written in generated Swift: in backticks when the spec escaped it
    /// or when it is a reserved keyword, bare otherwise.
    public var swiftSpelling: String {
        isEscaped || SwiftKeywords.isReserved(name) ? "`\(name)`" : name
    }
}
