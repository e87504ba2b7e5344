import Testing

@testable import ComputedGenCore

@Suite("Checker")
struct CheckerTests {
    /// The checked state of `members` wrapped in `state S`, recording diagnostics as issues.
    private func state(_ members: String) -> CheckedState? {
        let result = FrontEnd.check(FrontEnd.state(members))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        return result.spec?.states.first
    }

    private func inputs(of name: String, in state: CheckedState?) -> [String] {
        if let computed = state?.computeds.first(where: { $0.name == name }) { return computed.inputs.map(\.name) }
        return state?.selectors.first(where: { $0.name == name })?.inputs.map(\.name) ?? ["<missing>"]
    }

    private func errors(_ members: String) -> [String] {
        FrontEnd.diagnostics(FrontEnd.state(members))
    }

    // MARK: - The design example

    @Test("the design example checks, with inferred and explicit inputs")
    func designExample() throws {
        let result = FrontEnd.check(ParserTests.designExample)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let state = try #require(result.spec?.states.first)
        #expect(state.computeds.map(\.name) == ["visibleTodos", "visibleCount", "doneCount"])
        let visible = state.computeds[0]
        #expect(visible.inputs == [.field("todos"), .field("filter"), .field("query")])
        #expect(!visible.inputsAreExplicit)
        #expect(state.computeds[1].inputs == [.computed("visibleTodos")])
        #expect(state.computeds[2].inputs == [.field("todos")])
        #expect(state.computeds[2].inputsAreExplicit)
        #expect(state.selectors.map(\.name) == ["todos"])
        #expect(state.selectors[0].inputs == [.field("todos")])
        #expect(state.selectors[0].returnType == "[Todo]")
        let dependents = Dictionary(uniqueKeysWithValues: state.fields.map { ($0.name, $0.dependents) })
        #expect(dependents["todos"] == ["visibleTodos", "visibleCount", "doneCount"])
        #expect(dependents["filter"] == ["visibleTodos", "visibleCount"])
        #expect(dependents["avatar"] == [])
        #expect(state.fields.first { $0.name == "avatar" }?.kind == .edge(arguments: []))
        #expect(state.fields.first { $0.name == "unread" }?.kind == .edge(arguments: state.fields.first { $0.name == "unread" }!.decl.attributes[0].arguments!))
        if case .shared(let strategy) = state.fields.first(where: { $0.name == "session" })?.kind {
            #expect(strategy.text == #".inMemory("session")"#)
        } else {
            Issue.record("session is not shared")
        }
        #expect(state.fields.first { $0.name == "query" }?.kind == .plain)
        #expect(state.fields.first { $0.name == "todos" }?.type == "[Todo]")
    }

    // MARK: - Inference

    @Test("inference reads interpolations but not string text, member accesses, labels or comments")
    func inference() {
        let state = state("""
            var a: Int = 0
            var b: Int = 0
            var c: Int = 0
            var d: Int = 0
            var title: String = ""
            computed x: String { "a and b: \\(c) \\(f(d: title))" + ".a" /* b */ // a
            }
            computed y: Int { other.a + $0.b + f(c: 1) + [1].map(\\.d).count + title.count }
            """)
        #expect(inputs(of: "x", in: state) == ["c", "title"])
        #expect(inputs(of: "y", in: state) == ["title"])
    }

    @Test("inference keeps first-appearance order without repetitions")
    func inferenceOrder() {
        let state = state("var a: Int = 0\nvar b: Int = 0\ncomputed x: Int { b + a + b + a }")
        #expect(inputs(of: "x", in: state) == ["b", "a"])
    }

    @Test("inference: escaped keyword names match, bare keywords do not")
    func inferenceKeywords() {
        let state = state("var `default`: Int = 0\nvar a: Int = 0\ncomputed x: Int { switch a { default: `default` } }")
        #expect(inputs(of: "x", in: state) == ["a", "default"])
    }

    @Test("selector parameters shadow fields during inference")
    func selectorShadowing() {
        let state = state("var owner: Int = 0\nvar todos: [Int] = []\nselector s(by owner: Int) -> [Int] { todos.filter { $0 == owner } }")
        #expect(inputs(of: "s", in: state) == ["todos"])
    }

    @Test("explicit inputs keep their written order")
    func explicitOrder() {
        let state = state("var a: Int = 0\nvar b: Int = 0\ncomputed x: Int from b, a { a + b }")
        #expect(inputs(of: "x", in: state) == ["b", "a"])
        #expect(state?.computeds.first?.inputsAreExplicit == true)
    }

    // MARK: - Ordering

