import Foundation
import Testing

/// Builds the examples the way users do: `swift build` and `swift package` on a copy of this
/// repository, with the ComputedGen plugins resolved from it by path.
///
/// Each test copies the repository (tracked and untracked-but-not-ignored files, without `.build*`
/// and `.git`) into a fresh temporary folder named `checkout`, so nothing depends on this clone's
/// folder name, its build folders, or files another process is editing.
///
/// Each test builds the whole package again from nothing (minutes on two cores), so the suite is
/// one of the deep runs: `swift test` leaves it out, CI runs it by name with
/// `COMPUTEDGEN_DEEP_TESTS=1` (see `.ci/run`). The plugin itself is exercised in every
/// `swift test` by PluginEndToEndTests, whose specs it generates. Set
/// `COMPUTEDGEN_KEEP_EXAMPLES=1` to keep the temporary folders for inspection.
@Suite(
    "Examples built through the plugins",
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["COMPUTEDGEN_DEEP_TESTS"] == "1", "a deep run: COMPUTEDGEN_DEEP_TESTS=1"),
    .timeLimit(.minutes(20))
)
struct ExamplesTests {
    @Test("Examples/TodoList: builds, runs, rebuilds incrementally, and reports spec errors at the spec")
    func todoList() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let checkout = try sandbox.copyRepository()
        let package = checkout.appendingPathComponent("Examples/TodoList")
        let spec = package.appendingPathComponent("Sources/TodoList/Todo.statespec")

        // The program's output: what the README's first command (`swift run --package-path
        // Examples/TodoList`) prints.
        let run = try await buildAndRun(package, in: checkout, generating: "Todo.statespec.swift from Todo.statespec")
        #expect(run.output == Self.expectedTodoListOutput, "\(run)")

        // The first rebuild after a cold build is not quite a no-op, because of SwiftPM (seen with
        // 6.3.1): it links a plugin's tool in two build databases (plugin-tools.db, then build.db)
        // into the same file, and on the first rebuild relinks ComputedGenTool-tool once more in
        // each, which reruns the generator (the tool is an input of its commands). The generator
        // leaves its unchanged output alone, so nothing of the example is recompiled or relinked.
        let settle = try await swift(["build", "--package-path", package.path])
        try settle.expectSuccess()
        let exampleWork = settle.buildSteps.filter { $0.contains("TodoList") }
        #expect(exampleWork.isEmpty, "the first rebuild recompiled the example:\n\(exampleWork.joined(separator: "\n"))\n\(settle)")

        // From then on a no-op rebuild runs no build command: nothing generated, compiled or linked.
        let noOp = try await swift(["build", "--package-path", package.path])
        try noOp.expectSuccess()
        #expect(noOp.buildSteps.isEmpty, "a no-op rebuild did work:\n\(noOp.buildSteps.joined(separator: "\n"))\n\(noOp)")

        // Editing a comment (same line count) reruns the generator, which leaves its output alone,
        // so nothing is recompiled.
        let generated = try #require(sandbox.find("Todo.statespec.swift", under: package.appendingPathComponent(".build/plugins/outputs")))
        let generatedDate = try modificationDate(generated)
        try edit(spec) { $0.replacingOccurrences(of: "// The state of the todo list.", with: "// The todo list's state.") }
        let commentEdit = try await swift(["build", "--package-path", package.path])
        try commentEdit.expectSuccess()
        #expect(commentEdit.buildSteps.contains { $0.contains("Generating Todo.statespec.swift") }, "\(commentEdit)")
        #expect(try modificationDate(generated) == generatedDate, "the generator rewrote an unchanged file")
        let recompiled = commentEdit.buildSteps.filter { !$0.contains("Generating ") }
        #expect(recompiled.isEmpty, "an unchanged generated file was recompiled:\n\(recompiled.joined(separator: "\n"))\n\(commentEdit)")

