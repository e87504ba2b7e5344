import Testing

@testable import ComputedGenLSP

@Suite("Document symbols and semantic tokens")
struct SymbolsAndTokensTests {
    @Test("the outline: states, then their members with types, ranges that contain their names")
    func outline() throws {
        let text = try Repository.fixture("Todo.statespec")
        let harness = ServerHarness.initialized()
        harness.open(text)
        let symbols = harness.request("textDocument/documentSymbol", ["textDocument": ["uri": "file:///tmp/Spec.statespec"]])["result"]?.arrayValue ?? []
        #expect(symbols.map { $0["name"] } == ["TodoState"])
        let children = symbols.first?["children"]?.arrayValue ?? []
        #expect(children.compactMap { $0["name"]?.stringValue } == [
            "todos", "filter", "query", "avatar", "unread", "badge", "visibleTodos", "visibleCount", "doneCount", "todos(ownedBy:)",
        ])
        #expect(children.map { $0["kind"] } == [8, 8, 8, 8, 8, 8, 7, 7, 7, 6])
        #expect(children[6]["detail"] == "[Todo]")
        for child in children + symbols {
            let range = try #require(LSPRange(json: child["range"]))
            let selection = try #require(LSPRange(json: child["selectionRange"]))
            #expect(range.start <= selection.start && selection.end <= range.end)
        }
        #expect(children[6]["range"]?["end"] == ["line": 18, "character": 3])  // The body's '}'.
    }

    /// The tokens of `text` as `text:type[+modifiers]` strings.
    static func tokens(_ text: String) -> [String] {
        let document = SpecDocument(uri: "file:///t", version: 1, text: text)
        let data = SemanticTokensFeature.encode(SemanticTokensFeature.spans(of: document), lines: document.lines)
        let lines = text.components(separatedBy: "\n")
        var line = 0
        var character = 0
        var result: [String] = []
        for index in stride(from: 0, to: data.count, by: 5) {
            line += data[index]
            character = data[index] == 0 ? character + data[index + 1] : data[index + 1]
            let utf16 = Array(lines[line].utf16)
            let word = String(decoding: utf16[character..<(character + data[index + 2])], as: UTF16.self)
            let modifiers = SemanticTokensFeature.tokenModifiers.enumerated().filter { data[index + 4] & (1 << $0.offset) != 0 }.map(\.element)
            result.append("\(word):\(SemanticTokensFeature.tokenTypes[data[index + 3]])" + modifiers.map { "+" + $0 }.joined())
        }
        return result
    }

    @Test("keywords, names, types, attributes, parameters, Swift keywords, strings and comments")
    func classification() {
        let text = """
            import Foundation
            /// Doc é.
            state S: Equatable {
              @Edge var a: Int = 0 // note
              computed b: [Int] from a { if a > 0 { return [a] } else { return [] } }
              selector f(of x: Int) -> String { "\\(x)" + "😀" }
            }
            """
        #expect(Self.tokens(text) == [
            "import:keyword", "Foundation:namespace", "/// Doc é.:comment+documentation", "state:keyword", "S:struct+declaration",
            "Equatable:type", "@Edge:decorator", "var:keyword", "a:property+declaration", "Int:type", "0:number", "// note:comment",
            "computed:keyword", "b:property+declaration+readonly", "Int:type", "from:keyword", "a:property", "if:keyword",
            "a:property", "0:number", "return:keyword", "a:property", "else:keyword", "return:keyword",
            "selector:keyword", "f:function+declaration", "of:parameter", "x:parameter+declaration", "Int:type", "String:type",
            "\"\\(x)\":string", "\"😀\":string",
        ])
    }

    @Test("a multi-line string or comment becomes one token per line")
    func multiLine() {
        let text = "state S {\n  computed s: String { \"\"\"\n    é\n    \"\"\" }\n  /* a\n  b */\n}\n"
        let strings = Self.tokens(text).filter { $0.hasSuffix(":string") || $0.hasSuffix(":comment") }
        #expect(strings == ["\"\"\":string", "    é:string", "    \"\"\":string", "/* a:comment", "  b */:comment"])
    }
}
