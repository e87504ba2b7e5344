import Foundation
import Testing

@testable import ComputedGenCore

/// Mistakes in the user's own Swift code around generated states get messages that name the fix,
/// and never the compiler's "failed to produce diagnostic".
@Suite("Mistakes in user code", .serialized)
struct UserMistakeTests {
    /// Type-checks `userCode` against the code generated from `Fixtures/Specs/Todo.statespec` (a
    /// state with `@Edge` fields, so with dynamic member lookup).
    func typecheck(_ userCode: String) throws -> BuildProducts.Run {
        let root = ClashingNamesTests.repository
        let spec = root.appendingPathComponent("Fixtures/Specs/Todo.statespec").path
        let output = Generator.generate(source: try String(contentsOfFile: spec, encoding: .utf8), path: spec)
        let directory = try TemporaryDirectory()
        let files = [
            try directory.write(try #require(output.swift), to: "Todo.statespec.swift"),
            try directory.write("import ComputedRuntime\n\n" + userCode, to: "User.swift"),
            root.appendingPathComponent("Fixtures/Support/TodoModel.swift").path,
        ]
        return try BuildProducts.typecheck(files, moduleName: "App")
    }

    /// A mistake, the message it gets, and where: the column of `at` in `code` (the first line of
    /// the user's file is `import ComputedRuntime`, then a blank line, so `code` is line 3).
    struct Mistake: CustomTestStringConvertible, Sendable {
        var code: String
        var message: String
        var at: String

        var testDescription: String { code }

        /// Reading, chaining or assigning the computed value `name` as a field, in `code`: the
        /// message of its misread guard, at the name.
        static func misread(_ name: String, in code: String) -> Mistake {
            Mistake(code: code, message: UserMistakeTests.misread(name), at: name)
        }

        var column: Int {
            code.range(of: at).map { code.distance(from: code.startIndex, to: $0.lowerBound) + 1 } ?? 0
        }
    }

    /// Reading, chaining or assigning the computed value `name` as a field, in `code`: the message
    /// of its misread guard, at the name.

    /// The message of the misread guard of the computed value `name`.
    static func misread(_ name: String) -> String {
        "'\(name)' is unavailable: '\(name)' is a computed value: read it as 'state.computed.\(name)' or 'store.computed.\(name)' (computed values are read-only)"
    }

    static let noSuchMember = "'subscript(dynamicMember:)' is unavailable: TodoState has no member of this name: fields are 'state.field', computed values 'state.computed.value', the Edge or Shared of a field 'state.$field'"

    /// Type-checks `mistake.code` and expects exactly one error, `mistake.message` at its line and
    /// column in the user's file: none in the generated file, no "failed to produce diagnostic".
    func expectOneError(_ mistake: Mistake) throws {
        let result = try typecheck(mistake.code)
        #expect(result.status != 0)
        let errors = result.standardError.split(separator: "\n").filter { $0.contains(": error: ") && !$0.contains("`-") }
        #expect(errors.count == 1, "\(result.standardError)")
        #expect(
            errors.first?.hasSuffix("User.swift:3:\(mistake.column): error: \(mistake.message)") == true,
            "\(result.standardError)"
        )
        #expect(!result.standardError.contains("failed to produce diagnostic"), "\(result.standardError)")
    }

    @Test("a computed value used as a field names the fix: bare, chained, assigned; on states and stores", arguments: [
        .misread("visibleCount", in: "func f(state: TodoState) -> Int { state.visibleCount }"),
        .misread("visibleTodos", in: "func f(state: TodoState) -> Int { state.visibleTodos.count }"),
        .misread("visibleTodos", in: "func f(state: TodoState) -> [String] { state.visibleTodos.map(\\.title) }"),
        .misread("visibleTodos", in: "func f(state: TodoState) { for todo in state.visibleTodos { print(todo) } }"),
        .misread("visibleCount", in: "func f(state: TodoState) { var copy = state; copy.visibleCount = 3; _ = copy }"),
        .misread("visibleCount", in: "func f(state: inout TodoState) { state.visibleCount += 1 }"),
        .misread("visibleCount", in: "func f(store: Store<TodoState>) -> Int { store.state.visibleCount }"),
        .misread("visibleTodos", in: "func f(store: Store<TodoState>) -> Int { store.state.visibleTodos.count }"),
        .misread("visibleCount", in: "func f(store: Store<TodoState>) -> Int { store.visibleCount }"),
        .misread("visibleTodos", in: "func f(store: Store<TodoState>) -> Int { store.visibleTodos.count }"),
        .misread("visibleTodos", in: "func f(store: Store<TodoState>) { for todo in store.visibleTodos { print(todo) } }"),
        .misread("visibleCount", in: "func f(store: Store<TodoState>) { store.visibleCount = 3 }"),
        Mistake(
            code: "func f(store: Store<TodoState>) -> [String] { let scoped = store.scope(\\.self); return scoped.visibleTodos.map(\\.title) }",
            message: misread("visibleTodos"), at: "visibleTodos"
        ),
    ])
    func computedUsedAsField(_ mistake: Mistake) throws {
        try expectOneError(mistake)
    }

