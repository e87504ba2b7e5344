/// The types a target's Swift sources declare, as far as the generator can vouch for them: what
/// lets the generated public interface spell an app's own types (`[Todo]`, `Todo.Status?`) as the
/// spec wrote them, instead of through the alias that reports a mistake in a type once.
///
/// The plugin builds one index per target from its Swift sources (``TypeIndexScanner``, the
/// `index-types` command) and passes it to every `generate` command. The index lists a type only
/// when spelling it in several declarations cannot report one mistake several times: declared at
/// file scope or nested in other such types, outside `#if`, without `@available`, not generic, and
/// not `private` or `fileprivate`. A type the index does not list (misspelled, from another module,
/// conditional) keeps its alias, so a mistake in it is still reported once, at the spec.
///
/// The plugin indexes the target that applies it and, for the Swift-form specs of the targets it
/// depends on, those targets too: their types are in the index with their module, and count only
/// in generated files that import it (a state generated from such a spec imports its module), and
/// only when `package` or `public` (another module cannot see `internal` ones).
///
/// The index is written as a Swift file of comments only (`ComputedGenTypeIndex.swift`), because a
/// build command's output of another kind would be copied into the target's resource bundle:
///
/// ```
/// // public Todo Hashable Identifiable Sendable
/// // internal Todo.Status
/// ```
///
/// A dependency's index starts with the line `// module AppSpecs`.
public struct TypeIndex: Hashable, Sendable {
    /// How far a declared type is visible, from the generated code's point of view.
    public enum Access: Int, Comparable, Hashable, Sendable, CaseIterable {
        /// Visible in its module (`internal`, or no modifier).
        case `internal`
        /// Visible in its package (`package`).
        case package
        /// Visible everywhere (`public` or `open`).
        case `public`

        public static func < (lhs: Access, rhs: Access) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The access level a state of `level` needs of the types its public interface spells.
        public init(_ level: AccessLevel) {
            switch level {
            case .internal: self = .internal
            case .package: self = .package
            case .public: self = .public
            }
        }

        /// The keyword, as the index file writes it.
        var keyword: String {
            switch self {
            case .internal: "internal"
            case .package: "package"
            case .public: "public"
            }
        }
    }

    /// A conformance the generated interface's generic types ask of their arguments: the keys of
    /// dictionaries, sets, groups and sections must be `Hashable` (and `Sendable`), the elements of
    /// an `IdentifiedList` `Identifiable`.
    public enum Conformance: String, Hashable, Sendable, CaseIterable, Comparable {
        case hashable = "Hashable"
        case identifiable = "Identifiable"
        case sendable = "Sendable"

        public static func < (lhs: Conformance, rhs: Conformance) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One declared type.
    public struct Entry: Hashable, Sendable {
        /// The type's name, qualified by the types it is nested in (`Todo.Status`).
        public var name: String
        /// Its effective access: the lowest of its own and its enclosing types'.
        public var access: Access
        /// The module that declares it, when it is not the one the generated code goes into.
        public var module: String?
        /// The conformances it is known to have: named in its inheritance clause or an
        /// extension's (`Hashable` also for an enum with raw values).
        public var conformances: Set<Conformance>

        /// Creates an entry.
        public init(name: String, access: Access, conformances: Set<Conformance> = [], module: String? = nil) {
            self.name = name
            self.access = access
            self.conformances = conformances
            self.module = module
        }
    }

    /// The entries, by name.
    public private(set) var entries: [String: Entry]

    /// An index of `entries`. A name given twice by one module keeps its widest access and all
    /// the conformances either names; the target's own declaration of a name shadows another
    /// module's, as in Swift; a name two other modules declare is left out (spelled where both are
    /// imported, it would be ambiguous).
    public init(_ entries: [Entry] = []) {
        var byName: [String: Entry] = [:]
        var ambiguous: Set<String> = []
        for entry in entries where !ambiguous.contains(entry.name) {
            guard var existing = byName[entry.name] else {
                byName[entry.name] = entry
                continue
            }
            switch (existing.module, entry.module) {
            case let (first, second) where first == second:
                existing.access = max(existing.access, entry.access)
                existing.conformances.formUnion(entry.conformances)
                byName[entry.name] = existing
            case (nil, _):
                break
            case (_, nil):
                byName[entry.name] = entry
            default:
                byName[entry.name] = nil
                ambiguous.insert(entry.name)
            }
        }
        self.entries = byName
    }

    /// The entries a declaration of `access` may spell in a file that imports `modules`.
    public func entries(visibleAt access: Access, importing modules: Set<String>) -> [Entry] {
        entries.values.filter { entry in
            entry.access >= access && (entry.module.map { modules.contains($0) && entry.access >= .package } ?? true)
        }
    }

    /// This index, and the entries of `other` (see ``init(_:)`` for a name in both).
    public func merging(_ other: TypeIndex) -> TypeIndex {
        TypeIndex(Array(entries.values) + Array(other.entries.values))
    }

    /// The entries as another module's: `module`'s, without those it does not export.
    public func declared(in module: String) -> TypeIndex {
        TypeIndex(entries.values.filter { $0.access >= .package }.map { entry in
            var entry = entry
            entry.module = module
            return entry
        })
    }

    // MARK: The index file

    /// The file's first lines.
    static let header = """
        // Generated by ComputedGen: the types this target's Swift sources declare, which the
        // generated interface spells as a spec writes them. Comments only; do not edit.
        """

    /// The index as a file: the header, the module (for another module's), then one comment line
    /// per type, sorted by name, so that the same declarations always give the same bytes (and an
    /// unchanged index reruns nothing). Every entry must be of one module.
    public var fileText: String {
        var lines = [Self.header]
        if let module = entries.values.lazy.compactMap(\.module).min() { lines.append("// module \(module)") }
        for entry in entries.values.sorted(by: { $0.name < $1.name }) {
            let conformances = entry.conformances.sorted().map { " " + $0.rawValue }.joined()
            lines.append("// \(entry.access.keyword) \(entry.name)\(conformances)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads an index file; `nil` when `text` is not one (a line that is not a comment of the form
    /// above).
    public init?(fileText text: String) {
        var entries: [Entry] = []
        var module: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard line.hasPrefix("// ") else { return nil }
            let words = line.dropFirst(3).split(separator: " ")
            guard let keyword = words.first else { return nil }
            if keyword == "module", words.count == 2, entries.isEmpty {
                module = String(words[1])
                continue
            }
            guard let access = Access.allCases.first(where: { $0.keyword == keyword }) else {
                // A line of the header.
                if Self.header.contains(line) { continue }
                return nil
            }
            guard words.count >= 2 else { return nil }
            var conformances: Set<Conformance> = []
            for word in words.dropFirst(2) {
                guard let conformance = Conformance(rawValue: String(word)) else { return nil }
                conformances.insert(conformance)
            }
            entries.append(Entry(name: String(words[1]), access: access, conformances: conformances, module: module))
        }
        self.init(entries)
    }
}
