/// The two ways to write a spec: the spec language, and plain Swift.
///
/// Both are read into the same ``SpecFile`` and go through the same checks and emitters.
///
/// - ``spec``: a `.statespec` file, `state TodoState { computed … }`.
/// - ``swift``: a `.state.swift` file, a Swift source file of the target that compiles as it is.
///   Each top-level `struct` whose name ends in `Spec` is a state: `struct TodoStateSpec`
///   generates `TodoState`. Stored properties are fields, computed properties are computed values,
///   functions are selectors, and what Swift has no syntax for (`from`, `cache`, `@NoCutoff`) is
///   written as a `// computedgen:` comment on the line before the member.
public enum SpecForm: String, Hashable, Sendable {
    case spec
    case swift

    /// The file name ending of a spec in the Swift form.
    public static let swiftFileSuffix = ".state.swift"
    /// The file name ending of a spec in the spec language.
    public static let specFileSuffix = ".statespec"
    /// The ending of a Swift-form state's type name, dropped from the generated state's name.
    public static let typeSuffix = "Spec"
    /// What starts a directive comment in the Swift form: `// computedgen: from todos`.
    public static let directivePrefix = "computedgen:"

    /// The form of the spec at `path`: the Swift form for `.swift` files, the spec language
    /// otherwise.
    public init(path: String) {
        self = path.hasSuffix(".swift") ? .swift : .spec
    }

    /// The generated state's name for a Swift-form type name (`TodoStateSpec` → `TodoState`), or
    /// `nil` when the name does not end in `Spec` or is only `Spec`.
    public static func stateName(forSwiftType name: String) -> String? {
        guard name.hasSuffix(typeSuffix), name.count > typeSuffix.count else { return nil }
        return String(name.dropLast(typeSuffix.count))
    }
}
