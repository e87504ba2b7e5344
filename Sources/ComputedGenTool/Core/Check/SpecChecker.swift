/// What ``SpecChecker`` (or ``SpecFrontEnd``) found.
public struct CheckResult: Hashable, Sendable {
    /// The checked spec; `nil` if and only if a diagnostic is an error.
    public var spec: CheckedSpec?
    /// Every diagnostic, in source order.
    public var diagnostics: [Diagnostic]

    /// Creates a check result.
    public init(spec: CheckedSpec?, diagnostics: [Diagnostic]) {
        self.spec = spec
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool {
        diagnostics.contains { $0.severity == .error }
    }
}

/// Checks a parsed spec: names, attributes, types, inputs and dependency cycles; infers the
/// inputs of computeds and selectors written without `from`; orders computeds topologically and
/// computes what each field write must invalidate.
public enum SpecChecker {
    /// Checks `file`.
    public static func check(_ file: SpecFile) -> CheckResult {
        check(file, incompleteMembers: [])
    }

    /// Checks `file`, skipping the checks that would only repeat a syntax error for the members
    /// whose name locations are in `incompleteMembers` (see ``ParseResult/incompleteMembers``).
    ///
    /// `context` tells which states of the target's other spec files hold `@Shared` values.
    public static func check(_ file: SpecFile, incompleteMembers: Set<SourceLocation>, context: SpecContext = SpecContext()) -> CheckResult {
        var diagnostics = checkStateNames(of: file)
        var states: [CheckedState] = []
        for state in file.states {
            var checker = StateChecker(state: state, path: file.path, incompleteMembers: incompleteMembers)
            if let checked = checker.check() { states.append(checked) }
            diagnostics += checker.diagnostics
        }
        states = NestedShared.mark(states, context: context)
        diagnostics = diagnostics.sortedByLocation()
        let isClean = !diagnostics.contains { $0.severity == .error }
        return CheckResult(spec: isClean ? CheckedSpec(file: file, states: states) : nil, diagnostics: diagnostics)
    }

    /// Keywords and duplicates among the state names of a file.
    private static func checkStateNames(of file: SpecFile) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var seen: [String: Identifier] = [:]
        for state in file.states {
            let name = state.name
            if let message = NameRules.keywordProblem(name) ?? NameRules.stateNameProblem(name) ?? NameRules.characterProblem(name) {
                diagnostics.append(Diagnostic(path: file.path, at: name.location, message))
            }
            for conformance in state.conformances {
                let components = conformance.name.split(separator: ".").map { Identifier(String($0), at: conformance.location) }
                if let message = components.lazy.compactMap(NameRules.characterProblem).first {
                    diagnostics.append(Diagnostic(path: file.path, at: conformance.location, message))
                }
            }
            if let first = seen[name.name] {
                let message = "duplicate state name '\(name.name)': a state named '\(name.name)' is declared at \(first.location); rename one of them"
                diagnostics.append(Diagnostic(path: file.path, at: name.location, message))
            } else {
                seen[name.name] = name
            }
        }
        return diagnostics
    }
}

extension [Diagnostic] {
    /// The diagnostics sorted by location; diagnostics at the same location keep their order.
    func sortedByLocation() -> [Diagnostic] {
        enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
    }
}
