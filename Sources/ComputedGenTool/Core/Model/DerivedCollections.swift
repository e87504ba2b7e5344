/// The spec types of derived collections: a computed value declared as a `ListView<…>` is
/// maintained incrementally by the runtime (its body builds a query over an `IdentifiedList`
/// field, which the runtime evaluates by following the list's changes).
///
/// Recognised by how the spec spells the type, as written or qualified with the runtime's module
/// (`ListView<Message>`, `ComputedRuntime.ListView<Message>`); a typealias of one is an ordinary
/// computed value.
public enum DerivedCollectionTypes {
    /// Whether a type spells the runtime's `ListView<…>`.
    public static func isListView(_ type: String) -> Bool {
        isGeneric(type, named: "ListView")
    }

    /// Whether a type spells the runtime's `IdentifiedList<…>`.
    public static func isIdentifiedList(_ type: String) -> Bool {
        isGeneric(type, named: "IdentifiedList")
    }

    /// Whether a type spells an array: `[T]` (not a dictionary `[K: V]`) or `Array<T>`.
    public static func isArray(_ type: String) -> Bool {
        let type = compact(type)
        if type.hasPrefix("Array<") || type.hasPrefix("Swift.Array<") { return type.hasSuffix(">") }
        guard type.hasPrefix("["), type.hasSuffix("]") else { return false }
        var depth = 0
        for character in type.dropFirst().dropLast() {
            switch character {
            case "[", "<", "(": depth += 1
            case "]", ">", ")": depth -= 1
            case ":" where depth == 0: return false
            default: break
            }
        }
        return true
    }

    /// `type` without spaces, tabs or line breaks.
    static func compact(_ type: String) -> String {
        String(type.filter { !$0.isWhitespace })
    }

    private static func isGeneric(_ type: String, named name: String) -> Bool {
        let type = compact(type)
        return (type.hasPrefix(name + "<") || type.hasPrefix(NameRules.runtimeModuleName + "." + name + "<")) && type.hasSuffix(">")
    }
}

extension CheckedComputed {
    /// Whether the value is a `ListView`, maintained incrementally.
    public var isIncrementalList: Bool {
        DerivedCollectionTypes.isListView(type)
    }
}
