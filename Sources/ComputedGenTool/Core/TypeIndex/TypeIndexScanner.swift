/// Finds the types Swift source files declare, for a ``TypeIndex``: a scan over the spec lexer's
/// tokens (which reads Swift's comments, strings and interpolations), not a parser.
///
/// It follows braces and `#if` blocks. A `struct`, `enum`, `class`, `actor` or `typealias` is
/// listed when every brace around it is the body of a type or an extension (so types local to a
/// function are not), no `#if` encloses it, no `@available` or `@_spi` marks it, and it is not
/// generic (nor nested in a generic type). Its access is its own modifier, or its extension's,
/// or `internal`, lowered to that of the types around it; `private` and `fileprivate` types are
/// left out. It conforms to `Hashable`, `Identifiable` or `Sendable` when its inheritance clause,
/// or that of an extension of it, names the protocol; an enum whose raw type is a standard library
/// one is `Hashable` too.
///
/// What it cannot see (a type from another module, a conformance through a protocol of the app's)
/// is left out, which only means the generated interface keeps an alias for it.
public struct TypeIndexScanner {
    /// A declaration found, before its access is lowered to its parents'.
    private struct Found {
        var name: String
        var parent: String?
        var access: TypeIndex.Access?
        var conformances: Set<TypeIndex.Conformance>
    }

    /// A brace the scan is inside.
    private struct Scope {
        /// The qualified name of the type or extended type whose body this is; `nil` for any other
        /// brace (a function, an accessor, a closure) or a generic type's body.
        var typeName: String?
        /// The access the scope's members default to (an extension's modifier).
        var defaultAccess: TypeIndex.Access?
    }

    private var found: [Found] = []
    private var conformancesByExtension: [String: Set<TypeIndex.Conformance>] = [:]

    /// Creates a scanner with nothing found yet.
    public init() {}

    /// Scans one file's text.
    public mutating func scan(_ source: String) {
        var file = FileScan(tokens: Lexer.tokenize(source).tokens)
        file.run()
        found += file.found
        conformancesByExtension.merge(file.conformancesByExtension) { $0.union($1) }
    }

