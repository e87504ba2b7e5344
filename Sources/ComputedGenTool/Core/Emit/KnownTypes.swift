/// Type texts the generator knows to name a type that exists, so that the generated public
/// interface spells them as the spec wrote them (`[Todo]`, `[String: Int]`, `Shelf?`) rather than
/// through the alias that reports a mistake in a type once (`__todosType`).
///
/// A type the generator cannot vouch for (a misspelled name, a type of another module, one the
/// target declares inside `#if`) keeps its alias in public declarations: spelling it there too
/// would report one mistake once per declaration (Swift does not deduplicate them), where the
/// alias reports it once, at the spec's line and column. Known are the standard library's value
/// types (`Int`, `String`, `Bool`, `Double`, …), Foundation's (`Date`, `URL`, `UUID`, `Data`,
/// `Decimal`, `TimeInterval`) when the spec imports Foundation, the states the same spec file
/// declares, the types of the target's ``TypeIndex`` visible at the state's access level (`Todo`,
/// `Todo.Status`), and `[T]`, `[K: V]`, `Set<K>` and `T?` (or `Array<T>`, `Dictionary<K, V>`,
/// `Optional<T>`) of those, whose keys and set elements are known to be `Hashable`.
struct KnownTypes: Sendable {
    typealias Conformance = TypeIndex.Conformance