    @Test("a misspelled member of a state with @Edge fields says where members are: reads and writes, let and var", arguments: [
        Mistake(code: "func f(state: TodoState) -> Int { state.visibelCount }", message: noSuchMember, at: "state.visibelCount"),
        Mistake(code: "func f(state: TodoState) { _ = state.visibelCount }", message: noSuchMember, at: "state.visibelCount"),
        Mistake(code: "func f(state: TodoState) -> Int { state.todoz.count }", message: noSuchMember, at: "state.todoz"),
        Mistake(code: "func f(state: TodoState) -> [String] { state.todoz.map(\\.title) }", message: noSuchMember, at: "state.todoz"),
        Mistake(code: "func f(state: TodoState) { for todo in state.todoz { print(todo) } }", message: noSuchMember, at: "state.todoz"),
        Mistake(code: "func f(state: TodoState) { var copy = state; copy.qurey = \"x\"; _ = copy }", message: noSuchMember, at: "copy.qurey"),
        Mistake(code: "func f(state: inout TodoState) { state.qurey = \"x\" }", message: noSuchMember, at: "state.qurey"),
        Mistake(code: "func f(store: Store<TodoState>) -> Int { store.state.todoz.count }", message: noSuchMember, at: "store.state.todoz"),
        // Swift's own, and right: a `let` cannot be assigned whatever the name.
        Mistake(
            code: "func f(state: TodoState) { state.qurey = \"x\" }",
            message: "cannot assign through dynamic lookup property: 'state' is a 'let' constant", at: "qurey"
        ),
    ])
    func misspelledMemberOfState(_ mistake: Mistake) throws {
        try expectOneError(mistake)
    }

    /// Through a store, the state's message, but with no source location: Swift 6.3 gives none to
    /// an unavailable subscript used by an implicit key-path component. (A catch-all subscript on
    /// `Store` made every store member expression slower to type-check; a name parameter that is
    /// not `Hashable` gave an error at the name, but also one in the generated file when a field
    /// type is misspelled in the spec.) The location is not asserted, so that a Swift that
    /// gives one passes.
    @Test("a misspelled member through a store gets the state's message, and no other error", arguments: [
        "func f(store: Store<TodoState>) -> Int { store.todoz.count }",
        "func f(store: Store<TodoState>) { _ = store.todoz }",
        "func f(store: Store<TodoState>) { store.qurey = \"x\" }",
    ])
    func misspelledMemberOfStore(_ code: String) throws {
        let result = try typecheck(code)
        #expect(result.status != 0)
        let errors = result.standardError.split(separator: "\n").filter { $0.contains(": error: ") && !$0.contains("`-") }
        #expect(errors.count == 1, "\(result.standardError)")
        #expect(errors.first?.hasSuffix(Self.noSuchMember) == true, "\(result.standardError)")
        #expect(!result.standardError.contains("failed to produce diagnostic"), "\(result.standardError)")
    }

    @Test("a mistake after a member that exists is not explained away as a missing member", arguments: [
        Mistake(
            code: "func f(state: TodoState) { let n: Int = state.$unread; _ = n }",
            message: "cannot convert value of type 'Edge<Int>' to specified type 'Int'",
            at: "$unread"
        ),
        Mistake(
            code: "func f(state: TodoState) -> Int { state.$unread.valeu }",
            message: "value of type 'Edge<Int>' has no member 'valeu'", at: "valeu"
        ),
    ])
    func mistakeAfterExistingMember(_ mistake: Mistake) throws {
        try expectOneError(mistake)
    }

    @Test("assigning a computed value through `store.computed` says it is get-only, at its name")
    func assignComputedThroughStore() throws {
        let code = "func f(store: Store<TodoState>) { store.computed.visibleCount = 3 }"
        try expectOneError(Mistake(code: code, message: "cannot assign to property: 'visibleCount' is a get-only property", at: "visibleCount"))
    }

    @Test("a store's fields, scopes and key paths are writable; its computed key paths are not")
    func writesThroughStore() throws {
        let result = try typecheck("""
            func f(store: Store<TodoState>) {
                store.query = "milk"
                store.filter = .done
                store.badge = 250
                store.todos = [Todo(title: "tea")]
                store.scope(\\.todos[0]).done = true
                let _: ReferenceWritableKeyPath<Store<TodoState>, String> = \\.query
                let _: ReferenceWritableKeyPath<Store<TodoState>, Bool> = \\.todos[0].done
                let _: ReferenceWritableKeyPath<Store<Todo>, Bool> = \\.done
                let visible: KeyPath<Store<TodoState>, Int> = \\.computed.visibleCount
            }
            """)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("the right spellings compile")
    func rightSpellings() throws {
        let result = try typecheck("""
            func f(state: TodoState, store: Store<TodoState>) -> Int {
                state.computed.visibleCount + store.state.computed.visibleCount + store.computed.visibleCount
                    + Int(state.$unread.version.rawValue % 2)
            }
            """)
        #expect(result.status == 0, "\(result.standardError)")
    }
}
