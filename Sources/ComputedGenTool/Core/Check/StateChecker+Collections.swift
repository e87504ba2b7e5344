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
                    || DerivedCollectionTypes.isListSections(type.text)
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
            let kind = DerivedCollectionTypes.isListGroups(type.text) ? "ListGroups"
                : DerivedCollectionTypes.isListSections(type.text) ? "ListSections" : "ListView"
            let ordinary = kind == "ListView" ? "'[\(element)]'" : "an ordinary type (such as a dictionary of arrays)"
            let message = "computed '\(name)' is a '\(kind)', maintained incrementally from an "
                + "'IdentifiedList' field, but it reads the array '\(array.name)'; declare 'var \(array.name): IdentifiedList<\(element)>', "
                + "or declare '\(name)' as \(ordinary) to recompute it in full after each change"
            report(message, at: type.location)
        }
    }

    /// Sections in order: a `ListSections` orders the keys of a grouped list
    /// (`articles.grouped(by: \.feedID).sortedKeys(…)`), and `.sortedKeys` after `grouped(by:)`
    /// gives sections, which only a `ListSections` holds (otherwise the compiler would report a
    /// type mismatch about an opaque query). Reported at the type, or at `sortedKeys`.
    mutating func checkSectionOrders() {
        for computed in computeds {
            guard let type = computed.type else { continue }
            let isSections = DerivedCollectionTypes.isListSections(type.text)
            let calls = SectionOrders.calls(in: computed.body)
            let name = computed.name.name
            if isSections, calls.isEmpty {
                report("computed '\(name)' is a 'ListSections', groups in an order of their keys, but its body orders no keys; "
                       + "end it with '.grouped(by: …).sortedKeys(…)', as in 'articles.grouped(by: \\.feedID).sortedKeys()'",
                       at: type.location)
            }
            for call in calls {
                if isSections, call.previousMember != "grouped" {
                    report("'sortedKeys' orders the keys of groups: call it on 'grouped(by:)', as in "
                           + "'articles.grouped(by: \\.feedID).sortedKeys()'", at: call.location)
                } else if !isSections, call.previousMember == "grouped" {
                    report("'grouped(by:).sortedKeys' gives sections in order: declare '\(name)' as 'ListSections<Key, Element>' "
                           + "(or drop 'sortedKeys' and declare it as 'ListGroups<Key, Element>')", at: call.location)
                }
            }
        }
    }

    /// `Message` for `[Message]`, `Array<Message>` or `ListView<Message>`.
    static func elementType(ofArray type: String) -> String {
        let compact = DerivedCollectionTypes.compact(type)
        if compact.hasPrefix("[") { return String(compact.dropFirst().dropLast()) }
        guard let open = compact.firstIndex(of: "<") else { return compact }
        return String(compact[compact.index(after: open)...].dropLast())
    }
}
