/// The generator's front end: parses a spec, then checks it.
public enum SpecFrontEnd {
    /// Parses and checks the spec `source`, read from `path`. The result holds every syntax and
    /// check diagnostic of the file, sorted by location, and the checked spec when there is no error.
    public static func run(source: String, path: String) -> CheckResult {
        let parsed = SpecParser.parse(source: source, path: path)
        let checked = SpecChecker.check(parsed.file, incompleteMembers: parsed.incompleteMembers)
        let diagnostics = (parsed.diagnostics + checked.diagnostics).sortedByLocation()
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return CheckResult(spec: hasErrors ? nil : checked.spec, diagnostics: diagnostics)
    }
}
