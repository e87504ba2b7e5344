// The ComputedGen build-tool plugin: finds the target's specs (.statespec files, and Swift-form
// .state.swift files in the target or in the targets it depends on) and runs ComputedGenTool once
// per spec as a build command. All the work is in the tool; this file only plans commands.

import Foundation
import PackagePlugin

@main
struct ComputedGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let specs = module.sourceFiles.map(\.url).filter(SpecOutputs.isSpec)
        // Swift-form specs of the targets this one depends on: compiled there first (so a Swift
        // error in a body stops the build there, once), and generated here.
        let dependencies: [SpecGroup] = module.dependencies.compactMap { dependency in
            guard case .target(let target) = dependency, let dependencyModule = target as? SourceModuleTarget else { return nil }
            let swiftSpecs = dependencyModule.sourceFiles.map(\.url).filter { $0.lastPathComponent.hasSuffix(SpecOutputs.swiftFormSuffix) }
            guard !swiftSpecs.isEmpty else { return nil }
            return SpecGroup(specs: swiftSpecs, root: dependencyModule.directoryURL, module: dependencyModule.moduleName)
        }
        let commands = try buildCommands(
            groups: [SpecGroup(specs: specs, root: module.directoryURL, module: nil)] + dependencies,
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

/// Specs of one target: the plugin's own, or the Swift-form specs of a target it depends on
/// (`module`), whose generated files import that module.
struct SpecGroup {
    var specs: [URL]
    var root: URL
    var module: String?
}

/// One `.buildCommand` per spec (never a prebuild command), with the spec as its only input and one
/// output, so the build system reruns the tool only when that spec (or the tool) changes.
func buildCommands(groups: [SpecGroup], tool: URL, workDirectory: URL) throws -> [Command] {
    let outputDirectory = workDirectory.appendingPathComponent("Generated", isDirectory: true)
    let allSpecs = groups.flatMap(\.specs)
    var commands: [Command] = []
    for group in groups {
        let outputs = SpecOutputs(specs: group.specs, root: group.root, prefix: group.module.map { $0 + "_" } ?? "")
        for collision in outputs.collisions {
            Diagnostics.error(collision)
        }
        let imports = group.module.map { ["--import", $0] } ?? []
        for entry in outputs.entries {
            let output = outputDirectory.appendingPathComponent(entry.outputName)
            // The target's other specs are its context (a state may nest one of theirs, whose @Shared
            // values it must follow) and its inputs: a change there reruns the command, and the tool
            // leaves an unchanged output alone, so nothing is recompiled for nothing.
            let others = allSpecs.filter { $0 != entry.spec }
            commands.append(.buildCommand(
                // No "/" in the name: SwiftPM's progress line shows only what follows the last one.
                displayName: "Generating \(entry.outputName) from \(entry.spec.lastPathComponent)",
                executable: tool,
                arguments: ["generate", entry.spec.path, "--output", output.path] + imports + others.flatMap { ["--context", $0.path] },
                inputFiles: [entry.spec] + others,
                outputFiles: [output]
            ))
        }
    }
    return commands
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension ComputedGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let specs = target.inputFiles.map(\.url).filter(SpecOutputs.isSpec)
        return try buildCommands(
            groups: [SpecGroup(specs: specs, root: context.xcodeProject.directoryURL, module: nil)],
            tool: context.tool(named: "ComputedGenTool").url,
            workDirectory: context.pluginWorkDirectoryURL
        )
    }
}
#endif
