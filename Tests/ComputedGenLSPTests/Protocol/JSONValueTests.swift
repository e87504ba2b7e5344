import Testing

@testable import ComputedGenLSP

@Suite("JSON values: parsing and printing")
struct JSONValueTests {
    @Test("a message round-trips, integers stay integers, keys print sorted")
    func roundTrip() throws {
        let text = #"{"id":1,"jsonrpc":"2.0","params":{"a":[true,false,null,-2.5,1e3,"x"]}}"#
        let value = try JSONValue.parse(text)
        #expect(value["id"] == .int(1))
        #expect(value["params"]?["a"] == [true, false, .null, .double(-2.5), .double(1000), "x"])
        #expect(value.serialized() == #"{"id":1,"jsonrpc":"2.0","params":{"a":[true,false,null,-2.5,1000.0,"x"]}}"#)
    }

    @Test("strings: escapes, control characters, non-ASCII text and surrogate pairs")
    func strings() throws {
        let value = try JSONValue.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00 é😀""#)
        #expect(value == .string("a\"b\\c/d\n\té😀 é😀"))
        #expect(JSONValue.string("q\"\\\n\u{1}é").serialized() == #""q\"\\\n\u0001é""#)
        #expect(try JSONValue.parse(JSONValue.string("line\r\nnext\u{7f}😀").serialized()) == .string("line\r\nnext\u{7f}😀"))
    }

    @Test("invalid JSON is an error with an offset, never a trap", arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "{\"a\":}", "tru", "nul", "01x", "-", "1.", "1e", "\"abc", "\"\\x\"", "\"\\u12\"",
        "\"\\ud800\"", "\"\\udc00\"", "{} {}", "[1 2]", "\"\u{1}\"", "{\"a\":1,}", "@",
    ])
    func invalid(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test("invalid UTF-8 inside a string is an error")
    func invalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
    }

    @Test("nesting deeper than the limit is rejected rather than recursed into")
    func depth() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
        let fine = String(repeating: "[", count: JSONValue.maxDepth - 1) + String(repeating: "]", count: JSONValue.maxDepth - 1)
        #expect(try JSONValue.parse(fine).arrayValue != nil)
    }

    @Test("a 1 MB string parses and prints")
    func large() throws {
        let text = String(repeating: "state S { var a: Int = 0 }\n", count: 40_000)
        let json = JSONValue.object(["text": .string(text)]).serialized()
        #expect(try JSONValue.parse(json)["text"]?.stringValue == text)
    }
}
