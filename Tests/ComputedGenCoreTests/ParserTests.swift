import Testing

@testable import ComputedGenCore

@Suite("Parser")
struct ParserTests {
    /// The example spec of design.md, verbatim.
    static let designExample = """
        // Todo.statespec
        import Foundation                         // copied into the generated file

        /// The todo list screen.                 // doc comments flow into generated code
        state TodoState {
          var todos: [Todo] = []
          var filter: Filter = .all
          var query: String = ""

          @Edge var avatar: Avatar? = nil                         // versioned: no Equatable needed
          @Edge(assert: { $0 >= 0 }) var unread: Int = 0         // Edge middleware: assert
          @Edge(onSet: { $0 = min($0, 99) }) var badge: Int = 0  // Edge middleware: adjust on set

          @Shared(.inMemory("session")) var session: Session = Session()
          @Shared(.fileStorage("settings.json")) var settings: Settings = Settings()
          @Shared(.appStorage("launchCount")) var launchCount: Int = 0

          // inputs inferred from the body's identifiers (todos, filter, query)
          computed visibleTodos: [Todo] {
            todos.filter { filter.includes($0) && (query.isEmpty || $0.title.contains(query)) }
          }
          computed visibleCount: Int { visibleTodos.count }          // computed on computed
          computed doneCount: Int from todos { todos.count(where: \\.done) }   // explicit inputs

          // parameterized, memoized per argument (bounded LRU, default capacity documented)
          selector todos(ownedBy owner: Int) -> [Todo] { todos.filter { $0.owner == owner } }
        }
        """

    private func parse(_ source: String) -> ParseResult {
        SpecParser.parse(source: source, path: "t.statespec")
    }

    private func members(_ source: String) -> [Member] {
        let result = parse(source)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        return result.file.states.first?.members ?? []
    }

    private func field(_ source: String) -> FieldDecl? {
        if case .field(let decl) = members(FrontEnd.state(source)).first { decl } else { nil }
    }

    private func loc(_ line: Int, _ column: Int, _ offset: Int) -> ComputedGenCore.SourceLocation {
        SourceLocation(line: line, column: column, offset: offset)
    }

