import ComputedGenCore

/// The outline (`textDocument/documentSymbol`): each state with its members as children.
public enum SymbolsFeature {
    /// LSP `SymbolKind`s.
    enum Kind {
        static let method = 6
        static let property = 7
        static let field = 8
        static let `struct` = 23
    }

    /// The hierarchical document symbols of `document`, states in source order.
    public static func documentSymbols(_ document: SpecDocument) -> JSONValue {
        let index = document.index
        let states = index.file.states.enumerated().map { stateIndex, state -> JSONValue in
            let children = index.membersByState[stateIndex].compactMap { index.members[$0] }.map { member -> JSONValue in
                var symbol: [String: JSONValue] = [
                    "name": .string(member.displayName),
                    "kind": .int(kind(of: member)),
                    "range": document.lines.range(from: member.range.lowerBound, to: member.range.upperBound).json,
                    "selectionRange": document.lines.range(from: member.nameRange.lowerBound, to: member.nameRange.upperBound).json,
                ]
                if let type = member.type { symbol["detail"] = .string(type) }
                return .object(symbol)
            }
            let range = index.stateRanges[stateIndex]
            let name = SpecIndex.range(of: state.name)
            return [
                "name": .string(state.name.name),
                "detail": .string(state.conformances.map(\.name).joined(separator: ", ")),
                "kind": .int(Kind.struct),
                "range": document.lines.range(from: range.lowerBound, to: range.upperBound).json,
                "selectionRange": document.lines.range(from: name.lowerBound, to: name.upperBound).json,
                "children": .array(children),
            ]
        }
        return .array(states)
    }

    static func kind(of member: MemberSymbol) -> Int {
        switch member.kind {
        case .field: Kind.field
        case .computed: Kind.property
        case .selector: Kind.method
        }
    }
}
