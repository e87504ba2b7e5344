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
        writer.block("extension \(typeName): \(RuntimeNames.memberVersioned)") { writer in
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
        }
    }

    private func valueExpression(_ field: CheckedField) -> String {
        field.isEdge || field.isShared ? "computed.\(swiftName(field.decl.name))" : "computed._\(field.name).wrappedValue"
    }

    private func versionExpression(_ field: CheckedField) -> String {
        field.isEdge || field.isShared ? "computed.$\(field.name).version" : "computed._\(field.name).version"
    }
}
