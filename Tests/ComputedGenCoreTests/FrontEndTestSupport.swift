@testable import ComputedGenCore

/// Helpers shared by the lexer, parser and checker tests.
enum FrontEnd {
    /// The tokens of `source` as `kind:text` strings, e.g. `id:todos`, `p:{`, `str:"a"`.
    static func tokens(_ source: String) -> [String] {
        Lexer.tokenize(source).tokens.map(describe)
    }

    static func describe(_ token: Token) -> String {
        switch token.kind {
        case .identifier: token.isEscaped ? "id:`\(token.text)`" : "id:\(token.text)"
        case .poundKeyword: "pound:\(token.text)"
        case .number: "num:\(token.text)"
        case .string: "str:\(token.text)"
        case .punctuation: "p:\(token.text)"
        case .docComment: "doc:\(token.text)"
        case .end: "end"
        }
    }

    /// The diagnostics of running the front end over `source`, as `line:column: message`.
    static func diagnostics(_ source: String) -> [String] {
        SpecFrontEnd.run(source: source, path: "t.statespec").diagnostics.map { "\($0.location): \($0.message)" }
    }

    /// The checked spec of `source`, or `nil` with the diagnostics recorded as an issue.
    static func check(_ source: String) -> CheckResult {
        SpecFrontEnd.run(source: source, path: "t.statespec")
    }

    /// The names of the references in `code`.
    static func references(_ code: String) -> [String] {
        IdentifierReferences.list(inCode: code).map(\.name)
    }

    /// Wraps members in a state declaration.
    static func state(_ members: String) -> String {
        "state S {\n\(members)\n}\n"
    }
}
