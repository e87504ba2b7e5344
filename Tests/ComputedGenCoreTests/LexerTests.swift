import Testing

@testable import ComputedGenCore

@Suite("Lexer")
struct LexerTests {
    @Test("identifiers, escaped identifiers, dollar names and keywords are identifiers")
    func identifiers() {
        #expect(FrontEnd.tokens("todos `default` $0 $avatar _ _x café if") == [
            "id:todos", "id:`default`", "id:$0", "id:$avatar", "id:_", "id:_x", "id:café", "id:if",
        ])
    }

    @Test("punctuation: brackets, arrows, dots, angle brackets and operators")
    func punctuation() {
        #expect(FrontEnd.tokens("(a: [B]) -> C<D<E>>? { x == y }") == [
            "p:(", "id:a", "p::", "p:[", "id:B", "p:]", "p:)", "p:->", "id:C", "p:<", "id:D", "p:<", "id:E",
            "p:>", "p:>", "p:?", "p:{", "id:x", "p:==", "id:y", "p:}",
        ])
        #expect(FrontEnd.tokens("0..<n a...b x?.y \\.done @Edge") == [
            "num:0", "p:..<", "id:n", "id:a", "p:...", "id:b", "id:x", "p:?", "p:.", "id:y", "p:\\", "p:.",
            "id:done", "p:@", "id:Edge",
        ])
    }

    @Test("numbers, including decimals, exponents and underscores")
    func numbers() {
        #expect(FrontEnd.tokens("1 1_000 3.14 1e-5 0x1F 2.max") == [
            "num:1", "num:1_000", "num:3.14", "num:1e-5", "num:0x1F", "num:2", "p:.", "id:max",
        ])
    }

    @Test("comments are skipped, nested block comments included")
    func comments() {
        #expect(FrontEnd.tokens("a // b\n/* c /* d */ e */ f\n//// g\nh") == ["id:a", "id:f", "id:h"])
    }

    @Test("doc comments start a line; one space after /// is removed")
    func docComments() {
        #expect(FrontEnd.tokens("/// First line.\n///  Indented.\nstate a /// not doc\n  ///x") == [
            "doc:First line.", "doc: Indented.", "id:state", "id:a", "doc:x",
        ])
    }

    @Test("string literals are single tokens")
    func strings() {
        #expect(FrontEnd.tokens(#"a "b \" c" d"#) == ["id:a", #"str:"b \" c""#, "id:d"])
        #expect(FrontEnd.tokens("x \"\"\"\nline \"quoted\"\n\"\"\" y") == ["id:x", "str:\"\"\"\nline \"quoted\"\n\"\"\"", "id:y"])
        #expect(FrontEnd.tokens(##"#"raw "quote" \(no)"# z"##) == [##"str:#"raw "quote" \(no)"#"##, "id:z"])
        #expect(FrontEnd.tokens("#if DEBUG") == ["pound:#if", "id:DEBUG"])
    }

    @Test("interpolations keep their tokens, parentheses included")
    func interpolationTokens() throws {
        let token = try #require(Lexer.tokenize(#""a \(f("b)", x)) c""#).tokens.first)
        #expect(token.kind == .string)
        #expect(token.interpolations.count == 1)
        #expect(token.interpolations[0].map(FrontEnd.describe) == ["p:(", "id:f", "p:(", #"str:"b)""#, "p:,", "id:x", "p:)", "p:)"])
    }

    @Test("locations are 1-based lines and UTF-8 byte columns")
    func locations() {
        let tokens = Lexer.tokenize("é x\n  ä y").tokens
        #expect(tokens.map(\.location.description) == ["1:1", "1:4", "2:3", "2:6"])
        #expect(tokens.map(\.location.offset) == [0, 3, 7, 10])
        #expect(tokens.map(\.isAtLineStart) == [true, false, true, false])
    }

    @Test("an unterminated single-line string is reported at its start and lexing resumes on the next line")
    func unterminatedString() {
        let (tokens, errors) = Lexer.tokenize("a \"oops\nb")
        #expect(tokens.map(FrontEnd.describe) == ["id:a", "str:\"oops", "id:b"])
        #expect(tokens[1].isMalformed)
        #expect(errors.map { "\($0.location): \($0.message)" } == [#"1:3: unterminated string literal; close it with '"'"#])
        #expect(errors.first?.reachesEnd == false)
    }

    @Test("unterminated multi-line and raw strings name their delimiter")
    func unterminatedDelimiters() {
        #expect(Lexer.tokenize("\"\"\"\nabc").errors.map(\.message) == [#"unterminated string literal; close it with '"""'"#])
        #expect(Lexer.tokenize("x ##\"abc\"# d").errors.map(\.message) == [###"unterminated string literal; close it with '"##'"###])
        #expect(Lexer.tokenize("\"\"\"\nabc").errors.first?.reachesEnd == true)
    }

    @Test("an unterminated block comment is reported at its start")
    func unterminatedComment() {
        let errors = Lexer.tokenize("a\n  /* b /* c */").errors
        #expect(errors.map { "\($0.location): \($0.message)" } == ["2:3: unterminated '/*' comment; close it with '*/'"])
    }

    @Test("keywords are reserved; contextual keywords are not")
    func keywords() {
        for keyword in ["class", "default", "if", "in", "self", "Self", "Any", "true", "nil", "is", "as", "try", "throws", "rethrows", "inout", "init", "deinit", "subscript", "operator"] {
            #expect(SwiftKeywords.isReserved(keyword), "\(keyword)")
        }
        for word in ["get", "set", "some", "any", "willSet", "lazy", "state", "computed", "from"] {
            #expect(!SwiftKeywords.isReserved(word), "\(word)")
        }
        #expect(Identifier("default", at: SourceLocation(line: 1, column: 1, offset: 0)).swiftSpelling == "`default`")
        #expect(Identifier("todos", at: SourceLocation(line: 1, column: 1, offset: 0)).swiftSpelling == "todos")
    }

    @Test("identifier references skip members, labels, keywords, strings and comments")
    func references() {
        #expect(FrontEnd.references("todos.filter { filter.includes($0) && $0.title.contains(query) }") == ["todos", "filter", "query"])
        #expect(FrontEnd.references("todos.count(where: \\.done) // count\n/* items */") == ["todos"])
        #expect(FrontEnd.references(#""\(count) items and \(label(of: name))" + "other""#) == ["count", "label", "name"])
        #expect(FrontEnd.references("f(a, by: b, c: c) ?? `default` ?? default") == ["f", "a", "b", "c", "default"])
        #expect(FrontEnd.references("x?.y ?? self.z + $0 + _ + $avatar") == ["x"])
    }

    @Test("identifier references carry file locations")
    func referenceLocations() {
        let origin = SourceLocation(line: 5, column: 10, offset: 100)
        let references = IdentifierReferences.list(inCode: " a +\n  b", at: origin)
        #expect(references.map(\.location.description) == ["5:11", "6:3"])
        #expect(references.map(\.location.offset) == [101, 107])
    }
}
