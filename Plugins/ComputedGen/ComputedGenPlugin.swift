// The ComputedGen build-tool plugin: finds the target's .statespec files and runs ComputedGenTool
// once per spec as a build command. All the work is in the tool; this file only plans commands.

import Foundation
import PackagePlugin

@main
struct ComputedGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let specs = module.sourceFiles(withSuffix: "statespec").map(\.url)
        return try buildCommands(
            specs: specs,
            root: module.directoryURL,
            tool: context.tool(named: "ComputedGenTool").url,
            workDirectory: context.pluginWorkDirectoryURL
        )
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
    return outputs.entries.map { entry in
        let output = outputDirectory.appendingPathComponent(entry.outputName)
        return .buildCommand(
            displayName: "Generating \(entry.outputName) from \(entry.spec.lastPathComponent)",
            executable: tool,
            arguments: ["generate", entry.spec.path, "--output", output.path],
            inputFiles: [entry.spec],
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
