import Foundation
import Testing

extension ExamplesTests {
    @Test("Examples/TodoListSwiftForm: the spec in plain Swift builds and runs as the .statespec does; each mistake is reported once, where it was written")
    func todoListSwiftForm() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let checkout = try sandbox.copyRepository()
        let package = checkout.appendingPathComponent("Examples/TodoListSwiftForm")
        let spec = package.appendingPathComponent("Sources/TodoSpecs/Todo.state.swift")
        let specLocation = "/Examples/TodoListSwiftForm/Sources/TodoSpecs/Todo.state.swift"

        // A cold build: TodoSpecs compiles the spec as plain Swift, and the plugin, applied to
        // TodoList, generates TodoState from it. The same program as Examples/TodoList prints
        // the same table: the same state.
        let run = try await buildAndRun(package, in: checkout, generating: "TodoSpecs_Todo.state.generated.swift from Todo.state.swift")
        let expected = Self.expectedTodoListOutput.replacingOccurrences(
            of: "TodoState is generated from Todo.statespec", with: "TodoState is generated from TodoSpecs/Todo.state.swift"
        )
        #expect(run.output == expected, "\(run)")

        // The generated state, in TodoList, spells TodoSpecs' package types as the spec does: the
        // plugin indexes the targets TodoList depends on too.
        let generated = try #require(sandbox.find("TodoSpecs_Todo.state.generated.swift", under: package.appendingPathComponent(".build/plugins/outputs")))
        let generatedText = try String(contentsOf: generated, encoding: .utf8)
        #expect(generatedText.contains("  var todos: [Todo] {"), "the generated state does not spell [Todo]")

        // A Swift error in a body: reported by the compiler of TodoSpecs at the line and column
        // where it was written, once (the generated copy is never compiled: TodoList waits for
        // TodoSpecs).
        let original = try String(contentsOf: spec, encoding: .utf8)
        let misspelled = original.replacingOccurrences(of: "$0.title.contains(query)", with: "$0.titl.contains(query)")
        try Data(misspelled.utf8).write(to: spec)
        let bodyLine = try #require(misspelled.components(separatedBy: "\n").firstIndex { $0.contains("$0.titl.") })
        let bodyText = misspelled.components(separatedBy: "\n")[bodyLine]
        let bodyColumn = try #require(bodyText.range(of: "titl")).lowerBound.utf16Offset(in: bodyText) + 1
        let swiftError = try await swift(["build", "--package-path", package.path])
        #expect(swiftError.status != 0, "\(swiftError)")
        let swiftErrorLocation = "\(specLocation):\(bodyLine + 1):\(bodyColumn): error: "
        let reported = swiftError.lines.filter { $0.contains(swiftErrorLocation) && $0.contains("titl") }
        #expect(reported.count == 1, "expected one error at …\(swiftErrorLocation)\n\(swiftError)")
        #expect(!swiftError.output.contains(".generated.swift"), "the generated copy reported it too\n\(swiftError)")

        // A mistake only the generator sees: a `from` that leaves out an input the body reads
        // compiles as plain Swift, and the plugin reports it at the spec's line and column.
        let omitted = original.replacingOccurrences(
            of: "var doneCount: Int { todos.count(where: \\.done) }", with: "var doneCount: Int { todos.count(where: \\.done) + query.count }"
        )
        #expect(omitted != original)
        try Data(omitted.utf8).write(to: spec)
        let fromError = try await swift(["build", "--package-path", package.path])
        #expect(fromError.status != 0, "\(fromError)")
        let omittedLine = try #require(omitted.components(separatedBy: "\n").firstIndex { $0.contains("+ query.count") })
        let fromLocation = "\(specLocation):\(omittedLine + 1):"
        let fromReports = fromError.lines.filter { $0.contains(fromLocation) && $0.contains("error:") && $0.contains("query") }
        #expect(fromReports.count == 1, "expected one error about 'query' at …\(fromLocation)\n\(fromError)")
    }
}
