// The generate-state-code command plugin: writes the generated Swift for each .statespec into the
// target's GeneratedSources/ folder, for users who commit generated code or want it in the editor.
//
//     swift package --allow-writing-to-package-directory generate-state-code [--target Name]...
//
// Use it instead of the ComputedGen build-tool plugin for a target (not both: the code would be
// compiled twice), and list the specs in the target's `exclude:` so SwiftPM does not warn about
// them. Excluded files are invisible to `sourceFiles`, so the plugin also looks for specs on disk.

import Foundation
import PackagePlugin

@main
struct GenerateStateCodePlugin: CommandPlugin {
    /// A failure the user can act on.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The folder, inside each target's directory, that receives the generated files.
    static let outputFolder = "GeneratedSources"

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
        let packageDirectory = context.package.directoryURL

        var generated = 0
        for case let module as SourceModuleTarget in targets {
            let specs = Self.specs(of: module)
            guard !specs.isEmpty else { continue }
            if module.pluginGeneratedSources.contains(where: { $0.lastPathComponent.hasSuffix(".statespec.swift") }) {
                throw Failure(description: Self.buildPluginApplied(to: module.name))
            }
            let outputs = SpecOutputs(specs: specs, root: module.directoryURL)
            guard outputs.collisions.isEmpty else {
                throw Failure(description: outputs.collisions.joined(separator: "\n"))
            }
            let directory = module.directoryURL.appendingPathComponent(Self.outputFolder, isDirectory: true)
            // The types the target's Swift sources declare, which the generated interface spells
            // as the specs do, as the build plugin's index gives them.
            let swiftSources = module.sourceFiles(withSuffix: "swift").map(\.url)
            var typeIndex: [String] = []
            if !swiftSources.isEmpty {
                let index = context.pluginWorkDirectoryURL.appendingPathComponent("\(module.name).ComputedGenTypeIndex.swift")
                try run(tool, ["index-types", "--output", index.path] + swiftSources.map(\.path), in: packageDirectory)
                typeIndex = ["--type-index", index.path]
            }
            for entry in outputs.entries {
                let output = directory.appendingPathComponent(entry.outputName)
                // Paths relative to the package, so the committed files (their `#sourceLocation`
                // lines) do not depend on where each developer's clone lives.
                // The target's other specs are the context (states nesting theirs follow their
                // @Shared values), as the build plugin gives them.
                let context = outputs.entries.filter { $0.spec != entry.spec }
                    .flatMap { ["--context", Self.path(of: $0.spec, in: packageDirectory)] }
                try run(
                    tool,
                    ["generate", Self.path(of: entry.spec, in: packageDirectory), "--output", Self.path(of: output, in: packageDirectory)] + context + typeIndex,
                    in: packageDirectory
                )
                print("\(module.name): \(SpecOutputs.relativePath(of: entry.spec, in: module.directoryURL)) → \(Self.outputFolder)/\(entry.outputName)")
                generated += 1
            }
            try removeStaleOutputs(in: directory, keeping: Set(outputs.entries.map(\.outputName)), target: module.name)
            if let warning = Self.notExcludedWarning(for: module, specs: outputs.entries.map(\.spec)) {
                Diagnostics.warning(warning)
            }
        }
        if generated == 0 {
            Diagnostics.warning("no .statespec files found in \(targetNames.isEmpty ? "this package" : targetNames.joined(separator: ", "))")
        }
    }

    /// Why generating into a target that applies the build-tool plugin is refused.
    static func buildPluginApplied(to target: String) -> String {
        "target '\(target)' applies the ComputedGen build-tool plugin, which already generates this code on every build; "
            + "GeneratedSources/ would be compiled as well and the build would fail. Either keep the build plugin and do not "
            + "run generate-state-code, or remove '.plugin(name: \"ComputedGen\", package: \"ComputedGen\")' from the "
            + "target's plugins: and add its specs to exclude:"
    }

    /// A warning when some of `specs` are not in the target's `exclude:` list (SwiftPM still lists
    /// them): either the target applies the build-tool plugin, and the next build fails (the
    /// build plugin refuses a GeneratedSources/ file named as its own output), or SwiftPM warns
    /// about unhandled files. A command plugin cannot see which plugins a target applies (SwiftPM
    /// leaves `pluginGeneratedSources` empty for command plugins), so this names both.
    static func notExcludedWarning(for module: SourceModuleTarget, specs: [URL]) -> String? {
        let listed = Set(module.sourceFiles(withSuffix: "statespec").map(\.url.standardizedFileURL.path))
        let names = specs.filter { listed.contains($0.standardizedFileURL.path) }
            .map { SpecOutputs.relativePath(of: $0, in: module.directoryURL) }
            .sorted()
        guard !names.isEmpty else { return nil }
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        return "target '\(module.name)' does not exclude \(list). If it applies the ComputedGen build-tool plugin, remove "
            + "it from the target's plugins: the next build would fail, because the build plugin generates files of the same "
            + "names. Then add the specs to the target: exclude: [\(list)]"
    }

    /// The target's specs: those SwiftPM lists (unhandled files) and those on disk in its folder
    /// (excluded files, which SwiftPM does not list), without duplicates.
    static func specs(of module: SourceModuleTarget) -> [URL] {
        var byPath: [String: URL] = [:]
        for url in module.sourceFiles(withSuffix: "statespec").map(\.url) {
            byPath[url.standardizedFileURL.path] = url
        }
        let root = module.directoryURL
        if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.pathExtension == "statespec" {
                byPath[url.standardizedFileURL.path] = url
            }
        }
        return Array(byPath.values)
    }

    /// `url`'s path relative to `directory` when it lies inside it, its absolute path otherwise.
    static func path(of url: URL, in directory: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = directory.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Deletes generated files whose spec is gone (renamed or removed), recognized by the header the
    /// generator writes; other files in the folder are left alone.
    private func removeStaleOutputs(in directory: URL, keeping current: Set<String>, target: String) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".statespec.swift") && !current.contains(name) {
            let file = directory.appendingPathComponent(name)
            guard let contents = try? Data(contentsOf: file),
                  String(decoding: contents.prefix(64), as: UTF8.self).hasPrefix("// Generated by ComputedGen")
            else { continue }
            try FileManager.default.removeItem(at: file)
            print("\(target): removed \(Self.outputFolder)/\(name) (its spec is gone)")
        }
    }

    /// Runs the tool, letting its diagnostics through to the user's terminal.
    private func run(_ tool: URL, _ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ComputedGenTool failed (exit status \(process.terminationStatus)); see the diagnostics above")
        }
    }
}