    /// The standard library's value types, every one `Hashable` and `Sendable`.
    static let standardLibrary: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool", "String", "Character", "Substring", "ObjectIdentifier",
    ]
    /// The standard library's and Foundation's `AdditiveArithmetic` types: what a `KeyedTotals`
    /// may sum.
    static let additive: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Decimal", "TimeInterval",
    ]
    /// Foundation's value types a state holds most, every one `Hashable` and `Sendable`.
    static let foundation: Set<String> = ["Date", "URL", "UUID", "Data", "Decimal", "TimeInterval"]
    /// The runtime's generic types a spec declares values of, by the number of their arguments.
    static let runtimeGenerics: [String: Int] = ["IdentifiedList": 1, "ListView": 1, "ListGroups": 2, "ListSections": 2, "KeyedTotals": 2]

    /// The conformances known of each name that may stand in a type.
    let conformances: [String: Set<Conformance>]
    /// The runtime's generic types the spec may spell (those the target does not declare itself).
    let runtimeGenerics: [String: Int]

    /// What a state knows: the standard library, Foundation when `importsFoundation`, the states
    /// of `stateNames` (those spelled without backticks), the runtime's generic collections, and
    /// the types of `declared` that a declaration of `access` may use in a file that imports
    /// `modules`.
    init(
        importsFoundation: Bool,
        stateNames: [String],
        declared: TypeIndex = TypeIndex(),
        access: AccessLevel = .internal,
        importing modules: Set<String> = []
    ) {
        var conformances: [String: Set<Conformance>] = [:]
        for entry in declared.entries(visibleAt: TypeIndex.Access(access), importing: modules) {
            conformances[entry.name] = entry.conformances
        }
        for name in stateNames where !SwiftKeywords.isReserved(name) && conformances[name] == nil {
            conformances[name] = []
        }
        for name in Self.standardLibrary.union(importsFoundation ? Self.foundation : []) {
            conformances[name] = [.hashable, .sendable]
        }
        self.conformances = conformances
        runtimeGenerics = Self.runtimeGenerics.filter { declared.entries[$0.key] == nil }
    }

    /// Nothing beyond the standard library.
    static let standardLibraryOnly = KnownTypes(importsFoundation: false, stateNames: [])

    /// `text` spelled canonically (`[String: Int]`, `Int?`) when it names a known type; `nil`
    /// otherwise (any other form, a comment, a name the generator does not know).
    func spelling(of text: String) -> String? {
        var reader = Reader(characters: Array(text.unicodeScalars), known: self)
        guard let type = reader.type(), reader.atEnd else { return nil }
        return type.spelling
    }

    /// A known type, spelled, and the conformances known of it.
    private struct Spelled {
        var spelling: String
        var conformances: Set<Conformance>
        /// Whether it may be a dictionary key or a set element.
        var isHashable: Bool { conformances.contains(.hashable) }
        /// Whether it may be the key of the runtime's groups, sections and totals.
        var isKey: Bool { conformances.isSuperset(of: [.hashable, .sendable]) }
        /// Hashable and Sendable when both are, which is what `[T]`, `T?` and `[K: V]` keep of `T`.
        var inherited: Set<Conformance> { conformances.intersection([.hashable, .sendable]) }
    }

    /// A recursive-descent reader of the known forms, character by character.
    private struct Reader {
        let characters: [Unicode.Scalar]
        let known: KnownTypes
        var index = 0
        /// Nesting depth, bounded so that a pathological type cannot exhaust the stack.
        var depth = 0

        var atEnd: Bool {
            mutating get {
                skipSpaces()
                return index == characters.count
            }
        }

        private mutating func skipSpaces() {
            while index < characters.count, characters[index] == " " || characters[index] == "\t" || characters[index] == "\n" {
                index += 1
            }
        }

        private mutating func take(_ character: Unicode.Scalar) -> Bool {
            skipSpaces()
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }

        /// A name, qualified or not (`Todo.Status`).
        private mutating func name() -> String? {
            guard var name = component() else { return nil }
            while index < characters.count, characters[index] == "." {
                index += 1
                guard let next = component() else { return nil }
                name += "." + next
            }
            return name
        }

        private mutating func component() -> String? {
            skipSpaces()
            let start = index
            while index < characters.count, characters[index].properties.isAlphabetic || characters[index] == "_"
                || (index > start && ("0"..."9").contains(characters[index])) {
                index += 1
            }
            return index > start ? String(String.UnicodeScalarView(characters[start..<index])) : nil
        }

        /// A type, then any number of `?`.
        mutating func type() -> Spelled? {
            depth += 1
            defer { depth -= 1 }
            guard depth < 16, var type = base() else { return nil }
            while take("?") { type.spelling += "?" }
            return type
        }

        private mutating func base() -> Spelled? {
            if take("[") {
                guard let first = type() else { return nil }
                if take(":") {
                    guard first.isHashable, let value = type(), take("]") else { return nil }
                    return Spelled(spelling: "[\(first.spelling): \(value.spelling)]", conformances: value.inherited)
                }
                guard take("]") else { return nil }
                return Spelled(spelling: "[\(first.spelling)]", conformances: first.inherited)
            }
            guard let name = name() else { return nil }
            guard take("<") else {
                guard let conformances = known.conformances[name] else { return nil }
                return Spelled(spelling: name, conformances: conformances)
            }
            var arguments: [Spelled] = []
            repeat {
                guard let argument = type() else { return nil }
                arguments.append(argument)
            } while take(",")
            guard take(">") else { return nil }
            let spelling = "\(name)<\(arguments.map(\.spelling).joined(separator: ", "))>"
            switch (name, arguments.count) {
            case ("Array", 1), ("Optional", 1):
                return Spelled(spelling: spelling, conformances: arguments[0].inherited)
            case ("Set", 1) where arguments[0].isHashable:
                return Spelled(spelling: spelling, conformances: arguments[0].inherited)
            case ("Dictionary", 2) where arguments[0].isHashable:
                return Spelled(spelling: spelling, conformances: arguments[1].inherited)
            case (_, let count) where known.runtimeGenerics[name] == count:
                // The runtime's collections, with the constraints of their arguments.
                switch name {
                case "IdentifiedList" where arguments[0].conformances.contains(.identifiable),
                     "ListView",
                     "ListGroups" where arguments[0].isKey,
                     "ListSections" where arguments[0].isKey,
                     "KeyedTotals" where arguments[0].isKey && KnownTypes.additive.contains(arguments[1].spelling):
                    return Spelled(spelling: spelling, conformances: [])
                default:
                    return nil
                }
            default:
                return nil
            }
        }
    }
}
