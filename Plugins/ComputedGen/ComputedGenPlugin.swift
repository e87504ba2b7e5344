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
        // The Swift sources the type indexes are built from: the target's own (its Swift-form specs
        // among them), which are the index command's inputs, so an edit reruns it and only a
        // changed index reruns the generate commands; and those of the targets it depends on,
        // whose types a generated file that imports them may spell.
        let ownSources = TypeIndexSources(files: module.sourceFiles(withSuffix: "swift").map(\.url), module: nil, areInputs: true)
        let dependencySources: [TypeIndexSources] = module.dependencies.compactMap { dependency in
            guard case .target(let target) = dependency, let dependencyModule = target as? SourceModuleTarget else { return nil }
            return TypeIndexSources(files: dependencyModule.sourceFiles(withSuffix: "swift").map(\.url), module: dependencyModule.moduleName, areInputs: false)
        }
        let commands = try buildCommands(
            groups: [SpecGroup(specs: specs, root: module.directoryURL, module: nil)] + dependencies,
            typeIndexSources: [ownSources] + dependencySources,
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

/// The Swift sources of one module, which a type index is built from.
struct TypeIndexSources {
    var files: [URL]
    /// The module, when it is not the target the plugin runs for.
    var module: String?
    /// Whether the files can be the index command's input files. Another target's cannot
    /// (sourcekit-lsp would compile them in this one, as for Swift-form specs), nor can an Xcode
    /// target's own (Xcode takes a Swift file that is an input of a build command as consumed by
    /// it, and does not compile it): there a digest of their paths, sizes and modification dates
    /// is an argument of the command instead.
    var areInputs: Bool
}

/// One `.buildCommand` per spec (never a prebuild command), with one output, so the build system
/// reruns the tool only when a spec (or the tool) changes.
///
/// Before them, one `index-types` command per module writes the types its Swift sources declare
/// (`ComputedGenTypeIndex.swift`, `<Module>_ComputedGenTypeIndex.swift`; comments only: an output
/// of another kind would be copied into the resource bundle). They are inputs of every generate
/// command, and the tool rewrites one only when a declaration changes, so an edit inside a
/// function reruns its index command alone.
///
/// The target's own specs are the commands' input files. The Swift-form specs of a target it
/// depends on are not: sourcekit-lsp takes a file that is an input of a build command for a source
/// of the target that runs the command, and compiles it there, in the wrong module, so the editor
/// shows false errors in every spec (seen with Swift 6.3.1). Instead, a digest of their contents
/// is an argument of every command (`--input-digest`, which the tool ignores): the plugin runs on
/// every build, so an edit changes the arguments, and the build system reruns the commands.
func buildCommands(groups: [SpecGroup], typeIndexSources: [TypeIndexSources], tool: URL, workDirectory: URL) throws -> [Command] {
    let outputDirectory = workDirectory.appendingPathComponent("Generated", isDirectory: true)
    guard groups.contains(where: { !$0.specs.isEmpty }) else { return [] }
    let allSpecs = groups.flatMap(\.specs)
    let ownSpecs = Set(groups.filter { $0.module == nil }.flatMap(\.specs))
    let dependencySpecs = groups.filter { $0.module != nil }.flatMap(\.specs)
    let digest = dependencySpecs.isEmpty ? [] : ["--input-digest", InputDigest(of: dependencySpecs).text]
    var commands: [Command] = []
    var typeIndex: [String] = []
    var typeIndexInputs: [URL] = []
    for sources in typeIndexSources where !sources.files.isEmpty {
        let index = outputDirectory.appendingPathComponent((sources.module.map { $0 + "_" } ?? "") + "ComputedGenTypeIndex.swift")
        let digest = sources.areInputs ? [] : ["--input-digest", InputDigest(ofMetadataOf: sources.files).text]
        commands.append(.buildCommand(
            displayName: "Indexing the types of \(sources.module ?? "the target")'s Swift for ComputedGen",
            executable: tool,
            arguments: ["index-types", "--output", index.path] + (sources.module.map { ["--module", $0] } ?? []) + digest
                + sources.files.map(\.path),
            inputFiles: sources.areInputs ? sources.files : [],
            outputFiles: [index]
        ))
        typeIndex += ["--type-index", index.path]
        typeIndexInputs.append(index)
    }
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
                    + others.flatMap { ["--context", $0.path] } + typeIndex + digest,
                inputFiles: ([entry.spec] + others).filter(ownSpecs.contains) + typeIndexInputs,
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

    /// A digest of files' paths, sizes and modification dates: what changes when one of them is
    /// edited, without reading them.
    init(ofMetadataOf files: [URL]) {
        for file in files.sorted(by: { $0.path < $1.path }) {
            add(Array(file.path.utf8) + [0])
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            let size = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
            let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            add(Array("\(size) \(date)".utf8) + [0])
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
        let swiftSources = target.inputFiles.map(\.url).filter { $0.pathExtension == "swift" }
        return try buildCommands(
            groups: [SpecGroup(specs: specs, root: context.xcodeProject.directoryURL, module: nil)],
            typeIndexSources: [TypeIndexSources(files: swiftSources, module: nil, areInputs: false)],
            tool: context.tool(named: "ComputedGenTool").url,
            workDirectory: context.pluginWorkDirectoryURL
        )
    }
}
#endif
