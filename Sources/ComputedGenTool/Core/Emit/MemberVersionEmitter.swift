/// Emits a state's `MemberVersioned` conformance: the version of each field and computed value by
/// name, so that a computed value of another state that reads `child.items` or
/// `child.computed.total` depends on that member only.
struct MemberVersionEmitter {
    let state: CheckedState
    let access: String
    let typeName: String
    /// Whether a computed value is cached in a `SharedMemo` (its version does not follow its value).
    let isShared: (CheckedComputed) -> Bool

    private func swiftName(_ identifier: Identifier) -> String {
        identifier.isEscaped ? "`\(identifier.name)`" : identifier.name
    }

    func emit(into writer: inout CodeWriter) {
        let computeds = state.computeds.filter { !isShared($0) }
        writer.line()
        writer.block("extension \(typeName): \(RuntimeNames.memberVersioned), ComputedRuntime._ComputedState") { writer in
            writer.doc([
                "The version of the member at `path` (`\"items\"`, `\"computed.total\"`, `\"child.items\"`), for",
                "computed values of other states that read only some members of this one.",
            ])
            writer.block("\(access)func _version(ofMember path: Swift.Substring) -> \(RuntimeNames.versionStamp)?") { writer in
                if state.fields.isEmpty && computeds.isEmpty {
                    writer.line("nil")
                    return
                }
                writer.line("let (member, rest) = \(RuntimeNames.splitMemberPath)(path)")
                writer.line("switch member {")
                for field in state.fields {
                    writer.line("case \"\(field.name)\":")
                    writer.indent { writer in
                        writer.line("return \(RuntimeNames.memberVersion)(of: \(valueExpression(field)), rest) ?? \(versionExpression(field))")
                    }
                }
                if !computeds.isEmpty {
                    writer.line("case \"computed\":")
                    writer.indent { writer in
                        writer.line("switch \(RuntimeNames.splitMemberPath)(rest).head {")
                        for computed in computeds {
                            writer.line("case \"\(computed.name)\": return computed.__\(computed.name)Version")
                        }
                        writer.line("default: return nil")
                        writer.line("}")
                    }
                }
                writer.line("default:")
                writer.line("    return nil")
                writer.line("}")
            }
            emitFieldVersions(into: &writer)
            emitMemberTable(
                into: &writer,
                root: typeName,
                // Typed: were a field's type to fail to compile, an untyped key path would resolve
                // through the state's `dynamicMember` subscript and report a second error.
                entries: state.fields.map { field in
                    let path = "\\\(typeName).\(swiftName(field.decl.name))"
                    return ("\(path) as Swift.KeyPath<\(typeName), \(SpecFragmentNames.type(of: field.name))>", field.name)
                }
                    + computeds.map { ("\\\(typeName).computed.\(swiftName($0.decl.name))", "computed.\($0.name)") }
            )
        }
        emitExtendedMembers(into: &writer, computeds: computeds)
    }

    /// `_recordFieldVersions`: every field's stamp, in order, so a store detects a change in
    /// O(fields) loads. Stamp by stamp: stamps are unique but not ordered across threads, so no
    /// single number made of them (the newest, a sum) moves exactly when a field is written.
    private func emitFieldVersions(into writer: inout CodeWriter) {
        writer.line()
        writer.doc([
            "Records the version stamp of every field, in declaration order: a store publishes a commit",
            "only when one of them moved.",
        ])
        writer.block("\(access)func _recordFieldVersions(_ versions: inout \(RuntimeNames.memoInputs)) -> Swift.Bool") { writer in
            for field in state.fields {
                writer.line("versions.record(\(versionExpression(field)))")
            }
            writer.line("return true")
        }
    }

    /// The observable members by key path, as user code outside this file spells them.
    /// Spelled with the type's name, not `Self` (a state may be named `` `Self` ``).
    private func emitMemberTable(into writer: inout CodeWriter, root: String, entries: [(keyPath: String, name: String)]) {
        writer.line()
        writer.doc([
            "The members a `Store` observes one by one, by key path, named as in the owning state's",
            "`_version(ofMember:)`.",
        ])
        let type = "ComputedRuntime._MemberTable<\(root)>"
        guard !entries.isEmpty else {
            writer.line("\(access)static let _observableMembers: \(type) = [:]")
            return
        }
        writer.line("\(access)static let _observableMembers: \(type) = [")
        writer.indent { writer in
            for entry in entries {
                writer.line("\(entry.keyPath): \"\(entry.name)\",")
            }
        }
        writer.line("]")
    }

    /// `Extended`'s members for `store.computed.x`. Wrapped (`@Edge`, `@Shared`) fields are left
    /// out: their setter is visible in this file only, so the key paths made here would not
    /// equal the read-only ones user code makes (reads of them are tracked as the whole state).
    private func emitExtendedMembers(into writer: inout CodeWriter, computeds: [CheckedComputed]) {
        let fields = state.fields.filter { !($0.isEdge || $0.isShared) }
        writer.line()
        writer.block("extension \(typeName).Extended: ComputedRuntime._ObservableMembers") { writer in
            emitMemberTable(
                into: &writer,
                root: "\(typeName).Extended",
                entries: fields.map { ("\\\(typeName).Extended.\(swiftName($0.decl.name))", $0.name) }
                    + computeds.map { ("\\\(typeName).Extended.\(swiftName($0.decl.name))", "computed.\($0.name)") }
            )
        }
    }

    private func valueExpression(_ field: CheckedField) -> String {
        field.isEdge || field.isShared ? "computed.\(swiftName(field.decl.name))" : "computed._\(field.name).wrappedValue"
    }

    private func versionExpression(_ field: CheckedField) -> String {
        field.isEdge || field.isShared ? "computed.$\(field.name).version" : "computed._\(field.name).version"
    }
}
