/// The inputs of a computed value as generated code writes them: the names it reads, resolved
/// to indices once, when the table is built.

extension StateTable {
    /// Resolves the inputs a table entry names (`"count shelf.computed.total"`): the members its
    /// body reads, separated by spaces, each a field, a computed value, or a member of a field
    /// whose type is a generated state (`shelf.computed.total`, `shelf.books.count`). Names are a
    /// string literal in generated code, so that an entry costs the user's build no code for its
    /// inputs; they are resolved once, when the table is built, after every member is described
    /// (a computed value may read one described after it). `fields` and `computeds` are the
    /// members' indices by name.
    static func resolveInputs(_ names: StaticString, fields: [Substring: Int], computeds: [Substring: Int], of computed: String) -> [Input] {
        names.description.split(separator: " ").map { name in
            let head = name.prefix { $0 != "." }
            if let field = fields[head] {
                return head.count == name.count ? .field(field) : .member(field, String(name.dropFirst(head.count + 1)))
            }
            guard head.count == name.count, let index = computeds[head] else {
                preconditionFailure("StateTable: '\(computed)' reads '\(name)', which is no member of the table")
            }
            return .computed(index)
        }
    }

    /// The resolved inputs of an entry: filled by the table's `init` (after every member is
    /// described), read by a refresh that records them itself (a value maintained incrementally)
    /// without copying the entry.
    final class ResolvedInputs: @unchecked Sendable {
        // Safety: written once, by the table's `init`, before the table is published.
        var inputs: [Input] = []
        /// Each input's list version reader, when the input is an ``IdentifiedList`` field.
        var lists: [((UnsafeRawPointer) -> ListVersion)?] = []
    }
}

extension StateTable.Builder {
    /// Resolves every computed value's inputs by name, given the members' indices by name.
    func resolveInputs(fields fieldIndex: [Substring: Int], computeds computedIndex: [Substring: Int]) {
        for computed in computeds {
            let inputs = StateTable.resolveInputs(computed.declaredInputs, fields: fieldIndex, computeds: computedIndex, of: computed.name)
            computed.resolvedInputs.inputs = inputs
            computed.resolvedInputs.lists = inputs.map { input in
                guard case .field(let field) = input else { return nil }
                return fields[field].listVersion
            }
        }
    }
}