    @Test("computeds come in topological order, ties in source order")
    func topologicalOrder() {
        let state = state("""
            var a: Int = 0
            computed d: Int { c + b }
            computed c: Int { b }
            computed b: Int { a }
            computed e: Int { a }
            """)
        #expect(state?.computeds.map(\.name) == ["b", "c", "d", "e"])
        #expect(state?.fields.first?.dependents == ["b", "c", "d", "e"])
    }

    @Test("dependents are transitive and exclude computeds that do not read the field")
    func dependents() {
        let state = state("""
            var a: Int = 0
            var b: Int = 0
            var c: Int = 0
            computed x: Int { a }
            computed y: Int { x + b }
            computed z: Int { y }
            selector s() -> Int { c }
            """)
        let dependents = state?.fields.map(\.dependents)
        #expect(dependents == [["x", "y", "z"], ["y", "z"], []])
    }

    @Test("a selector may share its base name with a field when it has parameters")
    func selectorOverloads() {
        let state = state("var todos: [Int] = []\nselector todos(ownedBy owner: Int) -> [Int] { todos }\nselector todos(tag: Int) -> [Int] { todos }")
        #expect(state?.selectors.count == 2)
    }

    // MARK: - Checks

    @Test("unknown, duplicate and conflicting attributes")
    func attributes() {
        #expect(errors("@Foo var a: Int = 0") == ["2:1: unknown attribute '@Foo'; only '@Edge' and '@Shared' are supported"])
        #expect(errors("@edge var a: Int = 0") == ["2:1: unknown attribute '@edge' (did you mean '@Edge'?); only '@Edge' and '@Shared' are supported"])
        #expect(errors("@Edge @Edge var a: Int = 0") == ["2:7: duplicate attribute '@Edge' on field 'a'; remove one of them"])
        #expect(errors("@Edge @Shared(.inMemory(\"k\")) var a: Int = 0") == ["2:7: field 'a' cannot be both '@Edge' and '@Shared'; remove one of the two attributes"])
        #expect(errors("@Edge(asert: { _ in }) var a: Int = 0") == ["2:7: unknown '@Edge' argument label 'asert:' (did you mean 'assert:'?); use 'assert:', 'onSet:' or 'middleware:'"])
        #expect(errors("@Edge({ _ in }) var a: Int = 0") == ["2:7: '@Edge' arguments need a label; write 'assert:', 'onSet:' or 'middleware:' before the expression"])
        let shared = "'@Shared' takes exactly one unlabeled argument, the storage strategy, e.g. '@Shared(.inMemory(\"key\"))'"
        #expect(errors("@Shared var a: Int = 0") == ["2:1: \(shared)"])
        #expect(errors("@Shared(key: .inMemory(\"k\")) var a: Int = 0") == ["2:9: \(shared)"])
        #expect(errors("@Shared(.inMemory(\"k\"), .inMemory(\"j\")) var a: Int = 0") == ["2:25: \(shared)"])
    }

    @Test("names: keywords need backticks; generated names are reserved")
    func names() {
        #expect(errors("var default: Int = 0") == ["2:5: 'default' is a Swift keyword; write it in backticks ('`default`') to use it as a name"])
        #expect(errors("var computed: Int = 0") == ["2:5: 'computed' is reserved for the generated 'state.computed' accessor; choose another name"])
        #expect(errors("var `Extended`: Int = 0") == ["2:5: 'Extended' is reserved for the generated type behind 'state.computed'; choose another name"])
        #expect(errors("var _a: Int = 0") == ["2:5: '_a' starts with '_', which is reserved for generated storage; choose a name without the leading '_'"])
        #expect(errors("var a: Int = 0\nselector s(in: Int) -> Int { a }") == ["3:12: 'in' is a Swift keyword; write it in backticks ('`in`') to use it as a name"])
        #expect(errors("var a: Int = 0\nselector s(_ in: Int) -> Int { a }") == ["3:14: 'in' is a Swift keyword; write it in backticks ('`in`') to use it as a name"])
        #expect(errors("var a: Int = 0\nselector s(in `in`: Int) -> Int { a }") == [])
    }

