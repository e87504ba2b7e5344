/// Emits the conformances a spec asks for: `Equatable`, `Hashable`, `Codable`/`Encodable`/
/// `Decodable`. (`CustomReflectable`, which every state has, comes from its table: `TableEmitter`.)
///
/// Equality compares fields only (memo cells never): a plain field first by version stamp, then by
/// value; an `@Edge` field by its `Edge` equality (stamp, then value when `Equatable`).
struct ConformanceEmitter {
    /// Conformances written as extensions here rather than in the struct's inheritance clause.
    static let handled: Set<String> = ["Equatable", "Hashable", "Codable", "Encodable", "Decodable", "Sendable"]

    let state: CheckedState
    let access: String
    let typeName: String

    private var wantsHashable: Bool { state.conforms(to: "Hashable") }
    private var wantsEquatable: Bool { wantsHashable || state.conforms(to: "Equatable") }
    private var wantsEncodable: Bool { state.conforms(to: "Codable") || state.conforms(to: "Encodable") }
    private var wantsDecodable: Bool { state.conforms(to: "Codable") || state.conforms(to: "Decodable") }

    private func swiftName(_ field: CheckedField) -> String {
        field.decl.name.isEscaped ? "`\(field.name)`" : field.name
    }



    /// The fields `Codable` covers: `@Shared` fields persist through their own storage instead.
    private var codedFields: [CheckedField] {
        state.fields.filter { !$0.isShared }
    }

    func emit(into writer: inout CodeWriter) {
        if wantsEquatable { emitEquatable(into: &writer) }
        if wantsHashable { emitHashable(into: &writer) }
        if wantsEncodable || wantsDecodable { emitCodingKeys(into: &writer) }
        if wantsEncodable { emitEncodable(into: &writer) }
        if wantsDecodable { emitDecodable(into: &writer) }
    }

    private func emitEquatable(into writer: inout CodeWriter) {
        writer.line()
        writer.block("extension \(typeName): Equatable") { writer in
            writer.doc([
                "Two states are equal when their fields are: equal version stamps decide without comparing",
                "values. Cached computed values are never compared.",
            ])
            writer.block("\(access)static func == (lhs: \(typeName), rhs: \(typeName)) -> Swift.Bool") { writer in
                if state.fields.isEmpty {
                    writer.line("true")
                    return
                }
                // One statement per field: a single `&&` chain takes the type checker time that
                // grows with the number of fields (40 fields: "unable to type-check this
                // expression in reasonable time").
                for field in state.fields {
                    let member = field.isEdge || field.isShared ? "$\(field.name)" : "_\(field.name)"
                    writer.line("guard lhs.computed.\(member) == rhs.computed.\(member) else { return false }")
                }
                writer.line("return true")
            }
        }
    }

    private func emitHashable(into writer: inout CodeWriter) {
        writer.line()
        writer.block("extension \(typeName): Hashable") { writer in
            writer.doc(["Hashes the fields' values (never version stamps), consistently with `==`."])
            writer.block("\(access)func hash(into hasher: inout Swift.Hasher)") { writer in
                for field in state.fields {
                    writer.line("hasher.combine(self.computed.\(swiftName(field)))")
                }
            }
        }
    }

    private func emitCodingKeys(into writer: inout CodeWriter) {
        writer.line()
        writer.block("extension \(typeName)") { writer in
            // An enum without cases cannot have a raw type.
            let rawType = codedFields.isEmpty ? "" : "Swift.String, "
            writer.block("fileprivate enum CodingKeys: \(rawType)Swift.CodingKey") { writer in
                for field in codedFields {
                    writer.line("case \(swiftName(field))")
                }
            }
        }
    }

    private func emitEncodable(into writer: inout CodeWriter) {
        writer.line()
        writer.block("extension \(typeName): Encodable") { writer in
            let hasShared = codedFields.count < state.fields.count
            writer.doc(hasShared ? [
                "Encodes the fields; cached computed values, version stamps and `@Shared` fields (which",
                "persist through their own storage) are not encoded.",
            ] : ["Encodes the fields; cached computed values and version stamps are not encoded."])
            writer.block("\(access)func encode(to encoder: any Swift.Encoder) throws") { writer in
                if codedFields.isEmpty {
                    writer.line("_ = encoder.container(keyedBy: CodingKeys.self)")
                    return
                }
                writer.line("var container = encoder.container(keyedBy: CodingKeys.self)")
                for field in codedFields {
                    writer.line("try container.encode(self.computed.\(swiftName(field)), forKey: .\(swiftName(field)))")
                }
            }
        }
    }

    private func emitDecodable(into writer: inout CodeWriter) {
        writer.line()
        writer.block("extension \(typeName): Decodable") { writer in
            writer.doc([
                "Decodes the fields; a missing key takes the spec's default value when there is one.",
                codedFields.count < state.fields.count
                    ? "Every decoded field gets a new version stamp; `@Shared` fields come from their storage."
                    : "Every decoded field gets a new version stamp.",
            ])
            writer.block("\(access)init(from decoder: any Swift.Decoder) throws") { writer in
                if codedFields.isEmpty {
                    writer.line("_ = try decoder.container(keyedBy: CodingKeys.self)")
                    writer.line("self.init()")
                    return
                }
                // One statement per field, then `Extended` directly, not `self.init`: when a field's
                // type fails to compile, Swift skips the initializer that uses it and would report a
                // misleading mismatch against `init(from:)` beside the error at the spec.
                writer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
                for field in codedFields {
                    let type = SpecFragmentNames.type(of: field.name)
                    let key = swiftName(field)
                    let decode = field.decl.defaultValue == nil
                        ? "try container.decode(\(type).self, forKey: .\(key))"
                        : "try container.decodeIfPresent(\(type).self, forKey: .\(key)) ?? Extended.\(SpecFragmentNames.defaultValue(of: field))"
                    writer.line("let _\(field.name): \(type) = \(decode)")
                }
                let arguments = state.fields.map { field -> String in
                    let label = SpecFragmentNames.argumentLabel(field)
                    guard field.isShared else { return "\(label): _\(field.name)" }
                    let value = "Extended.\(SpecFragmentNames.defaultValue(of: field))"
                    let strategy = "Extended.\(SpecFragmentNames.attributeArgument("Strategy", of: field, occurrence: 1))"
                    return "\(label): \(RuntimeNames.shared)(wrappedValue: \(value), \(strategy))"
                }
                writer.call("computed = Extended.__make", arguments: arguments)
            }
        }
    }
}
