import Foundation

/// The `ComputedGenTool` command line: argument parsing and the three commands, kept here (not in
/// the executable) so that tests can run it in-process.
public struct Command: Sendable {
    /// The tool's version, printed by `--version`.
    public static let version = ComputedGenVersion.string

    /// The usage text printed by `--help`.
    public static let usage = """
        OVERVIEW: Generates memoized Swift state from specs: .statespec files, or plain Swift
        (.state.swift files).

        USAGE: ComputedGenTool <command> [options]

        COMMANDS:
          generate <spec>... --output-dir <dir>   Write one <name>.statespec.swift per spec into <dir>.
          generate <spec> --output <file>         Write the Swift for one spec to <file>.
          check <spec>...                         Report diagnostics only; write nothing.
          graph <spec> [--format mermaid|dot]     Print the dependency graph (default: mermaid).
          convert <spec>...                       Rewrite each spec in the other form, beside it:
                                                  Todo.statespec <-> Todo.state.swift.
          index-types <swift-file>... --output <file>
                                                  Write the types the Swift files declare, for
                                                  generate's --type-index.

        OPTIONS:
          --display-name <name>   The spec name written in the generated header (one spec only).
          -h, --help              Show this help (after a command: that command's help).
          --version               Show the version.

        Diagnostics are printed to standard error as path:line:column: error: message.
        Files are written only when their content changes, so unchanged output does not trigger
        recompilation. Exit status: 0 success, 1 spec or file errors, 2 usage errors.
        """

    /// The usage text of each command, printed by `ComputedGenTool <command> --help`.
    public static let commandUsage: [String: String] = [
        "generate": """
            OVERVIEW: Writes the Swift generated from each spec.

            USAGE: ComputedGenTool generate <spec>... --output-dir <dir> [--context <spec>]... [--import <module>]... [--type-index <file>]...
                   ComputedGenTool generate <spec> --output <file> [--display-name <name>] [--context <spec>]... [--import <module>]... [--type-index <file>]...

            OPTIONS:
              --output-dir <dir>      Write one <name>.statespec.swift per spec into <dir>.
              --output <file>         Write the Swift for one spec to <file>.
              --context <spec>        Another spec of the same target, read (not generated) for
                                      the states it declares: a state nesting one of them keys
                                      its values on their @Shared fields. Repeatable; the specs
                                      generated together are each other's context already.
              --import <module>       A module the generated file imports too: the module that
                                      compiles a Swift-form spec (.state.swift) when the state
                                      is generated into another target. Repeatable.
              --display-name <name>   The spec name written in the generated header and in
                                      #sourceLocation (one spec only).
              --type-index <file>     The types the target's Swift sources declare, written by
                                      'index-types': the generated interface spells them as the
                                      spec does ([Todo]) instead of through an alias. Repeatable
                                      (the target's index, and its dependencies').
              --input-digest <text>   Ignored. The plugin passes a digest of the specs it cannot
                                      declare as inputs, so that a change reruns the command.
              -h, --help              Show this help.

            A spec with errors writes nothing; its diagnostics go to standard error as
            path:line:column: error: message. Exit status: 0 success, 1 spec or file errors,
            2 usage errors.
            """,
        "check": """
            OVERVIEW: Reports the diagnostics of each spec; writes nothing.

            USAGE: ComputedGenTool check <spec>...

            OPTIONS:
              -h, --help              Show this help.

            Exit status: 0 when every spec is valid, 1 when one has errors, 2 usage errors.
            """,
        "convert": """
            OVERVIEW: Rewrites each spec in the other form: a .statespec as plain Swift (a
            .state.swift file that compiles as it is), or a .state.swift as a .statespec.

            USAGE: ComputedGenTool convert <spec>... [--context <spec>]...
                   ComputedGenTool convert <spec> --output <file> [--context <spec>]...

            OPTIONS:
              --output <file>         Write the converted spec to <file> ('-' for standard
                                      output) instead of beside the spec.
              --context <spec>        Another spec of the same target, whose states the spec
                                      nests: their names change with the form too. Repeatable.
              -h, --help              Show this help.

            Comments, blank lines and bodies are kept. An existing file is never overwritten:
            remove it first, or give --output. The original spec is left in place; remove it
            from the target once the converted one builds (both declare the same states).
            """,
        "index-types": """
            OVERVIEW: Writes the types Swift files declare, for generate's --type-index: the
            generated interface spells a type as the spec does ([Todo], Todo.Status?) when the
            index vouches for it, and through an alias that reports a mistake once otherwise.

            USAGE: ComputedGenTool index-types <swift-file>... --output <file> [--module <name>]

            OPTIONS:
              --output <file>         Where to write the index (a Swift file of comments only).
              --module <name>         The files are another module's, whose package and public
                                      types count in generated files that import it.
              --input-digest <text>   Ignored. The plugin passes a digest of the files it cannot
                                      declare as inputs, so that an edit reruns the command.
              -h, --help              Show this help.

            Listed are the types declared at file scope or nested in such types, outside #if,
            without @available, not generic, and not private or fileprivate. The file is written
            only when its content changes.
            """,
        "graph": """
            OVERVIEW: Prints a spec's dependency graph: which fields and computed values each
            computed value reads.

            USAGE: ComputedGenTool graph <spec> [--format mermaid|dot]

            OPTIONS:
              --format <format>       mermaid (the default) or dot.
              -h, --help              Show this help.
            """,
    ]

