import Foundation

/// A spec's generated Swift as it is open in `sourcekit-lsp`.
///
/// Its URI is the build's own generated file, the plugin's output under `.build/index-build`
/// (where `sourcekit-lsp` prepares the package), once it exists: only a file of the target
/// gets the target's build settings for diagnostics (measured with Swift 6.3.1: a document
/// beside the spec gets completion and hover, inferred from its folder, but no diagnostics).
/// Until then it is `<spec>.swift` beside the spec.
///
/// The text sent has the `#sourceLocation` directives blanked (each an empty line, so every
/// position stays where the emitter put it): with them, `sourcekit-lsp` places a diagnostic in a
/// body at the spec, not in the document, and drops it. Positions are mapped through the
/// directives of the generated text itself (``SwiftForwarding/Snapshot``).
struct GeneratedDocument {
    /// The document's URI in `sourcekit-lsp`.
    var uri: String
    /// Whether ``uri`` is the build's generated file (or the stand-in beside the spec).
    var isBuilds: Bool
    /// The generated Swift, directives included.
    var text: String
    /// What its responses are read with.
    var snapshot: SwiftForwarding.Snapshot

    init(uri: String, isBuilds: Bool, swift: String, version: Int, document: SpecDocument) {
        self.uri = uri
        self.isBuilds = isBuilds
        text = swift
        snapshot = SwiftForwarding.Snapshot(uri: uri, map: SourceMap(generated: swift), generated: LineTable(swift), document: document, version: version)
    }

    /// The text as `sourcekit-lsp` gets it: every `#sourceLocation` line emptied.
    var sentText: String { Self.blankingDirectives(text) }

    static func blankingDirectives(_ swift: String) -> String {
        swift.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("#sourceLocation(") ? "" : $0 }
            .joined(separator: "\n")
    }

    /// The plugin's output for the spec at `specPath` under `root/.build/index-build`, found by
    /// its name (`<spec file name>.swift`) and its `#sourceLocation` naming the spec, or `nil`.
    static func buildFile(ofSpec specPath: String, root: String) -> String? {
        let outputs = URL(fileURLWithPath: root).appendingPathComponent(".build/index-build/plugins/outputs")
        let name = (specPath as NSString).lastPathComponent + ".swift"
        let directive = Data("#sourceLocation(file: \"\(specPath)\"".utf8)
        guard let files = FileManager.default.enumerator(at: outputs, includingPropertiesForKeys: nil) else { return nil }
        for case let file as URL in files where file.lastPathComponent == name {
            if let contents = try? Data(contentsOf: file), contents.range(of: directive) != nil { return file.path }
        }
        return nil
    }
}