        // The generated interface spells the app's own types as the spec does (the plugin indexes
        // the target's Swift), and an edit inside the app's Swift that declares no type reruns the
        // index alone: it stays the same, so nothing is generated again.
        let generatedText = try String(contentsOf: generated, encoding: .utf8)
        #expect(generatedText.contains("  var todos: [Todo] {"), "the generated state does not spell [Todo]")
        #expect(generatedText.contains("  var filter: Filter {"), "the generated state does not spell Filter")
        let model = package.appendingPathComponent("Sources/TodoList/Todo.swift")
        try edit(model) { $0.replacingOccurrences(of: "case .all: true", with: "case .all: !todo.title.isEmpty || true") }
        let modelEdit = try await swift(["build", "--package-path", package.path])
        try modelEdit.expectSuccess()
        #expect(modelEdit.lines.contains { $0.contains("Indexing the types of the target's Swift") }, "\(modelEdit)")
        #expect(!modelEdit.buildSteps.contains { $0.contains("Generating ") }, "an unchanged index regenerated:\n\(modelEdit)")
        try edit(model) { $0.replacingOccurrences(of: "case .all: !todo.title.isEmpty || true", with: "case .all: true") }

        // A misspelled type is reported once, at the spec (the index does not vouch for it, so the
        // interface keeps its alias, where Swift reports it). SwiftPM prints each error of the
        // module once per compiler job (emitting the module, compiling it): one distinct line.
        try edit(spec) { $0.replacingOccurrences(of: "  var todos: [Todo] = []", with: "  var todos: [Todoo] = []") }
        let misspelled = try await swift(["build", "--package-path", package.path])
        #expect(misspelled.status != 0, "\(misspelled)")
        let typeErrors = misspelled.lines.filter { $0.hasPrefix("/") && $0.contains(": error: ") && $0.contains("'Todoo'") }
        #expect(Set(typeErrors).count == 1, "expected one error about 'Todoo':\n\(misspelled)")
        #expect(typeErrors.allSatisfy { $0.contains("/Examples/TodoList/Sources/TodoList/Todo.statespec:7:15: error: ") }, "\(misspelled)")
        try edit(spec) { $0.replacingOccurrences(of: "  var todos: [Todoo] = []", with: "  var todos: [Todo] = []") }

        // A spec error fails the build with the spec's path, line and column.
        try edit(spec) { $0.replacingOccurrences(of: "  @Edge(onSet:", with: "  @Edg(onSet:") }
        let broken = try await swift(["build", "--package-path", package.path])
        #expect(broken.status != 0, "\(broken)")
        let attributeError = "/Examples/TodoList/Sources/TodoList/Todo.statespec:10:3: error: unknown attribute '@Edg' (did you mean '@Edge'?); only '@Edge' and '@Shared' are supported"
        #expect(broken.lines.contains { $0.hasPrefix("/") && $0.hasSuffix(attributeError) }, "expected a line ending in\n\(attributeError)\n\(broken)")

