/// The generator's front end: parses a spec, then checks it.
public enum SpecFrontEnd {
    /// What the front end read and found in one spec: the syntax tree, which exists even when
    /// the spec has errors (as far as the parser could read it), and the check result.
    public struct Analysis: Hashable, Sendable {
        /// What the parser read, with its syntax diagnostics.
        public var parsed: ParseResult
        /// Every syntax and check diagnostic of the file, sorted by location, and the checked
        /// spec when there is no error: what ``SpecFrontEnd/run(source:path:)`` returns.
        public var checked: CheckResult
    }

    /// Parses and checks the spec `source`, read from `path`. The result holds every syntax and
    /// check diagnostic of the file, sorted by location, and the checked spec when there is no error.
    public static func run(source: String, path: String, context: SpecContext = SpecContext()) -> CheckResult {
        analyze(source: source, path: path, context: context).checked
    }

    /// Parses and checks the spec `source`, read from `path`, as ``run(source:path:)`` does, and
    /// keeps the syntax tree too: an editor needs the members of a spec that does not check yet.
    /// `context` tells which states of the target's other spec files hold `@Shared` values.
    public static func analyze(source: String, path: String, context: SpecContext = SpecContext()) -> Analysis {
        let parsed = SpecParser.parse(source: source, path: path, context: context)
        let checked = SpecChecker.check(parsed.file, incompleteMembers: parsed.incompleteMembers, context: context)
        let diagnostics = (parsed.diagnostics + checked.diagnostics).sortedByLocation()
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return Analysis(parsed: parsed, checked: CheckResult(spec: hasErrors ? nil : checked.spec, diagnostics: diagnostics))
    }
}