    @Test("duplicates share one namespace, except selectors with parameters")
    func duplicates() {
        #expect(errors("var a: Int = 0\ncomputed a: Int { a }") == [
            "3:10: duplicate name 'a' in state 'S': a field named 'a' is declared at 2:5; rename one of them",
        ])
        #expect(errors("var a: Int = 0\nselector a() -> Int { a }") == [
            "3:10: duplicate name 'a' in state 'S': a field named 'a' is declared at 2:5; rename one of them",
        ])
        #expect(errors("var a: Int = 0\nselector s(x: Int) -> Int { a }\nselector s(x y: Int) -> Int { a }") == [
            "4:10: duplicate name 's(x:)' in state 'S': a selector named 's(x:)' is declared at 3:10; rename one of them",
        ])
        #expect(errors("var a: Int = 0\nselector s(x: Int, x: Int) -> Int { a }") == [
            "3:20: duplicate parameter name 'x' in selector 's'; rename one of them",
        ])
        #expect(FrontEnd.diagnostics("state S {}\nstate S {}") == [
            "2:7: duplicate state name 'S': a state named 'S' is declared at 1:7; rename one of them",
        ])
    }

    @Test("inputs: unknown, repeated, selectors, nothing read, shadowed")
    func inputChecks() {
        #expect(errors("var count: Int = 0\ncomputed x: Int from cuont { cuont }") == [
            "3:22: 'cuont' in 'from' is not a field or computed of state 'S' (did you mean 'count'?)",
        ])
        #expect(errors("var a: Int = 0\ncomputed x: Int from a, a { a }") == ["3:25: 'a' is listed twice in 'from'; remove the repetition"])
        #expect(errors("var a: Int = 0\nselector s() -> Int { a }\ncomputed x: Int from s { s }") == [
            "4:22: 's' in 'from' is a selector; only fields and computeds can be inputs",
        ])
        #expect(errors("computed x: Int { 42 }") == [
            "2:10: computed 'x' reads no field or computed of state 'S'; use one in its body, or name its inputs with 'from', e.g. 'computed x: Type from field { … }'",
        ])
        #expect(errors("var a: Int = 0\nselector s(a: Int) -> Int from a { a }") == [
            "3:12: parameter 'a' of selector 's' shadows the input 'a' listed in 'from'; rename the parameter",
        ])
    }

    @Test("dependency cycles are reported once, at their first member, naming all")
    func cycles() {
        #expect(errors("var z: Int = 0\ncomputed a: Int { b }\ncomputed b: Int { c + z }\ncomputed c: Int { a }") == [
            "3:10: dependency cycle: a → b → c → a; a computed cannot depend on itself, remove one of these inputs",
        ])
        #expect(errors("computed a: Int { a + 1 }") == [
            "2:10: dependency cycle: a → a; a computed cannot depend on itself, remove one of these inputs",
        ])
        #expect(errors("var z: Int = 0\ncomputed a: Int { z }\ncomputed b: Int from c { c }\ncomputed c: Int { b }") == [
            "4:10: dependency cycle: b → c → b; a computed cannot depend on itself, remove one of these inputs",
        ])
    }

    @Test("missing types and cache capacities")
    func typesAndCache() {
        #expect(errors("var a = 0") == ["2:5: field 'a' has no type; write 'var a: Type'"])
        #expect(errors("var a: Int = 0\ncomputed x { a }") == ["3:10: computed 'x' has no type; write 'computed x: Type { … }'"])
        #expect(errors("var a: Int = 0\nselector s() { a }") == ["3:10: selector 's' has no return type; write '-> Type' after its parameters"])
        #expect(errors("var a: Int = 0\nselector s(p) -> Int { a }") == ["3:12: parameter 'p' of selector 's' has no type; write 'p: Type'"])
        #expect(errors("var a: Int = 0\nselector s() -> Int cache 0 { a }") == ["3:27: cache capacity of selector 's' must be at least 1, found 0"])
        #expect(errors("var a: Int = 0\nselector s() -> Int cache -2 { a }") == ["3:27: cache capacity of selector 's' must be at least 1, found -2"])
    }

    @Test("a clean spec has no diagnostics and a checked spec; an error means no spec")
    func specPresence() {
        #expect(FrontEnd.check("state S { var a: Int = 0 }").spec != nil)
        #expect(FrontEnd.check("state S { var a = 0 }").spec == nil)
        #expect(FrontEnd.check("state S { var a: Int = 0 } }").spec == nil)
    }

    @Test("the checker alone reports on a syntax tree")
    func checkerAlone() {
        let parsed = SpecParser.parse(source: "state S { computed x: Int { 1 } }", path: "p")
        let result = SpecChecker.check(parsed.file)
        #expect(result.spec == nil)
        #expect(result.diagnostics.map(\.description) == [
            "p:1:20: error: computed 'x' reads no field or computed of state 'S'; use one in its body, or name its inputs with 'from', e.g. 'computed x: Type from field { … }'",
        ])
    }

    @Test("the fixture specs check cleanly")
    func fixtureSpecs() throws {
        for name in ["Codable", "Counter", "EdgeFields", "Keywords", "Selectors", "Todo"] {
            let url = InvalidCorpusTests.fixtures.appendingPathComponent("Specs/\(name).statespec")
            guard let source = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let result = SpecFrontEnd.run(source: source, path: name)
            #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics.map(\.description))")
        }
    }
}
