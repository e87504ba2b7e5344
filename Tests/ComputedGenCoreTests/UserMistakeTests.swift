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

    @Test("reading a computed value without .computed names the fix", arguments: [
        "func f(state: TodoState) -> Int { state.visibleCount }",
        "func f(store: Store<TodoState>) -> Int { store.state.visibleCount }",
    ])
    func computedWithoutComputed(_ code: String) throws {
        let result = try typecheck(code)
        #expect(result.status != 0)
        #expect(result.standardError.contains("'visibleCount' is a computed value: read it as 'state.computed.visibleCount'"), "\(result.standardError)")
        #expect(!result.standardError.contains("failed to produce diagnostic"), "\(result.standardError)")
    }

    @Test("a misspelled member of a state with @Edge fields gets a real diagnostic", arguments: [
        "func f(state: TodoState) -> Int { state.visibelCount }",
        "func f(state: TodoState) { _ = state.visibelCount }",
    ])
    func misspelledMember(_ code: String) throws {
        let result = try typecheck(code)
        #expect(result.status != 0)
        #expect(result.standardError.contains("User.swift:3:"), "\(result.standardError)")
        #expect(result.standardError.contains("TodoState has no member of this name"), "\(result.standardError)")
        #expect(!result.standardError.contains("failed to produce diagnostic"), "\(result.standardError)")
    }

    @Test("assigning a computed value through a store says it is get-only, at its name", arguments: [
        ("func f(store: Store<TodoState>) { store.computed.visibleCount = 3 }", 50),
        ("func f(store: Store<TodoState>) { store.visibleCount = 3 }", 41),
    ])
    func assignComputedThroughStore(_ code: String, column: Int) throws {
        let result = try typecheck(code)
        #expect(result.status != 0)
        #expect(
            result.standardError.contains("User.swift:3:\(column): error: cannot assign to property: 'visibleCount' is a get-only property"),
            "\(result.standardError)"
        )
        #expect(!result.standardError.contains("failed to produce diagnostic"), "\(result.standardError)")
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
