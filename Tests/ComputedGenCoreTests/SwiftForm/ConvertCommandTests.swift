import Foundation
import Testing

@testable import ComputedGenCore

/// `ComputedGenTool convert`, run in-process against temporary directories: it writes the other
/// form beside the spec, never overwrites a file, and reports a spec's errors instead of converting.
@Suite("Command line: convert")
struct ConvertCommandTests {
    static let spec = """
        /// A counter.
        state Counter {
          var count: Int = 0
          // Twice the count.
          computed doubled: Int from count { count * 2 }
          selector plus(_ n: Int) -> Int cache 4 { count + n }
        }

        """

    @Test("a .statespec becomes a .state.swift beside it, and back; the original stays")
    func besideTheSpec() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.spec, to: "Counter.statespec")
        let result = Command().run(["convert", path])
        #expect(result.status == 0, "\(result.standardError)")
        let converted = try #require(directory.read(directory.path("Counter.state.swift")))
        #expect(converted.contains("struct CounterSpec {"))
        #expect(converted.contains("// computedgen: from count\n  var doubled: Int { count * 2 }"))
        #expect(converted.contains("// computedgen: cache 4\n  func plus(_ n: Int) -> Int { count + n }"))
        #expect(result.standardOutput == "wrote \(directory.path("Counter.state.swift")); remove \(path) from the target once it builds\n")
        #expect(directory.read(path) == Self.spec)

        // Back again, to standard output: the spec as it was written.
        let back = Command().run(["convert", directory.path("Counter.state.swift"), "--output", "-"])
        #expect(back.status == 0, "\(back.standardError)")
        #expect(back.standardOutput == Self.spec)
    }

    @Test("an existing file is never overwritten")
    func neverOverwrites() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.spec, to: "Counter.statespec")
        let existing = try directory.write("// mine\n", to: "Counter.state.swift")
        let result = Command().run(["convert", path])
        #expect(result.status == 1)
        #expect(result.standardError == "error: '\(existing)' exists; remove it, or give --output <file>\n")
        #expect(directory.read(existing) == "// mine\n")
    }

    @Test("a spec with errors is reported at its line and column, and nothing is written")
    func errorsStop() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("state Broken {\n  computed twice: Int from cuont { 2 }\n}\n", to: "Broken.statespec")
        let result = Command().run(["convert", path])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("\(path):2:"), "\(result.standardError)")
        #expect(result.standardError.contains("error: "))
        #expect(!FileManager.default.fileExists(atPath: directory.path("Broken.state.swift")))
    }

    @Test("--output takes one spec")
    func outputTakesOneSpec() throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write(Self.spec, to: "A.statespec")
        let second = try directory.write(Self.spec, to: "B.statespec")
        let result = Command().run(["convert", first, second, "--output", "-"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("error: --output takes one spec"))
    }
}
