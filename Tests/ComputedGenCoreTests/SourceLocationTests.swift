import Foundation
import Testing

@testable import ComputedGenCore

/// End to end through the Swift compiler: generated files are type-checked with `swiftc` against
/// the `ComputedRuntime` module built alongside these tests.
@Suite("Generated Swift through swiftc", .serialized)
struct SourceLocationTests {
    /// Type-checks `files` against the runtime; returns swiftc's exit status and diagnostics.
    private func typecheck(_ files: [String]) throws -> BuildProducts.Run {
        try BuildProducts.typecheck(files, moduleName: "GeneratedCheck")
    }

    /// Generates `source` as the spec at `specPath` into `directory`, returning the Swift file's path.
    private func generate(_ source: String, specPath: String, in directory: TemporaryDirectory) throws -> String {
        try Data(source.utf8).write(to: URL(fileURLWithPath: specPath))
        let swiftPath = specPath + ".swift"
        let result = Command().run(["generate", specPath, "--output", swiftPath])
        #expect(result.status == 0, "\(result.standardError)")
        return swiftPath
    }

    /// The 1-based UTF-8 column of `needle` in line `line` of `source`.
    private func position(of needle: String, onLine line: Int, in source: String) throws -> String {
        let text = source.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        let range = try #require(text.range(of: needle), "\(needle) is not on line \(line)")
        return "\(line):\(text.utf8.distance(from: text.startIndex, to: range.lowerBound) + 1)"
    }

    @Test("a compile error inside a body is reported at the spec's line and column")
    func errorsPointIntoTheSpec() throws {
        let directory = try TemporaryDirectory()
        let source = """
            import Foundation

            /// Bodies with type errors, on one line and on several.
            state Broken {
              var todos: [Int] = []
              var title: String = "x"

              computed single: Int { todos.count + "a" }
              computed multi: Int {
                let count = todos.count

                return count + title
              }
              selector pick(_ index: Int) -> String { todos[index] + undefinedName }
              computed after: Int {      todos.count + "none" }
            }

            """
        let spec = directory.path("Broken.statespec")
        let swiftFile = try generate(source, specPath: spec, in: directory)
        let result = try typecheck([swiftFile])
        #expect(result.status != 0)
        let errors = result.standardError.split(separator: "\n").filter { $0.contains(": error: ") && !$0.hasPrefix(" ") }.map(String.init)
        let expected = [
            try position(of: "\"a\"", onLine: 8, in: source),
            try position(of: "title", onLine: 12, in: source),
            try position(of: "undefinedName", onLine: 14, in: source),
            try position(of: "\"none\"", onLine: 15, in: source),
        ]
        for location in expected {
            #expect(errors.contains { $0.hasPrefix("\(spec):\(location): error: ") }, "no error at \(location) in:\n\(result.standardError)")
        }
        // Every error points into the spec, none into the generated file.
        #expect(!errors.isEmpty)
        for error in errors {
            #expect(error.hasPrefix(spec + ":"), "\(error)")
        }
    }

    @Test("a spec using keywords and every selector shape generates Swift that type-checks")
    func exoticSpecsCompile() throws {
        let directory = try TemporaryDirectory()
        let keywords = """
            import Foundation
            import ComputedRuntime

            public state `Self`: Hashable, Codable {
              var `var`: Int = 1
              var `let`: Int = 2
              var `inout`: Int = 3
              var `self`: Int = 4
              @Edge var `true`: Int = 6
              @Edge(assert: { $0 >= 0 }) var `is`: Int = 7
              var `func`: Int = 8
              var unused: String = ""

              computed `static`: Int { `var` + `let` + `inout` }
              computed `init`: Int { `self` + `true` + `is` }
              computed `protocol`: Int { `static` + `init` }
              selector `subscript`(`for` `in`: Int, `_` x: Int) -> Int { `protocol` + `in` + x }
              selector `deinit`(`let`: Int, `var` y: Int) -> Int cache 3 { `func` + `let` + y }
              selector `if`(_ `where`: Int) -> Int { `func` + `where` }
              selector labels(inout a: Int, var b: Int, let c: Int) -> Int { `func` + a + b + c }
            }

            """
        let selectors = """
            package state Shapes: Equatable {
              var v: Int = 0
              selector f(a_b: Int) -> Int { v + a_b }
              selector f(a: Int, b: Int) -> Int { v + a + b }
              selector f_x() -> Int { v }
              selector f(x: Int) -> Int { v + x }
              selector g(_ a: Int) -> Int { v + a }
              selector g(_ a: Int, _ b: Int) -> Int { a + b }
              selector constant() -> Int { 42 }
              selector twice(_ x: Int) -> Int { x * 2 }
            }

            """
        let files = [
            try generate(keywords, specPath: directory.path("Keywords.statespec"), in: directory),
            try generate(selectors, specPath: directory.path("Shapes.statespec"), in: directory),
        ]
        let result = try typecheck(files)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("warning:"), "\(result.standardError)")
    }
}
