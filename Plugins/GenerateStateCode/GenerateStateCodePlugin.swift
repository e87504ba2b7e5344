// The generate-state-code command plugin: writes the generated Swift for each .statespec into the
// target's GeneratedSources/ folder, for users who commit generated code or want it in the editor.
//
//     swift package --allow-writing-to-package-directory generate-state-code [--target Name]...

import Foundation
import PackagePlugin

@main
struct GenerateStateCodePlugin: CommandPlugin {
    /// A failure the user can act on.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        if let unknown = extractor.remainingArguments.first {
            throw Failure(description: "unknown argument '\(unknown)'; usage: generate-state-code [--target <name>]...")
        }
        let targets = try targetNames.isEmpty
            ? context.package.targets
            : context.package.targets(named: targetNames)
        let tool = try context.tool(named: "ComputedGenTool").url

        var generated = 0
        for case let module as SourceModuleTarget in targets {
            let specs = module.sourceFiles(withSuffix: "statespec").map(\.url)
            guard !specs.isEmpty else { continue }
            let outputs = SpecOutputs(specs: specs, root: module.directoryURL)
            guard outputs.collisions.isEmpty else {
                throw Failure(description: outputs.collisions.joined(separator: "\n"))
            }
            let directory = module.directoryURL.appendingPathComponent("GeneratedSources", isDirectory: true)
            for entry in outputs.entries {
                let output = directory.appendingPathComponent(entry.outputName)
                try run(tool, ["generate", entry.spec.path, "--output", output.path])
                print("\(module.name): \(SpecOutputs.relativePath(of: entry.spec, in: module.directoryURL)) → GeneratedSources/\(entry.outputName)")
                generated += 1
            }
        }
        if generated == 0 {
            Diagnostics.warning("no .statespec files found in \(targetNames.isEmpty ? "this package" : targetNames.joined(separator: ", "))")
        }
    }

    /// Runs the tool, letting its diagnostics through to the user's terminal.
    private func run(_ tool: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ComputedGenTool failed (exit status \(process.terminationStatus)); see the diagnostics above")
        }
    }
}