    @Test("the design example parses without diagnostics")
    func designExampleParses() throws {
        let result = parse(Self.designExample)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        #expect(result.file.path == "t.statespec")
        #expect(result.file.imports.map(\.text) == ["import Foundation"])
        #expect(result.file.imports.map(\.module) == ["Foundation"])
        let state = try #require(result.file.states.first)
        #expect(result.file.states.count == 1)
        #expect(state.name.name == "TodoState")
        #expect(state.doc == DocComment(lines: ["The todo list screen.                 // doc comments flow into generated code"]))
        #expect(state.access == .internal)
        #expect(state.location == loc(5, 1, 178))
        #expect(state.endLocation.line == 27)
        #expect(state.members.map(\.name.name) == [
            "todos", "filter", "query", "avatar", "unread", "badge", "session", "settings", "launchCount",
            "visibleTodos", "visibleCount", "doneCount", "todos",
        ])
    }

    @Test("the design example's fields: types, defaults and attributes")
    func designExampleFields() throws {
        let state = try #require(parse(Self.designExample).file.states.first)
        let fields = state.members.compactMap { member -> FieldDecl? in
            if case .field(let decl) = member { decl } else { nil }
        }
        #expect(fields.map { $0.type?.text } == ["[Todo]", "Filter", "String", "Avatar?", "Int", "Int", "Session", "Settings", "Int"])
        #expect(fields.map { $0.defaultValue?.text } == ["[]", ".all", "\"\"", "nil", "0", "0", "Session()", "Settings()", "0"])
        #expect(fields[0].type?.location == loc(6, 14, 209))
        #expect(fields[3].attributes == [Attribute(name: Identifier("Edge", at: loc(10, 4, 278)), at: loc(10, 3, 277))])
        #expect(fields[3].location == loc(10, 3, 277))
        let assertArgument = try #require(fields[4].attributes.first?.arguments?.first)
        #expect(assertArgument.label?.name == "assert")
        #expect(assertArgument.value.text == "{ $0 >= 0 }")
        #expect(fields[5].attributes.first?.arguments?.first?.value.text == "{ $0 = min($0, 99) }")
        #expect(fields[6].attributes.first?.name.name == "Shared")
        #expect(fields[6].attributes.first?.arguments?.map(\.value.text) == [#".inMemory("session")"#])
        #expect(fields[6].attributes.first?.arguments?.first?.label == nil)
        #expect(fields[7].attributes.first?.arguments?.map(\.value.text) == [#".fileStorage("settings.json")"#])
        #expect(fields[8].attributes.first?.arguments?.map(\.value.text) == [#".appStorage("launchCount")"#])
    }

    @Test("the design example's computeds and selector")
    func designExampleComputeds() throws {
        let state = try #require(parse(Self.designExample).file.states.first)
        guard case .computed(let visible) = state.members[9], case .computed(let count) = state.members[10],
              case .computed(let done) = state.members[11], case .selector(let selector) = state.members[12] else {
            Issue.record("unexpected member kinds")
            return
        }
        #expect(visible.type?.text == "[Todo]")
        #expect(visible.explicitInputs == nil)
        #expect(visible.body.text == "\n    todos.filter { filter.includes($0) && (query.isEmpty || $0.title.contains(query)) }\n  ")
        #expect(visible.body.openBrace.line == 19)
        #expect(visible.body.location.column == visible.body.openBrace.column + 1)
        #expect(count.body.text == " visibleTodos.count ")
        #expect(done.explicitInputs?.map(\.name) == ["todos"])
        #expect(done.body.text == #" todos.count(where: \.done) "#)
        #expect(selector.name.name == "todos")
        #expect(selector.parameters.map(\.label?.name) == ["ownedBy"])
        #expect(selector.parameters.map(\.name.name) == ["owner"])
        #expect(selector.parameters.map { $0.type?.text } == ["Int"])
        #expect(selector.returnType?.text == "[Todo]")
        #expect(selector.cacheCapacity == nil)
        #expect(selector.body.text == " todos.filter { $0.owner == owner } ")
        #expect(selector.location == loc(26, 3, 1209))
    }

    @Test("import lines of every form")
    func imports() {
        let result = parse("import Foundation\n@preconcurrency import Dispatch // why\nimport struct Foundation.URL\npublic import Observation\n@_spi(X) import Y.Z\n")
        #expect(result.diagnostics.isEmpty)
        #expect(result.file.imports.map(\.text) == [
            "import Foundation", "@preconcurrency import Dispatch", "import struct Foundation.URL",
            "public import Observation", "@_spi(X) import Y.Z",
        ])
        #expect(result.file.imports.map(\.module) == ["Foundation", "Dispatch", "Foundation.URL", "Observation", "Y.Z"])
        #expect(result.file.imports.map(\.location.line) == [1, 2, 3, 4, 5])
    }

    @Test("several states per file, access levels and conformances")
    func severalStates() {
        let result = parse("public state A: Equatable, Codable { var a: Int = 0 }\npackage state B {}\nstate C: Swift.Sendable {\n}\ninternal state D {}")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        #expect(result.file.states.map(\.name.name) == ["A", "B", "C", "D"])
        #expect(result.file.states.map(\.access) == [.public, .package, .internal, .internal])
        #expect(result.file.states[0].conformances.map(\.name) == ["Equatable", "Codable"])
        #expect(result.file.states[2].conformances.map(\.name) == ["Swift.Sendable"])
        #expect(result.file.states[0].endLocation == loc(1, 53, 52))
        #expect(result.file.states[0].members.map(\.name.name) == ["a"])
    }

    @Test("doc comments attach to the next state or member")
    func docComments() throws {
        let result = parse("""
            /// Dropped: an import follows.
            import Foundation
            /// State doc.
            /// Second line.
            state S {
              /// Field doc.
              var a: Int = 0
              // Not a doc comment.
              var b: Int = 0
              /// Computed doc.
              computed c: Int { a }
              /// Selector doc.
              selector d() -> Int { b }
              /// Dangling.
            }
            """)
        let state = try #require(result.file.states.first)
        #expect(state.doc?.lines == ["State doc.", "Second line."])
        guard case .field(let a) = state.members[0], case .field(let b) = state.members[1],
              case .computed(let c) = state.members[2], case .selector(let d) = state.members[3] else {
            Issue.record("unexpected members")
            return
        }
        #expect(a.doc?.lines == ["Field doc."])
        #expect(b.doc == nil)
        #expect(c.doc?.lines == ["Computed doc."])
        #expect(d.doc?.lines == ["Selector doc."])
    }

    @Test("types: generics, dictionaries, optionals, tuples, closures")
    func types() {
        let cases: [(String, String)] = [
            ("var a: [String: Int] = [:]", "[String: Int]"),
            ("var a: Dictionary<String, Set<Int>>=[:]", "Dictionary<String, Set<Int>>"),
            ("var a: Int?=nil", "Int?"),
            ("var a: (x: Int, y: [Int])? = nil", "(x: Int, y: [Int])?"),
            ("var a: (Int) -> Void = { _ in }", "(Int) -> Void"),
            ("var a: @Sendable (Int) async throws -> [String: Int]", "@Sendable (Int) async throws -> [String: Int]"),
            ("var a: some Collection<Int>", "some Collection<Int>"),
            ("var a: (\n  Int,\n  String\n) = (1, \"\")", "(\n  Int,\n  String\n)"),
            ("var a: Int // comment", "Int"),
        ]
        for (source, type) in cases {
            #expect(field(source)?.type?.text == type, "\(source)")
        }
    }

    @Test("defaults: expressions, spanning lines while brackets are open")
    func defaults() {
        let cases: [(String, String?)] = [
            ("var a: Int = 1 + 2 * f(x) // comment", "1 + 2 * f(x)"),
            ("var a: [Int] = [\n  1,\n  2\n]", "[\n  1,\n  2\n]"),
            ("var a: () -> Int = {\n  var b = 1\n  return b\n}", "{\n  var b = 1\n  return b\n}"),
            ("var a: String = \"}{\" + #\"\"#", "\"}{\" + #\"\"#"),
            ("var a: Int", nil),
        ]
        for (source, value) in cases {
            #expect(field(source)?.defaultValue?.text == value, "\(source)")
        }
    }

    @Test("attribute arguments are captured verbatim with balanced brackets and strings")
    func attributeArguments() throws {
        let decl = try #require(field(#"@Edge(assert: { $0.allSatisfy { $0 != ")" } }, onSet: { $0 = [$0[0]] }) var a: [String] = []"#))
        #expect(decl.attributes.first?.arguments?.map { $0.label?.name } == ["assert", "onSet"])
        #expect(decl.attributes.first?.arguments?.map(\.value.text) == [#"{ $0.allSatisfy { $0 != ")" } }"#, "{ $0 = [$0[0]] }"])
        let shared = try #require(field(#"@Shared(.fileStorage(.documentsDirectory.appending(path: "a,b.json"))) var s: S = S()"#))
        #expect(shared.attributes.first?.arguments?.map(\.value.text) == [#".fileStorage(.documentsDirectory.appending(path: "a,b.json"))"#])
        let empty = try #require(field("@Edge() var e: Int = 0"))
        #expect(empty.attributes.first?.arguments == [])
        let multiline = try #require(field("@Edge(\n  assert: { $0 > 0 },\n  middleware: m\n)\nvar m: Int = 1"))
        #expect(multiline.attributes.first?.arguments?.map(\.value.text) == ["{ $0 > 0 }", "m"])
        #expect(multiline.location.line == 2)
    }

    @Test("selectors: labels, underscores, no parameters, from and cache")
    func selectors() throws {
        let members = members(FrontEnd.state("""
            selector a(label param: Int, _ p: [String: Int], q: (Int) -> Bool) -> Int from x, y cache 8 { 0 }
            selector b() -> Int cache 1_000 { 1 }
            selector c(_ v: Int) -> Int { v }
            """))
        guard case .selector(let a) = members[0], case .selector(let b) = members[1], case .selector(let c) = members[2] else {
            Issue.record("unexpected members")
            return
        }
        #expect(a.parameters.map { $0.label?.name } == ["label", "_", nil])
        #expect(a.parameters.map(\.name.name) == ["param", "p", "q"])
        #expect(a.parameters.map(\.callLabel) == ["label", "_", "q"])
        #expect(a.parameters.map { $0.type?.text } == ["Int", "[String: Int]", "(Int) -> Bool"])
        #expect(a.explicitInputs?.map(\.name) == ["x", "y"])
        #expect(a.cacheCapacity == 8)
        #expect(a.cacheCapacityLocation == loc(2, 91, 100))
        #expect(b.parameters.isEmpty)
        #expect(b.cacheCapacity == 1000)
        #expect(c.body.text == " v ")
    }

    @Test("members may be separated by ';' and be written in backticks")
    func semicolonsAndBackticks() {
        let members = members("state S { var a: Int = 0; var `default`: Int = 1; computed `in`: Int { a } ; }")
        #expect(members.map(\.name.name) == ["a", "default", "in"])
        #expect(members.map(\.name.isEscaped) == [false, true, true])
    }

    @Test("computed types end at 'from' or the body")
    func computedClauses() {
        let members = members(FrontEnd.state("computed a: [Int] from x, y { x + y }\ncomputed b: Set<Int>\n  from x\n{\n  x\n}"))
        guard case .computed(let a) = members[0], case .computed(let b) = members[1] else {
            Issue.record("unexpected members")
            return
        }
        #expect(a.type?.text == "[Int]")
        #expect(a.explicitInputs?.map(\.name) == ["x", "y"])
        #expect(b.type?.text == "Set<Int>")
        #expect(b.explicitInputs?.map(\.name) == ["x"])
        #expect(b.body.text == "\n  x\n")
    }

    @Test("missing types are left nil for the checker")
    func missingTypes() {
        let members = members(FrontEnd.state("var a = 0\nvar b:\ncomputed c { a }\nselector d(p) { a }"))
        guard case .field(let a) = members[0], case .field(let b) = members[1],
              case .computed(let c) = members[2], case .selector(let d) = members[3] else {
            Issue.record("unexpected members")
            return
        }
        #expect(a.type == nil)
        #expect(a.defaultValue?.text == "0")
        #expect(b.type == nil)
        #expect(c.type == nil)
        #expect(d.returnType == nil)
        #expect(d.parameters.first?.type == nil)
    }

    @Test("syntax errors are all reported, each once, and parsing recovers")
    func recovery() {
        let result = parse("""
            state S {
              var : Int
              var ok1: Int = 0
              computed c: Int
              var ok2: Int = 0
              selector s(a: Int -> Int { a }
              var ok3: Int = [1, 2
              var ok4: Int = 0
              bogus here
            }
            extra
            state T { var ok5: Int = 0 }
            """)
        #expect(result.diagnostics.map { "\($0.location): \($0.message)" } == [
            "2:7: expected a field name after 'var', e.g. 'var count: Int = 0'",
            "5:3: expected '{' to begin the body of computed 'c', found 'var'",
            "6:28: expected ',' or ')' in the parameters of selector 's', found '{'",
            "7:18: unclosed '[' in a default value; add the missing ']'",
            "9:3: expected 'var', 'computed' or 'selector' in state 'S', found 'bogus'",
            "11:1: expected 'import' or 'state' at top level, found 'extra'",
        ])
        #expect(result.file.states.map(\.name.name) == ["S", "T"])
        #expect(result.file.states[0].members.map(\.name.name) == ["ok1", "c", "ok2", "s", "ok3", "ok4"])
        #expect(result.file.states[1].members.map(\.name.name) == ["ok5"])
    }

    @Test("every prefix of the design example parses without crashing or hanging, and errors mean no spec")
    func prefixes() {
        let bytes = Array(Self.designExample.utf8)
        for length in 0...bytes.count {
            let source = String(decoding: bytes[0..<length], as: UTF8.self)
            let result = SpecFrontEnd.run(source: source, path: "p")
            #expect((result.spec == nil) == result.hasErrors, "prefix of \(length) bytes")
        }
    }
}
