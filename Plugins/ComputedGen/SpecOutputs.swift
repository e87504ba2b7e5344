// Shared by the ComputedGen build-tool plugin and the generate-state-code command plugin
// (Plugins/GenerateStateCode/SpecOutputs.swift is a symbolic link to this file): plugins cannot
// depend on library targets, so both compile this one file.

import Foundation

/// Where the generated Swift for each spec of a target goes.
struct SpecOutputs {
    /// A spec and the name of the Swift file generated from it.
    struct Entry {
        var spec: URL
        var outputName: String
    }

    /// Specs whose flattened names collide, which the plugin reports as an error.
    var collisions: [String] = []
    /// One entry per spec, sorted by path, so the commands are deterministic.
    var entries: [Entry] = []

    /// Plans the outputs for `specs`, all inside `root` (the target's directory).
    ///
    /// The output name is the spec's path relative to `root` with `/` replaced by `_`, plus
    /// `.swift`: `Todo.statespec` → `Todo.statespec.swift`, `Models/Todo.statespec` →
    /// `Models_Todo.statespec.swift`. A Swift-form spec's ends in `.generated.swift` instead:
    /// `Todo.state.swift` → `Todo.state.generated.swift`. `prefix` goes first (the module name and
    /// `_`, for the specs of a dependency). Swift needs file names that are unique within a
    /// module, and this keeps them unique even when two folders hold specs with the same name.
    init(specs: [URL], root: URL, prefix: String = "") {
        var seen: [String: String] = [:]
        for spec in specs.sorted(by: { $0.path < $1.path }) {
            let relative = Self.relativePath(of: spec, in: root)
            let flat = prefix + relative.replacingOccurrences(of: "/", with: "_")
            let name = flat.hasSuffix(Self.swiftFormSuffix) ? String(flat.dropLast(".swift".count)) + ".generated.swift" : flat + ".swift"
            if let other = seen[name] {
                collisions.append("'\(relative)' and '\(other)' would both generate '\(name)'; rename one of them")
                continue
            }
            seen[name] = relative
            entries.append(Entry(spec: spec, outputName: name))
        }
    }

    /// The file name ending of a spec written as plain Swift.
    static let swiftFormSuffix = ".state.swift"

    /// Whether `url` names a spec: a `.statespec` file, or a Swift-form `.state.swift` file.
    static func isSpec(_ url: URL) -> Bool {
        url.pathExtension == "statespec" || url.lastPathComponent.hasSuffix(swiftFormSuffix)
    }

    /// `spec`'s path below `root`, or its file name when it is not below `root`.
    static func relativePath(of spec: URL, in root: URL) -> String {
        let specPath = spec.standardizedFileURL.path
        let rootPath = root.standardizedFileURL.path
        let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        if specPath.hasPrefix(prefix) {
            return String(specPath.dropFirst(prefix.count))
        }
        return spec.lastPathComponent
    }
}
