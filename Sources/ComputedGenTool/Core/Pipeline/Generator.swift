/// The whole pipeline for one spec: lex/parse → check → emit.
public enum Generator {
    /// What one run over a spec produced.
    public struct Output: Sendable {
        /// The generated Swift, or `nil` when the spec has errors.
        public var swift: String?
        /// Every diagnostic found, in source order.
        public var diagnostics: [Diagnostic]

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Parses and checks `source` (the text of the spec at `path`); without errors, emits Swift.
    ///
    /// - Parameters:
    ///   - source: The spec's text.
    ///   - path: The spec's path as it should appear in diagnostics and `#sourceLocation`.
    ///   - options: How to name the spec in the generated file.
    ///   - context: What the target's other spec files declare that this one's code depends on
    ///     (which of their states hold `@Shared` values).
    public static func generate(
        source: String,
        path: String,
        options: EmitOptions = EmitOptions(),
        context: SpecContext = SpecContext()
    ) -> Output {
        let checked = SpecFrontEnd.run(source: source, path: path, context: context)
        guard let spec = checked.spec, !checked.diagnostics.contains(where: { $0.severity == .error }) else {
            return Output(swift: nil, diagnostics: checked.diagnostics)
        }
        return Output(swift: SwiftEmitter.emit(spec, options: options), diagnostics: checked.diagnostics)
    }
}
