import Foundation

extension Command {
    /// `index-types <swift-file>... --output <file> [--module <name>]`: the types the files
    /// declare (as `name`'s, another module's, when given), written only when they change, so
    /// that the `generate` commands that read the index rerun only then.
    func indexTypes(_ options: Options, into output: inout Result) throws {
        guard let destination = options.values["--output"] else {
            throw UsageError(message: "'index-types' needs --output <file>")
        }
        var scanner = TypeIndexScanner()
        for path in options.specs {
            // Swift requires UTF-8; a file that is not is read as far as it decodes, and the
            // compiler reports it.
            scanner.scan(String(decoding: try fileManager.read(path), as: UTF8.self))
        }
        let index = options.values["--module"].map(scanner.index.declared(in:)) ?? scanner.index
        try fileManager.writeIfChanged(index.fileText, to: destination)
    }

    /// The index at `path`, written by `index-types`.
    func readTypeIndex(_ path: String) throws -> TypeIndex {
        let text = String(decoding: try fileManager.read(path), as: UTF8.self)
        guard let index = TypeIndex(fileText: text) else {
            throw FileSystem.Failure(description: "'\(path)' is not a type index written by 'ComputedGenTool index-types'")
        }
        return index
    }
}
