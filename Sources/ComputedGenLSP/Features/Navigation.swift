import ComputedGenCore

/// Go to definition, find references and rename, for the members of a spec.
///
/// A member is named by its declaration, by `from` lists and by the bodies that read it (the
/// references the generator infers inputs from). Only the spec is searched and edited: Swift code
/// that uses the generated API is the Swift language server's.
public enum NavigationFeature {
    /// The location of the declaration of the member named at `offset`, or `nil`.
    public static func definition(in document: SpecDocument, at offset: Int) -> JSONValue? {
        guard let occurrence = document.index.occurrence(at: offset),
            let member = document.index.members[occurrence.target]
        else { return nil }
        return location(member.nameRange, in: document)
    }

    /// Every place that names the member named at `offset`.
    public static func references(in document: SpecDocument, at offset: Int, includeDeclaration: Bool) -> JSONValue {
        guard let occurrence = document.index.occurrence(at: offset) else { return .array([]) }
        let found = document.index.occurrences(of: occurrence.target).filter { includeDeclaration || $0.role != .declaration }
        return .array(found.map { location($0.range, in: document) })
    }

    /// The range and current name of the member named at `offset`, or `nil` where nothing can
    /// be renamed (the client then says so).
    public static func prepareRename(in document: SpecDocument, at offset: Int) -> JSONValue? {
        guard let occurrence = document.index.occurrence(at: offset),
            let member = document.index.members[occurrence.target]
        else { return nil }
        let range = document.lines.range(from: occurrence.range.lowerBound, to: occurrence.range.upperBound)
        return ["range": range.json, "placeholder": .string(member.name.name)]
    }

    /// The edits that rename the member named at `offset` to `newName` everywhere in the spec.
    ///
    /// - Throws: RequestFailed when nothing is named at `offset`, when `newName` is not an
    ///   identifier, or when the state already has a field or computed value of that name (the
    ///   rename would make references resolve to another member).
    public static func rename(in document: SpecDocument, at offset: Int, to newName: String) throws(ResponseError) -> JSONValue {
        guard let occurrence = document.index.occurrence(at: offset),
            let member = document.index.members[occurrence.target]
        else { throw ResponseError.requestFailed("no field, computed value or selector is named here") }
        let spelling = try self.spelling(of: newName)
        if newName != member.name.name {
            let clash = document.index.membersByState[member.id.state].compactMap { document.index.members[$0] }.first { other in
                other.name.name == newName && (other.kind != .selector || member.kind == .selector)
            }
            if let clash {
                throw ResponseError.requestFailed("state '\(member.stateName)' already has a \(clash.kind.rawValue) named '\(newName)'")
            }
            if member.kind != .selector, let reader = selectorShadowing(newName, of: member, in: document) {
                throw ResponseError.requestFailed("'\(newName)' is a parameter of selector '\(reader)', whose body reads '\(member.name.name)'")
            }
        }
        let edits = document.index.occurrences(of: occurrence.target).map { occurrence -> JSONValue in
            let range = document.lines.range(from: occurrence.range.lowerBound, to: occurrence.range.upperBound)
            return ["range": range.json, "newText": .string(spelling)]
        }
        return ["changes": [document.uri: .array(edits)]]
    }

    /// `name` as it must be written: in backticks when it is a Swift keyword.
    ///
    /// - Throws: RequestFailed when `name` is not one identifier.
    static func spelling(of name: String) throws(ResponseError) -> String {
        let bare = name.hasPrefix("`") && name.hasSuffix("`") && name.count > 2 ? String(name.dropFirst().dropLast()) : name
        let tokens = Lexer.tokenize(bare)
        guard tokens.errors.isEmpty, tokens.tokens.count == 1, let token = tokens.tokens.first, token.kind == .identifier,
            !token.isEscaped, token.location.offset == 0, token.endOffset == bare.utf8.count,
            !bare.hasPrefix("$"), !bare.hasPrefix("_"), bare != "_"
        else { throw ResponseError.requestFailed("'\(name)' is not a valid member name") }
        return SwiftKeywords.isReserved(bare) ? "`" + bare + "`" : bare
    }

    /// A selector whose body reads `member` and has a parameter named `name`.
    private static func selectorShadowing(_ name: String, of member: MemberSymbol, in document: SpecDocument) -> String? {
        for id in document.index.membersByState[member.id.state] {
            guard let reader = document.index.members[id], case .selector(let decl) = reader.member,
                decl.parameters.contains(where: { $0.name.name == name }), reader.inputs.contains(member.name.name)
            else { continue }
            return reader.displayName
        }
        return nil
    }

    static func location(_ range: Range<Int>, in document: SpecDocument) -> JSONValue {
        ["uri": .string(document.uri), "range": document.lines.range(from: range.lowerBound, to: range.upperBound).json]
    }
}
