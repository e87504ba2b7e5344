/// Computed values declared as a `ListView<…>` (see `DerivedCollectionTypes`).
extension StateChecker {
    /// A `ListView` is maintained from an `IdentifiedList` field: one that reads an array field
    /// and no `IdentifiedList` field cannot be, and would otherwise fail to compile in the
    /// generated file with a message about protocol conformances. Reported at the computed's type,
    /// with both fixes. (Anything else a `ListView`'s body may read, such as a typealias of a list,
    /// is left to the compiler, which reports a body that builds no query at the body's spec line.)
    mutating func checkDerivedCollections(inputs: [ResolvedInputs]) {
        for (computed, resolved) in zip(computeds, inputs) {
            guard let type = computed.type,
                DerivedCollectionTypes.isListView(type.text) || DerivedCollectionTypes.isListGroups(type.text)
            else { continue }
            let fieldsRead = resolved.inputs.compactMap { input -> (name: String, type: String)? in
                guard case .field(let name) = input, let type = fieldTypes[name] else { return nil }
                return (name, type)
            }
            guard !fieldsRead.contains(where: { DerivedCollectionTypes.isIdentifiedList($0.type) }),
                let array = fieldsRead.first(where: { DerivedCollectionTypes.isArray($0.type) })
            else { continue }
            let name = computed.name.name
            let element = Self.elementType(ofArray: array.type)
            let isGroups = DerivedCollectionTypes.isListGroups(type.text)
            let ordinary = isGroups ? "an ordinary type (such as a dictionary of arrays)" : "'[\(element)]'"
            let message = "computed '\(name)' is a '\(isGroups ? "ListGroups" : "ListView")', maintained incrementally from an "
                + "'IdentifiedList' field, but it reads the array '\(array.name)'; declare 'var \(array.name): IdentifiedList<\(element)>', "
                + "or declare '\(name)' as \(ordinary) to recompute it in full after each change"
            report(message, at: type.location)
        }
    }

    /// `Message` for `[Message]` or `Array<Message>`.
    static func elementType(ofArray type: String) -> String {
        let compact = DerivedCollectionTypes.compact(type)
        if compact.hasPrefix("[") { return String(compact.dropFirst().dropLast()) }
        guard let open = compact.firstIndex(of: "<") else { return compact }
        return String(compact[compact.index(after: open)...].dropLast())
    }
}