        // A body that reads a field it did not declare does not compile, and the Swift error points
        // at the spec (bodies are wrapped in #sourceLocation).
        try edit(spec) { $0.replacingOccurrences(of: "  @Edg(onSet:", with: "  @Edge(onSet:") }
        let doneCountLine = "  computed doneCount: Int from todos { todos.count(where: \\.done) + query.count }"
        try edit(spec) { $0.replacingOccurrences(of: "{ todos.count(where: \\.done) }", with: "{ todos.count(where: \\.done) + query.count }") }
        #expect(try String(contentsOf: spec, encoding: .utf8).components(separatedBy: "\n")[16] == doneCountLine)
        let undeclared = try await swift(["build", "--package-path", package.path])
        #expect(undeclared.status != 0, "\(undeclared)")
        let column = try #require(doneCountLine.range(of: "query")).lowerBound.utf16Offset(in: doneCountLine) + 1
        let location = "/Examples/TodoList/Sources/TodoList/Todo.statespec:17:\(column): error: "
        #expect(
            undeclared.lines.contains { $0.hasPrefix("/") && $0.contains(location) && $0.contains("'query'") },
            "expected an error about 'query' at …\(location)\n\(undeclared)"
        )

        try edit(spec) { $0.replacingOccurrences(of: " + query.count }", with: " }") }
        try await expectSameNamedSpecsBuild(package: package)
    }

    @Test("generate-state-code writes GeneratedSources/ in a package without the build plugin, which then builds")
    func commandPlugin() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let checkout = try sandbox.copyRepository()
        let package = sandbox.root.appendingPathComponent("CommandFixture")
        let sources = package.appendingPathComponent("Sources/Counter")
        // As Docs/Plugin.md says: no build plugin, and the specs excluded so SwiftPM does not warn.
        try write(package.appendingPathComponent("Package.swift"), """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "CommandFixture",
                platforms: [.macOS(.v14)],
                dependencies: [.package(name: "ComputedGen", path: \(String(reflecting: checkout.path)))],
                targets: [
                    .executableTarget(
                        name: "Counter",
                        dependencies: [.product(name: "ComputedRuntime", package: "ComputedGen")],
                        exclude: ["Counter.statespec", "Models/Labels.statespec"]
                    ),
                ],
                swiftLanguageModes: [.v6]
            )

            """)
        try write(sources.appendingPathComponent("Counter.statespec"), """
            state CounterState {
              var count: Int = 0
              computed doubled: Int { count * 2 }
            }

            """)
        try write(sources.appendingPathComponent("Models/Labels.statespec"), """
            state LabelState {
              var names: [String] = []
              computed joined: String { names.joined(separator: ", ") }
            }

            """)
        try write(sources.appendingPathComponent("main.swift"), """
            var counter = CounterState()
            counter.count = 21
            var labels = LabelState()
            labels.names = ["a", "b"]
            print("doubled \\(counter.computed.doubled), joined \\(labels.computed.joined)")

            """)

        let generate = try await swift([
            "package", "--package-path", package.path, "--allow-writing-to-package-directory", "generate-state-code",
        ])
        try generate.expectSuccess()
        #expect(generate.lines.contains("Counter: Counter.statespec → GeneratedSources/Counter.statespec.swift"), "\(generate)")
        #expect(generate.lines.contains("Counter: Models/Labels.statespec → GeneratedSources/Models_Labels.statespec.swift"), "\(generate)")
        let counterFile = sources.appendingPathComponent("GeneratedSources/Counter.statespec.swift")
        let labelsFile = sources.appendingPathComponent("GeneratedSources/Models_Labels.statespec.swift")
        let counterSwift = try String(contentsOf: counterFile, encoding: .utf8)
        #expect(counterSwift.hasPrefix("// Generated by ComputedGen from Counter.statespec."))
        // Paths relative to the package: the committed file is the same on every machine.
        #expect(counterSwift.contains(#"#sourceLocation(file: "Sources/Counter/Counter.statespec", line: 3)"#))
        #expect(FileManager.default.fileExists(atPath: labelsFile.path))

        let build = try await swift(["build", "--package-path", package.path])
        try build.expectSuccess()
        #expect(!build.output.contains("warning:"), "\(build)")
        #expect(!build.lines.contains { $0.contains("Generating ") }, "the build plugin ran in a package that does not apply it\n\(build)")
        let binPath = try await swift(["build", "--package-path", package.path, "--show-bin-path"])
        try binPath.expectSuccess()
        let executable = URL(fileURLWithPath: binPath.output.trimmingCharacters(in: .whitespacesAndNewlines))
            .appendingPathComponent("Counter")
        let run = try await Subprocess.run(executable, [], in: package)
        try run.expectSuccess()
        #expect(run.output == "doubled 42, joined a, b\n", "\(run)")

        // Running it again rewrites nothing.
        let date = try modificationDate(counterFile)
        try await swift(["package", "--package-path", package.path, "--allow-writing-to-package-directory", "generate-state-code"])
            .expectSuccess()
        #expect(try modificationDate(counterFile) == date)

        // A target that applies the build plugin and does not exclude its specs: the command
        // says so, instead of succeeding silently before a build that fails. (SwiftPM does not
        // give command plugins the build plugins' outputs, so today this is the warning.)
        let manifest = package.appendingPathComponent("Package.swift")
        let withPlugin = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(
            of: #"exclude: ["Counter.statespec", "Models/Labels.statespec"]"#,
            with: #"plugins: [.plugin(name: "ComputedGen", package: "ComputedGen")]"#
        )
        try write(manifest, withPlugin)
        // (With GeneratedSources/ present, the build plugin itself refuses to run: start without.)
        try FileManager.default.removeItem(at: sources.appendingPathComponent("GeneratedSources"))
        let conflicting = try await swift([
            "package", "--package-path", package.path, "--allow-writing-to-package-directory", "generate-state-code",
        ])
        #expect(
            conflicting.output.contains("target 'Counter' applies the ComputedGen build-tool plugin")
                || conflicting.output.contains(#"warning: target 'Counter' does not exclude "Counter.statespec", "Models/Labels.statespec". If it applies the ComputedGen build-tool plugin, remove it from the target"#),
            "\(conflicting)"
        )
    }

    /// Builds `package` cold, expecting the plugin's `Generating …` line for `generated` and no
    /// warning (in particular not "found 1 file(s) which are unhandled" for a spec), then runs its
    /// `TodoList` executable.
    func buildAndRun(_ package: URL, in checkout: URL, generating generated: String) async throws -> Subprocess {
        let build = try await swift(["build", "--package-path", package.path])
        try build.expectSuccess()
        #expect(build.lines.contains { $0.hasSuffix("Generating \(generated)") }, "\(build)")
        #expect(!build.output.contains("unhandled"), "\(build)")
        let warnings = build.lines.filter { $0.contains("warning:") && $0.contains(checkout.path) }
        #expect(warnings.isEmpty, "warnings in our code or the generated code:\n\(warnings.joined(separator: "\n"))\n\(build)")
        let binPath = try await swift(["build", "--package-path", package.path, "--show-bin-path"])
        try binPath.expectSuccess()
        let executable = URL(fileURLWithPath: binPath.output.trimmingCharacters(in: .whitespacesAndNewlines))
            .appendingPathComponent("TodoList")
        let run = try await Subprocess.run(executable, [], in: package)
        try run.expectSuccess()
        return run
    }

    /// What `swift run --package-path Examples/TodoList` prints.
    static let expectedTodoListOutput = """
        TodoState is generated from Todo.statespec by the ComputedGen build plugin.
        Each step reads every computed value 3 times; the last column counts body runs so far
        (visibleTodos visibleCount doneCount summary).

        step                      visibleTodos          summary                 runs
        add milk, bread, cheese   milk, bread, cheese   3 shown, 0 of 3 done    1 1 1 1
        no write                  milk, bread, cheese   3 shown, 0 of 3 done    1 1 1 1
        unread = 250 (unrelated)  milk, bread, cheese   3 shown, 0 of 3 done    1 1 1 1
        complete bread            milk, bread, cheese   3 shown, 1 of 3 done    2 2 2 2
        filter = .active          milk, cheese          2 shown, 1 of 3 done    3 3 2 3
        query = "ch"              cheese                1 shown, 1 of 3 done    4 4 2 4
        query = "ch" (equal)      cheese                1 shown, 1 of 3 done    4 4 2 4
        rename bread (hidden)     cheese                1 shown, 1 of 3 done    5 4 3 5

        unread was clamped to 99 by its @Edge onSet middleware; nothing reads it, so nothing recomputed.
        todos(ownedBy: "ana"): milk, cheese (selector body ran 1 time(s) for 4 calls)

        """
}