    /// The index of every file scanned.
    public var index: TypeIndex {
        let byName = Dictionary(found.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Access lowered to the enclosing types'. A type nested in an extension of a type the
        // files do not declare is listed only when that type is a standard library one (not
        // generic): `Array.Page` would need `Array`'s arguments.
        func access(of name: String, depth: Int = 0) -> TypeIndex.Access? {
            guard let entry = byName[name], depth < 32 else { return nil }
            let own = entry.access ?? .internal
            guard let parent = entry.parent else { return own }
            guard byName[parent] != nil else { return KnownTypes.standardLibrary.contains(parent) ? own : nil }
            return access(of: parent, depth: depth + 1).map { min($0, own) }
        }
        return TypeIndex(found.compactMap { entry in
            access(of: entry.name).map {
                TypeIndex.Entry(name: entry.name, access: $0, conformances: entry.conformances.union(conformancesByExtension[entry.name] ?? []))
            }
        })
    }

    /// The scan of one file.
    private struct FileScan {
        let tokens: [Token]
        var index = 0
        var scopes: [Scope] = []
        var conditionalDepth = 0
        var found: [Found] = []
        var conformancesByExtension: [String: Set<TypeIndex.Conformance>] = [:]
        /// The modifiers read since the last declaration.
        var access: TypeIndex.Access??
        var isExcluded = false

        static let typeKeywords: Set<String> = ["struct", "enum", "class", "actor"]
        static let rawTypes: Set<String> = KnownTypes.standardLibrary
        /// Modifiers that may come between the access modifier and the keyword.
        static let otherModifiers: Set<String> = [
            "final", "indirect", "nonisolated", "isolated", "dynamic", "override", "required",
            "convenience", "static", "lazy", "weak", "unowned", "mutating", "nonmutating", "consuming",
            "borrowing", "sending", "distributed",
        ]

        /// Whether declarations here are reachable by a qualified name.
        var atTypeLevel: Bool { conditionalDepth == 0 && scopes.allSatisfy { $0.typeName != nil } }

        func token(at offset: Int = 0) -> Token? {
            index + offset < tokens.count ? tokens[index + offset] : nil
        }

        func isPunctuation(_ text: String, at offset: Int = 0) -> Bool {
            token(at: offset).map { $0.kind == .punctuation && $0.text == text } ?? false
        }

        mutating func resetModifiers() {
            access = nil
            isExcluded = false
        }

        mutating func run() {
            while let token = token() {
                switch (token.kind, token.text) {
                case (.poundKeyword, "#if"):
                    conditionalDepth += 1
                    index += 1
                case (.poundKeyword, "#endif"):
                    conditionalDepth = max(conditionalDepth - 1, 0)
                    index += 1
                case (.punctuation, "{"):
                    scopes.append(Scope(typeName: nil))
                    resetModifiers()
                    index += 1
                case (.punctuation, "}"):
                    if !scopes.isEmpty { scopes.removeLast() }
                    resetModifiers()
                    index += 1
                case (.punctuation, "@"):
                    attribute()
                case (.identifier, let word) where !token.isEscaped:
                    identifier(word)
                default:
                    resetModifiers()
                    index += 1
                }
            }
        }

        mutating func attribute() {
            index += 1
            if let name = token(), name.kind == .identifier {
                if ["available", "_spi", "_spi_available", "backDeployed"].contains(name.text) { isExcluded = true }
                index += 1
                if isPunctuation("("), token()?.location.offset == name.endOffset { skipBalanced(open: "(", close: ")") }
            }
        }

        mutating func identifier(_ word: String) {
            switch word {
            case "public", "open", "package", "internal", "fileprivate", "private":
                index += 1
                if isPunctuation("(") {
                    skipBalanced(open: "(", close: ")")  // `private(set)`: a setter's access
                } else {
                    access = .some(Self.access(of: word))
                }
            case _ where Self.otherModifiers.contains(word):
                index += 1
            case "extension":
                index += 1
                extensionDeclaration()
            case "typealias":
                index += 1
                typeAlias()
            case _ where Self.typeKeywords.contains(word):
                // `class func`, `class var`: a member, not a type.
                guard let next = token(at: 1), next.kind == .identifier, !(word == "class" && SwiftKeywords.isReserved(next.text) && !next.isEscaped) else {
                    resetModifiers()
                    index += 1
                    return
                }
                index += 1
                typeDeclaration(isEnum: word == "enum")
            case "protocol":
                // Listed never; its body's braces are an ordinary scope.
                resetModifiers()
                index += 1
            default:
                resetModifiers()
                index += 1
            }
        }

        /// `private` → `nil` (left out); `open` → `public`.
        static func access(of keyword: String) -> TypeIndex.Access? {
            switch keyword {
            case "public", "open": .public
            case "package": .package
            case "internal": .internal
            default: nil
            }
        }

        /// The modifier read, or the enclosing extension's default; `.none` for private.
        var declaredAccess: (access: TypeIndex.Access?, isPrivate: Bool) {
            switch access {
            case .some(.some(let level)): (level, false)
            case .some(.none): (nil, true)
            case .none: (scopes.last?.defaultAccess, false)
            }
        }

        mutating func typeDeclaration(isEnum: Bool) {
            guard let nameToken = token(), nameToken.kind == .identifier else { return }
            index += 1
            let name = nameToken.text
            let isGeneric = isPunctuation("<")
            if isGeneric { skipBalanced(open: "<", close: ">") }
            let inherited = inheritanceClause()
            let qualified = scopes.last?.typeName.map { "\($0).\(name)" } ?? name
            let (own, isPrivate) = declaredAccess
            if atTypeLevel, !isExcluded, !isGeneric, !isPrivate, !nameToken.isEscaped {
                var conformances = Self.conformances(in: inherited)
                if isEnum, inherited.first.map(Self.rawTypes.contains) == true { conformances.insert(.hashable) }
                found.append(Found(name: qualified, parent: scopes.last?.typeName, access: own, conformances: conformances))
            }
            let listed = atTypeLevel && !isGeneric && !isPrivate && !isExcluded
            resetModifiers()
            guard isPunctuation("{") else { return }
            index += 1
            scopes.append(Scope(typeName: listed ? qualified : nil))
        }

        mutating func extensionDeclaration() {
            var name = ""
            while let part = token(), part.kind == .identifier {
                name += (name.isEmpty ? "" : ".") + part.text
                index += 1
                guard isPunctuation("."), token(at: 1)?.kind == .identifier else { break }
                index += 1
            }
            let isGeneric = isPunctuation("<")
            if isGeneric { skipBalanced(open: "<", close: ">") }
            let inherited = inheritanceClause()
            if !name.isEmpty { conformancesByExtension[name, default: []].formUnion(Self.conformances(in: inherited)) }
            let (defaultAccess, isPrivate) = declaredAccess
            let listed = atTypeLevel && !name.isEmpty && !isGeneric && !isPrivate && !isExcluded
            resetModifiers()
            guard isPunctuation("{") else { return }
            index += 1
            scopes.append(Scope(typeName: listed ? name : nil, defaultAccess: defaultAccess))
        }

        mutating func typeAlias() {
            guard let nameToken = token(), nameToken.kind == .identifier else { return }
            index += 1
            let (own, isPrivate) = declaredAccess
            if atTypeLevel, !isExcluded, !isPrivate, !isPunctuation("<"), !nameToken.isEscaped {
                let qualified = scopes.last?.typeName.map { "\($0).\(nameToken.text)" } ?? nameToken.text
                found.append(Found(name: qualified, parent: scopes.last?.typeName, access: own, conformances: []))
            }
            resetModifiers()
        }

        /// The conformances an inheritance clause names.
        static func conformances(in inherited: [String]) -> Set<TypeIndex.Conformance> {
            Set(inherited.compactMap(TypeIndex.Conformance.init(rawValue:)))
        }

        /// The names of an inheritance clause (`: Hashable, Sendable`) up to the body's `{`, with
        /// a `where` clause skipped; the scan stays before the `{`.
        mutating func inheritanceClause() -> [String] {
            guard isPunctuation(":") else {
                skipToBody()
                return []
            }
            index += 1
            var names: [String] = []
            var depth = 0
            while let token = token(), !(depth == 0 && token.kind == .punctuation && (token.text == "{" || token.text == "}")) {
                if token.kind == .identifier, token.text == "where", depth == 0 { break }
                if token.kind == .punctuation, ["<", "(", "["].contains(token.text) { depth += 1 }
                if token.kind == .punctuation, [">", ")", "]"].contains(token.text) { depth = max(depth - 1, 0) }
                if depth == 0, token.kind == .identifier, !isPunctuation(".", at: 1) {
                    names.append(token.text)
                }
                index += 1
            }
            skipToBody()
            return names
        }

        /// Moves to the next `{` or `}` at this level (past a `where` clause).
        mutating func skipToBody() {
            var depth = 0
            while let token = token() {
                if token.kind == .punctuation {
                    if depth == 0, token.text == "{" || token.text == "}" { return }
                    if ["<", "(", "["].contains(token.text) { depth += 1 }
                    if [">", ")", "]"].contains(token.text) { depth = max(depth - 1, 0) }
                }
                // A declaration keyword means there was no body (`typealias` or a stray keyword).
                if depth == 0, token.kind == .identifier, ["struct", "enum", "class", "actor", "func", "var", "let"].contains(token.text) { return }
                index += 1
            }
        }

        /// Skips from an opening bracket past its closing one.
        mutating func skipBalanced(open: String, close: String) {
            var depth = 0
            while let token = token() {
                if token.kind == .punctuation, token.text == open { depth += 1 }
                if token.kind == .punctuation, token.text == close || (close == ">" && token.text.hasPrefix(">")) {
                    depth -= 1
                    if depth <= 0 {
                        index += 1
                        return
                    }
                }
                if token.kind == .punctuation, token.text == "{" || token.text == "}" { return }
                index += 1
            }
        }
    }
}