    /// What a run printed and how it ended.
    public struct Result: Sendable, Equatable {
        /// The process exit status.
        public var status: Int32
        /// Text for standard output.
        public var standardOutput: String
        /// Text for standard error (diagnostics and errors).
        public var standardError: String
    }

    /// A usage error, with the message to print before a hint to `--help`.
    struct UsageError: Error {
        var message: String
    }

    let fileManager = FileSystem()

    /// Creates the command.
    public init() {}

    /// Runs the tool with `arguments` (without the executable's name).
    public func run(_ arguments: [String]) -> Result {
        var output = Result(status: 0, standardOutput: "", standardError: "")
        do {
            try run(arguments, into: &output)
        } catch let error as UsageError {
            output.standardError += "error: \(error.message)\nRun 'ComputedGenTool --help' for usage.\n"
            output.status = 2
        } catch {
            output.standardError += "error: \(error)\n"
            output.status = 1
        }
        return output
    }

    private func run(_ arguments: [String], into output: inout Result) throws {
        guard let command = arguments.first else {
            throw UsageError(message: "missing command: expected 'generate', 'check', 'graph', 'convert' or 'index-types'")
        }
        let rest = Array(arguments.dropFirst())
        if let usage = Self.commandUsage[command], rest.contains(where: { $0 == "-h" || $0 == "--help" }) {
            output.standardOutput += usage + "\n"
            return
        }
        switch command {
        case "-h", "--help", "help":
            output.standardOutput += Self.usage + "\n"
        case "--version":
            output.standardOutput += Self.version + "\n"
        case "generate":
            try generate(Options(parsing: rest, allowed: ["--output-dir", "--output", "--display-name", "--input-digest"], repeatable: ["--context", "--import", "--type-index"]), into: &output)
        case "check":
            try check(Options(parsing: rest, allowed: []), into: &output)
        case "graph":
            try graph(Options(parsing: rest, allowed: ["--format"]), into: &output)
        case "convert":
            try convert(Options(parsing: rest, allowed: ["--output"], repeatable: ["--context"]), into: &output)
        case "index-types":
            try indexTypes(Options(parsing: rest, allowed: ["--output", "--module", "--input-digest"]), into: &output)
        default:
            throw UsageError(message: "unknown command '\(command)': expected 'generate', 'check', 'graph', 'convert' or 'index-types'")
        }
    }

    // MARK: Commands

    private func generate(_ options: Options, into output: inout Result) throws {
        guard !options.specs.isEmpty else { throw UsageError(message: "'generate' needs at least one spec") }
        let outputFile = options.values["--output"]
        let outputDirectory = options.values["--output-dir"]
        switch (outputFile, outputDirectory) {
        case (nil, nil): throw UsageError(message: "'generate' needs --output-dir <dir> or --output <file>")
        case (.some, .some): throw UsageError(message: "give either --output or --output-dir, not both")
        case (.some, nil) where options.specs.count > 1:
            throw UsageError(message: "--output takes one spec; use --output-dir for several")
        default: break
        }
        if options.values["--display-name"] != nil, options.specs.count > 1 {
            throw UsageError(message: "--display-name takes one spec")
        }
        let destinations = options.specs.map { spec in
            outputFile ?? (outputDirectory! as NSString).appendingPathComponent(Self.outputName(forSpec: spec))
        }
        if let duplicate = firstDuplicate(destinations) {
            throw UsageError(message: "two specs would both write '\(duplicate)'; generate them into different directories")
        }
        // The specs generated together and the --context ones: which of their states nest
        // @Shared values.
        let context = self.context(of: options)
        let typeIndex = try options.lists["--type-index", default: []].map(readTypeIndex).reduce(TypeIndex()) { $0.merging($1) }
        for (spec, destination) in zip(options.specs, destinations) {
            let emitOptions = EmitOptions(
                displayName: options.values["--display-name"],
                modules: options.lists["--import", default: []],
                typeIndex: typeIndex
            )
            guard let swift = try process(spec, options: emitOptions, context: context, into: &output) else { continue }
            try fileManager.writeIfChanged(swift, to: destination)
        }
    }

