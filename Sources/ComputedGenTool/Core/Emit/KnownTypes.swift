/// Type texts the generator knows to name a type that exists, so that the generated public
/// interface spells them as the spec wrote them (`[String: Int]`, `Shelf?`) rather than through
/// the alias that reports a mistake in a type once (`__countsType`).
///
/// A type the generator cannot vouch for (`[Todo]`: an app's model type, which may be misspelled
/// or not visible from the generated file) keeps its alias in public declarations: spelling it
/// there too would report one mistake once per declaration (Swift does not deduplicate them),
/// where the alias reports it once, at the spec's line and column. Known are the standard
/// library's value types (`Int`, `String`, `Bool`, `Double`, …), Foundation's (`Date`, `URL`,
/// `UUID`, `Data`, `Decimal`, `TimeInterval`) when the spec imports Foundation, the states the same
/// spec file declares, and `[T]`, `[K: V]`, `Set<K>` and `T?` (or `Array<T>`, `Dictionary<K, V>`,
/// `Optional<T>`) of those, whose keys and set elements are standard library or Foundation types
/// (every one `Hashable`).
struct KnownTypes: Sendable {
    /// The standard library's value types, every one `Hashable` and `Sendable`.
    static let standardLibrary: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool", "String", "Character", "Substring",
    ]
    /// Foundation's value types a state holds most, every one `Hashable` and `Sendable`.
    static let foundation: Set<String> = ["Date", "URL", "UUID", "Data", "Decimal", "TimeInterval"]

    /// Names that may be keys and set elements.
    let hashable: Set<String>
    /// Names that may stand anywhere else: the hashable ones and the spec's own states.
    let names: Set<String>

    /// What a spec knows: the standard library, Foundation when `importsFoundation`, and the
    /// states of `stateNames` (those spelled without backticks).
    init(importsFoundation: Bool, stateNames: [String]) {
        hashable = Self.standardLibrary.union(importsFoundation ? Self.foundation : [])
        names = hashable.union(stateNames.filter { !SwiftKeywords.isReserved($0) })
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

    /// A known type, spelled, and whether it is `Hashable`.
    private struct Spelled {
        var spelling: String
        var isHashable: Bool
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

        private mutating func name() -> String? {
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
                    return Spelled(spelling: "[\(first.spelling): \(value.spelling)]", isHashable: value.isHashable)
                }
                guard take("]") else { return nil }
                return Spelled(spelling: "[\(first.spelling)]", isHashable: first.isHashable)
            }
            guard let name = name() else { return nil }
            guard take("<") else {
                guard known.names.contains(name) else { return nil }
                return Spelled(spelling: name, isHashable: known.hashable.contains(name))
            }
            var arguments: [Spelled] = []
            repeat {
                guard let argument = type() else { return nil }
                arguments.append(argument)
            } while take(",")
            guard take(">") else { return nil }
            let list = arguments.map(\.spelling).joined(separator: ", ")
            switch (name, arguments.count) {
            case ("Array", 1), ("Optional", 1):
                return Spelled(spelling: "\(name)<\(list)>", isHashable: arguments[0].isHashable)
            case ("Set", 1) where arguments[0].isHashable:
                return Spelled(spelling: "Set<\(list)>", isHashable: true)
            case ("Dictionary", 2) where arguments[0].isHashable:
                return Spelled(spelling: "Dictionary<\(list)>", isHashable: arguments[1].isHashable)
            default:
                return nil
            }
        }
    }
}
