import Foundation
import Testing

@testable import ComputedGenCore

/// Generated code compiles whatever else its spec imports.
///
/// Apple's SDKs and popular state libraries declare names that ComputedRuntime declares too
/// (Objective-C's `Selector`, SwiftUI's `Edge`, swift-sharing's `Shared`, TCA's `Store`, …; the
/// list and its sources are in `Tests/Helpers/ClashingNames`). This suite regenerates every spec of
/// the repository with `import ClashingNames` added, as if it imported Foundation and SwiftUI on an
/// Apple platform, and type-checks the result with `swiftc` against the runtime built with these
/// tests. It runs the same on every platform: the stub module stands in for the SDKs.
/// (`DocumentationSnippetTests` compiles the documentation's Swift snippets beside `AppleSDKNames`.)
@Suite("Generated code beside clashing imports", .serialized)
struct ClashingNamesTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A set of specs compiled together, with the hand-written Swift their bodies use.
    struct SpecGroup: CustomTestStringConvertible, Sendable {
        var name: String
        var specs: [String]
        var support: [String]

        var testDescription: String { name }
    }

    static func files(in folder: String, withSuffix suffix: String) -> [String] {
        let root = repository.appendingPathComponent(folder)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(suffix), !relative.hasSuffix(".statespec.swift") {
                found.append(root.appendingPathComponent(relative).path)
            }
        }
        return found.sorted()
    }

    /// Every spec in the repository, grouped with the model code it is built with.
    static let groups: [SpecGroup] = [
        SpecGroup(
            name: "Fixtures/Specs",
            specs: files(in: "Fixtures/Specs", withSuffix: ".statespec"),
            support: files(in: "Fixtures/Support", withSuffix: ".swift")
        ),
        SpecGroup(
            name: "Examples/TodoList",
            specs: files(in: "Examples/TodoList/Sources/TodoList", withSuffix: ".statespec"),
            support: [repository.appendingPathComponent("Examples/TodoList/Sources/TodoList/Todo.swift").path]
        ),
        SpecGroup(
            name: "Tests/PluginEndToEndTests",
            specs: files(in: "Tests/PluginEndToEndTests", withSuffix: ".statespec"),
            support: [repository.appendingPathComponent("Tests/PluginEndToEndTests/Model.swift").path]
        ),
    ]

    @Test("every group has specs and its support files exist", arguments: groups)
    func groupsAreComplete(_ group: SpecGroup) {
        #expect(!group.specs.isEmpty)
        for file in group.support {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) is missing")
        }
    }

    /// The stub really clashes: unqualified names that resolve alone are ambiguous or wrong beside
    /// it. Without this, a stub that declared nothing would let every other test here pass.
    @Test("the stub module clashes with unqualified runtime names")
    func stubClashes() throws {
        let directory = try TemporaryDirectory()
        let cases = [
            "let edge: Edge<Int>? = nil",
            "let selector: StateSelector<Int, Int>? = nil",
            "let memo: Memo<Int>? = nil",
            "let shared: Shared<Int>? = nil",
            "let store: Store<Int>? = nil",
        ]
        for (index, line) in cases.enumerated() {
            let file = try directory.write(
                "import ComputedRuntime\nimport ClashingNames\n\(line)\n",
                to: "case\(index).swift"
            )
            let result = try BuildProducts.typecheck([file], moduleName: "ClashCheck")
            #expect(result.status != 0, "\(line) compiled beside ClashingNames: the stub no longer clashes")
        }
    }

    @Test("the code generated from every spec compiles beside ClashingNames", arguments: groups)
    func generatedCodeCompiles(_ group: SpecGroup) throws {
        let directory = try TemporaryDirectory()
        var files = group.support
        for spec in group.specs {
            let source = try String(contentsOfFile: spec, encoding: .utf8)
            // First, so that the stub is in scope exactly as an SDK import would be.
            let output = Generator.generate(source: "import ClashingNames\n" + source, path: spec)
            let swift = try #require(output.swift, "\(spec): \(output.diagnostics.map(\.description))")
            #expect(swift.contains("import ClashingNames"))
            let name = spec.replacingOccurrences(of: "/", with: "_") + ".swift"
            files.append(try directory.write(swift, to: name))
        }
        let result = try BuildProducts.typecheck(files, moduleName: "ClashCheck")
        #expect(result.status == 0, "generated code does not compile beside ClashingNames:\n\(result.standardError)")
    }
}
