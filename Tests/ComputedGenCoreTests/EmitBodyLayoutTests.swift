import Foundation
import Testing

@testable import ComputedGenCore

/// `BodyLayout`: a body's lines under `#sourceLocation`, laid out so that every line and column in
/// the generated file is the spec's.
@Suite("Emit: body layout")
struct EmitBodyLayoutTests {
    private func body(_ text: String, line: Int, column: Int) -> Body {
        let location = ComputedGenCore.SourceLocation(line: line, column: column, offset: 0)
        return Body(text: text, at: location, openBrace: location)
    }

    private func spaces(_ count: Int) -> String {
        String(repeating: " ", count: count)
    }

    @Test("a single-line body keeps its spec column by padding its first line")
    func singleLine() {
        // `computed doubled: Int { count * 2 }` with the byte after `{` at column 26 of line 8.
        let lines = BodyLayout(body(" count * 2 ", line: 8, column: 26)).lines(sourcePath: "\"t.statespec\"")
        #expect(lines == [
            "#sourceLocation(file: \"t.statespec\", line: 8)",
            spaces(25) + " count * 2 }",
            "#sourceLocation()",
        ])
    }

    @Test("a body starting on the line after `{` starts at that line, copied verbatim")
    func nextLine() {
        let lines = BodyLayout(body("\n    let base = 1\n    return base\n  ", line: 10, column: 20)).lines(sourcePath: "\"p\"")
        #expect(lines == [
            "#sourceLocation(file: \"p\", line: 11)",
            "    let base = 1",
            "    return base",
            "  }",
            "#sourceLocation()",
        ])
    }

    @Test("blank lines before the code advance the line; blank lines after it keep the brace on its spec line")
    func blankLines() {
        let lines = BodyLayout(body("  \n\t\n    x\n\n   \n  ", line: 3, column: 18)).lines(sourcePath: "\"p\"")
        #expect(lines == ["#sourceLocation(file: \"p\", line: 5)", "    x", "", "", "  }", "#sourceLocation()"])
    }

    @Test("blank lines inside the code are kept, so later lines keep their numbers")
    func innerBlankLines() {
        let lines = BodyLayout(body("\n  let a = 1\n\n  return a\n", line: 1, column: 20)).lines(sourcePath: "\"p\"")
        #expect(lines == ["#sourceLocation(file: \"p\", line: 2)", "  let a = 1", "", "  return a", "}", "#sourceLocation()"])
    }

    @Test("trailing spaces and tabs are trimmed from every line")
    func trailingWhitespace() {
        let lines = BodyLayout(body("\n  a   \n  b\t\n", line: 1, column: 5)).lines(sourcePath: "\"p\"")
        #expect(lines == ["#sourceLocation(file: \"p\", line: 2)", "  a", "  b", "}", "#sourceLocation()"])
    }

    @Test("CRLF bodies lay out exactly as LF bodies, without carriage returns")
    func crlf() {
        let lf = BodyLayout(body("\n    let a = 1\n    return a\n  ", line: 4, column: 20)).lines(sourcePath: "\"p\"")
        let crlf = BodyLayout(body("\r\n    let a = 1\r\n    return a\r\n  ", line: 4, column: 20)).lines(sourcePath: "\"p\"")
        #expect(crlf == lf)
        #expect(!crlf.joined().contains("\r"))
        let singleLF = BodyLayout(body(" a + b ", line: 2, column: 9)).lines(sourcePath: "\"p\"")
        let singleCRLF = BodyLayout(body(" a +\r\n b ", line: 2, column: 9)).lines(sourcePath: "\"p\"")
        #expect(singleLF[1] == spaces(8) + " a + b }")
        #expect(singleCRLF == ["#sourceLocation(file: \"p\", line: 2)", spaces(8) + " a +", " b }", "#sourceLocation()"])
    }

    @Test("an empty body still gets its directives, its brace at the spec's column")
    func emptyBody() {
        let lines = BodyLayout(body(" ", line: 7, column: 22)).lines(sourcePath: "\"p\"")
        #expect(lines == ["#sourceLocation(file: \"p\", line: 7)", spaces(21) + " }", "#sourceLocation()"])
    }

    @Test("the #sourceLocation path is a valid Swift string literal", arguments: [
        ("Specs/Todo.statespec", #""Specs/Todo.statespec""#),
        ("dir with space/é.statespec", #""dir with space/é.statespec""#),
        (#"a"b.statespec"#, #""a\"b.statespec""#),
        (#"C:\specs\T.statespec"#, #""C:\\specs\\T.statespec""#),
        (#"\(x).statespec"#, #""\\(x).statespec""#),
        ("new\nline.statespec", #""new\nline.statespec""#),
    ])
    func pathLiteral(path: String, literal: String) {
        #expect(SourceContext(path: path).pathLiteral == literal)
    }

    // MARK: Through the generator

    /// The UTF-8 column (1-based) of the first occurrence of `needle` in `line`.
    private func column(of needle: String, in line: String) -> Int? {
        guard let range = line.range(of: needle) else { return nil }
        return line.utf8.distance(from: line.startIndex, to: range.lowerBound) + 1
    }

    /// The line after `#sourceLocation(file: …, line: N)` for body `index`, and N.
    private func bodyLines(_ swift: String) -> [(line: Int, code: [String])] {
        let lines = swift.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result: [(Int, [String])] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("#sourceLocation(file:"), let number = Int(line.split(separator: " ").last?.dropLast() ?? "") {
                var code: [String] = []
                index += 1
                while lines[index] != "#sourceLocation()" {
                    code.append(lines[index])
                    index += 1
                }
                // Only bodies: not the type, default value and signature lines also mapped to the spec.
                let first = code.first?.trimmingCharacters(in: .whitespaces) ?? ""
                let declarations = ["typealias", "static var ", "static func ", "@usableFromInline ", "fileprivate static "]
                if !declarations.contains(where: { first.contains($0) }) {
                    result.append((number, code))
                }
            }
            index += 1
        }
        return result
    }

    @Test("every token of a generated body sits at its spec line and column")
    func tokensKeepSpecPositions() throws {
        let source = """
            state S {
              var todos: [Int] = []
              var naïveCount: Int = 0
              computed n: Int { todos.count + 1 }
              /// Multi-line.
              computed m: Int {
                let base = n * 2
                return base + naïveCount
              }
              computed é: Int {   naïveCount  }
              selector over(_ limit: Int) -> Bool { m > limit }
            }
            """
        let specLines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let swift = try Emit.swift(source)
        let bodies = bodyLines(swift)
        #expect(bodies.map(\.line) == [4, 7, 10, 11])
        let probes: [[String]] = [["todos", "+ 1"], ["let base", "return base", "naïveCount"], ["naïveCount"], ["m > limit"]]
        for ((line, code), needles) in zip(bodies, probes) {
            for needle in needles {
                let offset = try #require(code.firstIndex { $0.contains(needle) }, "\(needle)")
                let specLine = specLines[line - 1 + offset]
                #expect(column(of: needle, in: code[offset]) == column(of: needle, in: specLine), "\(needle)")
            }
        }
    }

    @Test("a CRLF spec generates exactly the bytes of its LF twin")
    func crlfSpec() throws {
        let lf = """
            /// A doc comment.
            public state S: Codable {
              /// A field.
              var items: [Int] = [
                1,
                2
              ]
              computed total: Int {
                items.reduce(0, +)
              }
              computed first: Int? { items.first }
              selector above(_ limit: Int) -> [Int] {
                items.filter { $0 > limit }
              }
            }

            """
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        let fromLF = try Emit.swift(lf)
        let fromCRLF = try Emit.swift(crlf)
        #expect(fromCRLF == fromLF)
        #expect(!fromCRLF.utf8.contains(13))
    }

    @Test("#sourceLocation uses sourceLocationPath when given, escaped; the header keeps the display name")
    func sourceLocationPathOption() throws {
        let source = "state S {\n  var a: Int = 0\n  computed b: Int { a }\n}\n"
        let swift = try Emit.swift(source, path: "x/S.statespec", options: EmitOptions(displayName: "Shown.statespec", sourceLocationPath: #"/tmp/a "b"/S.statespec"#))
        #expect(swift.contains(#"#sourceLocation(file: "/tmp/a \"b\"/S.statespec", line: 3)"#))
        #expect(swift.hasPrefix("// Generated by ComputedGen from Shown.statespec.\n"))
        let plain = try Emit.swift(source, path: "x/S.statespec")
        #expect(plain.contains(#"#sourceLocation(file: "x/S.statespec", line: 3)"#))
        #expect(Emit.count(of: "#sourceLocation(file:", in: plain) == Emit.count(of: "#sourceLocation()", in: plain))
    }
}
