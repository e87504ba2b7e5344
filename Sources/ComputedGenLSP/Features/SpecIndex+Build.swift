import ComputedGenCore

extension SpecIndex {
    /// Indexes one state: its members, their inputs and readers, the occurrences of their names
    /// and the Swift code spans.
    mutating func index(_ state: StateDecl, at stateIndex: Int) {
        stateRanges.append(state.location.offset..<max(state.location.offset + 1, state.endLocation.offset + 1))
        var ids: [MemberID] = []
        var inputIDs: [String: MemberID] = [:]
        for (memberIndex, member) in state.members.enumerated() {
            let id = MemberID(state: stateIndex, member: memberIndex)
            ids.append(id)
            if case .selector = member { continue }
            if inputIDs[member.name.name] == nil { inputIDs[member.name.name] = id }
        }
        membersByState.append(ids)

        var readers: [MemberID: [String]] = [:]
        for (memberIndex, member) in state.members.enumerated() {
            let id = ids[memberIndex]
            let nameRange = Self.range(of: member.name)
            occurrences.append(Occurrence(range: nameRange, target: id, role: .declaration))
            addCodeSpans(of: member, id: id)
            let inputs = resolveInputs(of: member, id: id, inputIDs: inputIDs)
            let symbol = MemberSymbol(
                id: id,
                kind: Self.kind(of: member),
                member: member,
                stateName: state.name.name,
                name: member.name,
                nameRange: nameRange,
                range: Self.start(of: member)..<Self.end(of: member),
                inputs: inputs.map { state.members[$0.member].name.name }
            )
            for input in inputs { readers[input, default: []].append(symbol.displayName) }
            members[id] = symbol
        }
        for (id, names) in readers { members[id]?.readers = names }
    }

    /// Resolves a member's inputs and records the occurrences of the names it reads.
    private mutating func resolveInputs(of member: Member, id: MemberID, inputIDs: [String: MemberID]) -> [MemberID] {
        let explicit: [Identifier]?
        let body: Body?
        var parameters: Set<String> = []
        switch member {
        case .field:
            return []
        case .computed(let decl):
            explicit = decl.explicitInputs
            body = decl.body
        case .selector(let decl):
            explicit = decl.explicitInputs
            body = decl.body
            parameters = Set(decl.parameters.map(\.name.name))
        }
        var inputs: [MemberID] = []
        var seen: Set<MemberID> = []
        for name in explicit ?? [] {
            guard let target = inputIDs[name.name] else { continue }
            occurrences.append(Occurrence(range: Self.range(of: name), target: target, role: .fromList))
            if seen.insert(target).inserted { inputs.append(target) }
        }
        if let body, body.openBrace != member.name.location {
            for reference in IdentifierReferences.list(in: body) where !parameters.contains(reference.name) {
                guard let target = inputIDs[reference.name] else { continue }
                occurrences.append(Occurrence(range: Self.range(of: reference), target: target, role: .bodyReference))
                if explicit == nil, seen.insert(target).inserted { inputs.append(target) }
            }
        }
        return inputs
    }

    private mutating func addCodeSpans(of member: Member, id: MemberID) {
        func addType(_ type: SourceText?) {
            if let type { codeSpans.append(CodeSpan(range: Self.range(of: type), kind: .type)) }
        }
        switch member {
        case .field(let decl):
            for argument in decl.attributes.flatMap({ $0.arguments ?? [] }) {
                codeSpans.append(CodeSpan(range: Self.range(of: argument.value), kind: .attributeArgument))
            }
            addType(decl.type)
            if let value = decl.defaultValue { codeSpans.append(CodeSpan(range: Self.range(of: value), kind: .defaultValue)) }
        case .computed(let decl):
            addType(decl.type)
            addBody(decl.body, of: decl.name, id: id)
        case .selector(let decl):
            for parameter in decl.parameters { addType(parameter.type) }
            addType(decl.returnType)
            addBody(decl.body, of: decl.name, id: id)
        }
    }

    private mutating func addBody(_ body: Body, of name: Identifier, id: MemberID) {
        guard body.openBrace != name.location else { return }
        let start = body.location.offset
        codeSpans.append(CodeSpan(range: start..<(start + body.text.utf8.count), kind: .body(id)))
    }

    static func kind(of member: Member) -> MemberSymbol.Kind {
        switch member {
        case .field: .field
        case .computed: .computed
        case .selector: .selector
        }
    }

    /// The offset where a member's declaration starts (its first attribute or keyword).
    static func start(of member: Member) -> Int {
        switch member {
        case .field(let decl): decl.location.offset
        case .computed(let decl): decl.location.offset
        case .selector(let decl): decl.location.offset
        }
    }

    /// The offset one past a member's declaration: after its body's `}`, its default value, its
    /// type or its name, whichever the parser read last.
    static func end(of member: Member) -> Int {
        var end = range(of: member.name).upperBound
        switch member {
        case .field(let decl):
            if let type = decl.type { end = max(end, range(of: type).upperBound) }
            if let value = decl.defaultValue { end = max(end, range(of: value).upperBound) }
        case .computed(let decl):
            if let type = decl.type { end = max(end, range(of: type).upperBound) }
            if decl.body.openBrace != decl.name.location { end = max(end, decl.body.location.offset + decl.body.text.utf8.count + 1) }
        case .selector(let decl):
            if let type = decl.returnType { end = max(end, range(of: type).upperBound) }
            if decl.body.openBrace != decl.name.location { end = max(end, decl.body.location.offset + decl.body.text.utf8.count + 1) }
        }
        return end
    }
}
