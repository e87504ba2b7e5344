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

/// One `.buildCommand` per spec (never a prebuild command), with one output, so the build system
/// reruns the tool only when a spec (or the tool) changes.
///
/// The target's own specs are the commands' input files. The Swift-form specs of a target it
/// depends on are not: sourcekit-lsp takes a file that is an input of a build command for a source
/// of the target that runs the command, and compiles it there, in the wrong module, so the editor
/// shows false errors in every spec (seen with Swift 6.3.1). Instead, a digest of their contents
/// is an argument of every command (`--input-digest`, which the tool ignores): the plugin runs on
/// every build, so an edit changes the arguments, and the build system reruns the commands.
func buildCommands(groups: [SpecGroup], tool: URL, workDirectory: URL) throws -> [Command] {
    let outputDirectory = workDirectory.appendingPathComponent("Generated", isDirectory: true)
    let allSpecs = groups.flatMap(\.specs)
    let ownSpecs = Set(groups.filter { $0.module == nil }.flatMap(\.specs))
    let dependencySpecs = groups.filter { $0.module != nil }.flatMap(\.specs)
    let digest = dependencySpecs.isEmpty ? [] : ["--input-digest", InputDigest(of: dependencySpecs).text]
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
                arguments: ["generate", entry.spec.path, "--output", output.path] + imports
                    + others.flatMap { ["--context", $0.path] } + digest,
                inputFiles: ([entry.spec] + others).filter(ownSpecs.contains),
                outputFiles: [output]
            ))
        }
    }
    return commands
}

/// A digest of files' paths and contents (64-bit FNV-1a): what changes when one of them does.
struct InputDigest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    init(of files: [URL]) {
        for file in files.sorted(by: { $0.path < $1.path }) {
            add(Array(file.path.utf8) + [0])
            // An unreadable file digests as empty; the tool reports it when it reads the file.
            add(Array(FileManager.default.contents(atPath: file.path) ?? Data()) + [0])
        }
    }

    private mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }

    /// The digest in hexadecimal.
    var text: String { String(value, radix: 16) }
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
