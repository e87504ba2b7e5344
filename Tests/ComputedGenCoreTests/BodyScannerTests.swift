import Testing

@testable import ComputedGenCore

@Suite("Body scanner")
struct BodyScannerTests {
    /// Scans the body at the first `{` of `source`; returns its text, or the errors as `line:column: message`.
    private func scan(_ source: String) -> (text: String?, errors: [String]) {
        let offset = Array(source.utf8).firstIndex(of: UInt8(ascii: "{"))!
        let result = BodyScanner.scan(source, openBraceAt: offset)
        return (result.body?.text, result.errors.map { "\($0.location): \($0.message)" })
    }

    @Test("nested braces balance")
    func nestedBraces() {
        #expect(scan("{ a.map { $0 } } rest").text == " a.map { $0 } ")
        #expect(scan("{}").text == "")
    }

    @Test("braces inside single-line strings do not count")
    func singleLineString() {
        #expect(scan(#"{ "}" + "{" } x"#).text == #" "}" + "{" "#)
        #expect(scan(#"{ "\"}\\" } x"#).text == #" "\"}\\" "#)
    }

    @Test("braces inside multi-line strings do not count")
    func multiLineString() {
        let source = "{\n  \"\"\"\n  }\n  \\\"\"\"\n  \"\"\"\n} x"
        #expect(scan(source).text == "\n  \"\"\"\n  }\n  \\\"\"\"\n  \"\"\"\n")
    }

    @Test("raw strings with any number of # end only at their own delimiter")
    func rawStrings() {
        #expect(scan(##"{ #"}"\"# } x"##).text == ##" #"}"\"# "##)
        #expect(scan(###"{ ##"}"# "}"## } x"###).text == ###" ##"}"# "}"## "###)
        #expect(scan("{ #\"\"\"\n}\"\"\"\n\"\"\"# } x").text == " #\"\"\"\n}\"\"\"\n\"\"\"# ")
    }

    @Test("interpolations hold code: nested strings, parentheses and closures")
    func interpolations() {
        #expect(scan(#"{ "\(f(")}"))" } x"#).text == #" "\(f(")}"))" "#)
        #expect(scan(#"{ "\(items.map { "\($0)}" }.count)" } x"#).text == #" "\(items.map { "\($0)}" }.count)" "#)
        #expect(scan(##"{ #"\#(a + "}")"# } x"##).text == ##" #"\#(a + "}")"# "##)
        #expect(scan(##"{ #"\(not code"# } x"##).text == ##" #"\(not code"# "##)
    }

    @Test("escapes: \\u{…}, \\\\ and \\\" do not end the string")
    func escapes() {
        #expect(scan(#"{ "\u{7D}\\" + "\"}" } x"#).text == #" "\u{7D}\\" + "\"}" "#)
    }

    @Test("comments are skipped, nested ones included")
    func comments() {
        #expect(scan("{ a // }\n /* } /* } */ } */ } x").text == " a // }\n /* } /* } */ } */ ")
    }

    @Test("unicode text keeps byte columns")
    func unicode() {
        let source = "x = { \"héllo 👋\" + é }"
        let offset = Array(source.utf8).firstIndex(of: UInt8(ascii: "{"))!
        let result = BodyScanner.scan(source, openBraceAt: offset)
        #expect(result.body?.text == " \"héllo 👋\" + é ")
        #expect(result.body?.location == SourceLocation(line: 1, column: 6, offset: 5))
        #expect(result.closeBrace?.column == Array(source.utf8).count)
        #expect(result.tokens.map(FrontEnd.describe) == ["str:\"héllo 👋\"", "p:+", "id:é"])
    }

    @Test("an unclosed brace is reported at the {")
    func unclosedBrace() {
        let result = scan("a\n  { b { c }\n")
        #expect(result.text == nil)
        #expect(result.errors == ["2:3: \(BodyScanner.unclosedBraceMessage)"])
    }

    @Test("an unterminated string is reported at its opening quote, and the scan goes on")
    func unterminatedString() {
        let result = scan("{ \"abc }\n  x }")
        #expect(result.text == " \"abc }\n  x ")
        #expect(result.errors == [#"1:3: unterminated string literal; close it with '"'"#])
    }

    @Test("a single-line string may not span lines, even in an interpolation")
    func interpolationAcrossLines() {
        let result = scan("{ \"a \\(b\n } c")
        #expect(result.text == " \"a \\(b\n ")
        #expect(result.errors == [#"1:3: unterminated string literal; close it with '"'"#])
    }

    @Test("a string that runs to the end reports only itself, not the brace")
    func unterminatedMultiLine() {
        let result = scan("{ \"\"\"\n } ")
        #expect(result.text == nil)
        #expect(result.errors == [#"1:3: unterminated string literal; close it with '"""'"#])
    }

    @Test("the body text and locations")
    func bodyLocations() {
        let source = "ab\ncd { x }"
        let result = BodyScanner.scan(source, openBraceAt: 6)
        #expect(result.body == Body(text: " x ", at: SourceLocation(line: 2, column: 5, offset: 7), openBrace: SourceLocation(line: 2, column: 4, offset: 6)))
        #expect(result.closeBrace == SourceLocation(line: 2, column: 8, offset: 10))
    }
}
