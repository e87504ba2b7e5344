import Foundation
import Testing

extension ExamplesTests {
    /// Two specs with the same file name in different folders of one target, `Inbox/Folder.statespec`
    /// and `Archive/Folder.statespec`, added to a built copy of Examples/TodoList (an incremental
    /// build): the plugin gives their outputs different names (Swift rejects two sources of one name
    /// in a module, "filename 'Folder.statespec.swift' used twice"), both compile, and both work.
    ///
    /// Swift derives `#fileID` from a file's name alone, so the `#sourceLocation` directives of the
    /// two generated files produce the same `#fileID`, and Swift warns at each directive of one of
    /// them ("'#sourceLocation' directive produces '#fileID' string … which conflicts …"). No
    /// directive path can avoid that and still name the spec, so Docs/Plugin.md tells users to give
    /// such specs distinct names; this build checks that those are its only warnings. (The specs are
    /// built here, in a child build, rather than by the plugin in a test target, where the warnings
    /// would flood the output of `swift test`.)
    func expectSameNamedSpecsBuild(package: URL) async throws {
        let sources = package.appendingPathComponent("Sources/TodoList")
        for folder in ["Inbox", "Archive"] {
            try write(sources.appendingPathComponent("\(folder)/Folder.statespec"), """
                // Same file name as the other folder's spec.
                state \(folder)Folder {
                  var messages: [String] = []
                  computed count: Int { messages.count }
                }

                """)
        }
        let main = sources.appendingPathComponent("main.swift")
        let program = try String(contentsOf: main, encoding: .utf8)
        try Data((program + #"print("folders \(InboxFolder(messages: ["a", "b"]).computed.count) \(ArchiveFolder(messages: ["c"]).computed.count)")"# + "\n").utf8).write(to: main)

        let build = try await swift(["build", "--package-path", package.path])
        try build.expectSuccess()
        for name in ["Inbox_Folder", "Archive_Folder"] {
            #expect(build.lines.contains { $0.hasSuffix("Generating \(name).statespec.swift from Folder.statespec") }, "\(build)")
        }
        let warnings = build.lines.filter { $0.contains("warning:") && $0.contains(package.path) }
        #expect(warnings.allSatisfy { $0.contains("'#sourceLocation' directive produces '#fileID' string of 'TodoList/Folder.statespec'") }, "\(build)")

        let binPath = try await swift(["build", "--package-path", package.path, "--show-bin-path"])
        try binPath.expectSuccess()
        let executable = URL(fileURLWithPath: binPath.output.trimmingCharacters(in: .whitespacesAndNewlines)).appendingPathComponent("TodoList")
        let run = try await Subprocess.run(executable, [], in: package)
        try run.expectSuccess()
        #expect(run.output.hasSuffix("folders 2 1\n"), "\(run)")
    }
}
