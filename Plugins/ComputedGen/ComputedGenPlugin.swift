// The ComputedGen build-tool plugin: finds the target's .statespec files and runs ComputedGenTool
// once per spec as a build command. All the work is in the tool; this file only plans commands.

import Foundation
import PackagePlugin

@main
struct ComputedGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let specs = module.sourceFiles(withSuffix: "statespec").map(\.url)
        let commands = try buildCommands(
            specs: specs,
            root: module.directoryURL,
            tool: context.tool(named: "ComputedGenTool").url,
            workDirectory: context.pluginWorkDirectoryURL
        )
        reportCommittedCopies(of: specs, in: module)
        return commands
    }

    /// A source file of the target with the name of a generated file (typically
    /// `GeneratedSources/X.statespec.swift` written by `generate-state-code`) would clash with it, and
    /// would usually define the same types twice: say so plainly, instead of leaving the user with
    /// "filename used twice" or redeclaration errors.
    private func reportCommittedCopies(of specs: [URL], in module: SourceModuleTarget) {
        let entries = SpecOutputs(specs: specs, root: module.directoryURL).entries
        let specsByOutput = Dictionary(entries.map { ($0.outputName, $0.spec) }, uniquingKeysWith: { first, _ in first })
        for file in module.sourceFiles(withSuffix: "swift") {
            guard let spec = specsByOutput[file.url.lastPathComponent] else { continue }
            let path = SpecOutputs.relativePath(of: file.url, in: module.directoryURL)
            let specPath = SpecOutputs.relativePath(of: spec, in: module.directoryURL)
            Diagnostics.error(
                "'\(path)' in target '\(module.name)' has the name of the file the ComputedGen plugin generates from '\(specPath)' (is it a copy written by generate-state-code?); delete or rename it, or stop applying the plugin to '\(module.name)'"
            )
        }
    }
}

/// One `.buildCommand` per spec (never a prebuild command), with the spec as its only input and one
/// output, so the build system reruns the tool only when that spec (or the tool) changes.
func buildCommands(specs: [URL], root: URL, tool: URL, workDirectory: URL) throws -> [Command] {
    let outputs = SpecOutputs(specs: specs, root: root)
    for collision in outputs.collisions {
        Diagnostics.error(collision)
    }
    let outputDirectory = workDirectory.appendingPathComponent("Generated", isDirectory: true)
    let allSpecs = outputs.entries.map(\.spec)
    return outputs.entries.map { entry in
        let output = outputDirectory.appendingPathComponent(entry.outputName)
        // The target's other specs are its context (a state may nest one of theirs, whose @Shared
        // values it must follow) and its inputs: a change there reruns the command, and the tool
        // leaves an unchanged output alone, so nothing is recompiled for nothing.
        let others = allSpecs.filter { $0 != entry.spec }
        return .buildCommand(
            // No "/" in the name: SwiftPM's progress line shows only what follows the last one.
            displayName: "Generating \(entry.outputName) from \(entry.spec.lastPathComponent)",
            executable: tool,
            arguments: ["generate", entry.spec.path, "--output", output.path] + others.flatMap { ["--context", $0.path] },
            inputFiles: [entry.spec] + others,
            outputFiles: [output]
        )
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension ComputedGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let specs = target.inputFiles.map(\.url).filter { $0.pathExtension == "statespec" }
        return try buildCommands(
            specs: specs,
            root: context.xcodeProject.directoryURL,
            tool: context.tool(named: "ComputedGenTool").url,
            workDirectory: context.pluginWorkDirectoryURL
        )
    }
}
#endif