// MARK: - Helpers

/// Runs `swift` (found on PATH) with `arguments`, with a generous time limit for cold builds, at a
/// lower CPU priority so the suites running alongside (some with timeouts) keep their share.
func swift(_ arguments: [String]) async throws -> Subprocess {
    try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["nice", "-n", "10", "swift"] + arguments, in: nil, timeout: .seconds(900))
}

private func edit(_ file: URL, _ change: (String) -> String) throws {
    let old = try String(contentsOf: file, encoding: .utf8)
    let new = change(old)
    #expect(new != old, "the edit of \(file.path) changed nothing")
    try Data(new.utf8).write(to: file)
}

func write(_ file: URL, _ text: String) throws {
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
}

private func modificationDate(_ file: URL) throws -> Date {
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    return try #require(attributes[.modificationDate] as? Date)
}

/// A finished child process: its exit status and its standard output and error, interleaved.
struct Subprocess: CustomStringConvertible {
    var command: String
    var status: Int32
    var output: String
    var seconds: Double

    var lines: [String] { output.components(separatedBy: "\n") }

    /// The build-progress lines of work actually done: build commands run (`Generating …`), and
    /// compiling, emitting and linking. `Compiling plugin …` is left out: SwiftPM prints it on every
    /// invocation, also when it reuses the cached plugin.
    var buildSteps: [String] {
        lines.filter { line in
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return false }
            let step = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            if step.hasPrefix("Compiling plugin ") { return false }
            return ["Generating ", "Compiling ", "Emitting module ", "Linking ", "Wrapping AST "].contains { step.hasPrefix($0) }
        }
    }

    var description: String {
        "$ \(command)\n(exit status \(status), \(String(format: "%.1f", seconds)) s)\n\(output)"
    }

    /// Fails the test, showing the command and all it printed, unless it exited with status 0.
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(status == 0, "\(self)", sourceLocation: sourceLocation)
    }

    /// Runs `executable` with `arguments` in `directory`, its output going to a file (so a chatty
    /// process can never block on a full pipe), and waits without blocking a thread.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL?, timeout: Duration = .seconds(60)) async throws -> Subprocess {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("computedgen-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let command = ([executable.path] + arguments).joined(separator: " ")
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        while process.isRunning {
            if clock.now - start > timeout {
                process.terminate()
                try await Task.sleep(for: .seconds(2))
                let output = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
                Issue.record("timed out after \(timeout): \(command)\n\(output)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let elapsed = clock.now - start
        let output = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Subprocess(command: command, status: process.terminationStatus, output: output, seconds: seconds)
    }
}

/// A fresh temporary folder, removed at the end of the test unless `COMPUTEDGEN_KEEP_EXAMPLES=1`.
struct Sandbox {
    let root: URL

    /// The repository this test file belongs to.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ExamplesTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("computedgen-examples-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func remove() {
        if ProcessInfo.processInfo.environment["COMPUTEDGEN_KEEP_EXAMPLES"] == "1" {
            print("ExamplesTests: kept \(root.path)")
        } else {
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// Copies the repository into `checkout/`: git's tracked and untracked-not-ignored files when
    /// git can list them, else every file; never `.git` or `.build*` folders. Symbolic links stay
    /// links (the command plugin's SpecOutputs.swift is one).
    func copyRepository() throws -> URL {
        let source = Self.repository
        let destination = root.appendingPathComponent("checkout", isDirectory: true)
        let fileManager = FileManager.default
        for relative in try Self.repositoryFiles() {
            let components = relative.split(separator: "/")
            if components.contains(where: { $0 == ".git" || $0.hasPrefix(".build") }) { continue }
            let from = source.appendingPathComponent(relative)
            let to = destination.appendingPathComponent(relative)
            guard let attributes = try? fileManager.attributesOfItem(atPath: from.path) else { continue }  // deleted, not yet committed
            try fileManager.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            if attributes[.type] as? FileAttributeType == .typeSymbolicLink {
                try fileManager.createSymbolicLink(atPath: to.path, withDestinationPath: fileManager.destinationOfSymbolicLink(atPath: from.path))
            } else if attributes[.type] as? FileAttributeType == .typeRegular {
                try fileManager.copyItem(at: from, to: to)
            }
        }
        return destination
    }

    private static func repositoryFiles() throws -> [String] {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", repository.path, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
        let pipe = Pipe()
        git.standardOutput = pipe
        git.standardError = FileHandle.nullDevice
        if (try? git.run()) != nil {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            git.waitUntilExit()
            if git.terminationStatus == 0 {
                return String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
            }
        }
        // Not a git checkout (e.g. a source archive): take every file.
        var files: [String] = []
        let prefix = repository.standardizedFileURL.path + "/"
        let walker = FileManager.default.enumerator(at: repository, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            let relative = String(path.dropFirst(prefix.count))
            if url.lastPathComponent == ".git" || url.lastPathComponent.hasPrefix(".build") {
                walker?.skipDescendants()
                continue
            }
            files.append(relative)
        }
        return files
    }

    /// The first file named `name` below `directory`.
    func find(_ name: String, under directory: URL) -> URL? {
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.lastPathComponent == name { return url }
        }
        return nil
    }
}