    private func check(_ options: Options, into output: inout Result) throws {
        guard !options.specs.isEmpty else { throw UsageError(message: "'check' needs at least one spec") }
        for spec in options.specs {
            _ = try process(spec, options: EmitOptions(), into: &output)
        }
    }

    private func graph(_ options: Options, into output: inout Result) throws {
        guard options.specs.count == 1 else { throw UsageError(message: "'graph' takes exactly one spec") }
        let formatName = options.values["--format"] ?? GraphEmitter.Format.mermaid.rawValue
        guard let format = GraphEmitter.Format(rawValue: formatName) else {
            let names = GraphEmitter.Format.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "unknown graph format '\(formatName)': expected one of \(names)")
        }
        let path = options.specs[0]
        guard let source = try source(of: path, into: &output) else { return }
        let result = SpecFrontEnd.run(source: source, path: path)
        report(result.diagnostics, into: &output)
        if let spec = result.spec, !output.hasFailed {
            output.standardOutput += GraphEmitter.render(spec, format: format)
        }
    }

    private func convert(_ options: Options, into output: inout Result) throws {
        guard !options.specs.isEmpty else { throw UsageError(message: "'convert' needs at least one spec") }
        let outputFile = options.values["--output"]
        if outputFile != nil, options.specs.count > 1 {
            throw UsageError(message: "--output takes one spec; without it, each spec is converted beside itself")
        }
        let context = self.context(of: options)
        for path in options.specs {
            guard let source = try source(of: path, into: &output) else { continue }
            let converted: String
            switch SpecConverter.convert(source: source, path: path, context: context) {
            case .success(let text): converted = text
            case .failure(let error):
                report(error.diagnostics, into: &output)
                continue
            }
            let destination = outputFile ?? SpecConverter.convertedPath(of: path)
            if destination == "-" {
                output.standardOutput += converted
                continue
            }
            if FileManager.default.fileExists(atPath: destination) {
                output.standardError += "error: '\(destination)' exists; remove it, or give --output <file>\n"
                output.status = 1
                continue
            }
            try fileManager.writeIfChanged(converted, to: destination)
            output.standardOutput += "wrote \(destination); remove \(path) from the target once it builds\n"
        }
    }

    // MARK: Helpers

    /// The context of the specs `options` names and of its `--context` specs: the states they
    /// declare, and which of them nest `@Shared` values. (Unreadable specs are skipped: their own
    /// commands report them.)
    private func context(of options: Options) -> SpecContext {
        var specs: [(source: String, path: String)] = []
        for path in options.specs + options.lists["--context", default: []] {
            guard let bytes = try? fileManager.read(path), case .success(let text) = SpecSource.decode(bytes, path: path) else { continue }
            specs.append((text, path))
        }
        return SpecContext(specs: specs)
    }

    /// Runs the pipeline over one spec, reporting diagnostics; returns the Swift when it has no errors.
    private func process(_ path: String, options: EmitOptions, context: SpecContext = SpecContext(), into output: inout Result) throws -> String? {
        guard let source = try source(of: path, into: &output) else { return nil }
        let generated = Generator.generate(source: source, path: path, options: options, context: context)
        report(generated.diagnostics, into: &output)
        return generated.swift
    }

    /// The text of the spec at `path`, or `nil` after reporting where it is not UTF-8.
    private func source(of path: String, into output: inout Result) throws -> String? {
        switch SpecSource.decode(try fileManager.read(path), path: path) {
        case .success(let text):
            return text
        case .failure(let diagnostic):
            report([diagnostic], into: &output)
            return nil
        }
    }

    private func report(_ diagnostics: [Diagnostic], into output: inout Result) {
        for diagnostic in diagnostics {
            output.standardError += diagnostic.description + "\n"
            if diagnostic.severity == .error { output.status = 1 }
        }
    }

    private func firstDuplicate(_ paths: [String]) -> String? {
        var seen = Set<String>()
        for path in paths where !seen.insert(path).inserted {
            return path
        }
        return nil
    }

    /// The generated file's name for a spec: `Todo.statespec` → `Todo.statespec.swift`, so it never
    /// collides with a hand-written `Todo.swift` in the same target; a Swift-form spec's twin is
    /// `Todo.state.swift` → `Todo.state.generated.swift`.
    public static func outputName(forSpec path: String) -> String {
        let name = (path as NSString).lastPathComponent
        guard SpecForm(path: path) == .swift else { return name + ".swift" }
        return String(name.dropLast(".swift".count)) + ".generated.swift"
    }
}

extension Command.Result {
    fileprivate var hasFailed: Bool { status != 0 }
}
