/// The spec's bodies as functions of exactly their inputs, under `#sourceLocation`.
extension StateEmitter {
    func emitBodies(into writer: inout CodeWriter) {
        writer.block("extension \(typeName)") { writer in
            writer.doc([
                "The computed bodies from the spec. Each is a function of exactly its inputs, so a body",
                "cannot read state it did not declare.",
            ])
            writer.block("fileprivate enum _ComputedBodies") { writer in
                for (index, computed) in state.computeds.enumerated() {
                    if index > 0 { writer.line() }
                    let parameters = computed.inputs.map { "_ \(swiftName(of: $0)): \(inputType($0))" }
                    let header = "static func \(swiftName(computed.decl.name))(\(parameters.joined(separator: ", "))) -> \(bodyReturnType(of: computed))"
                    emitBody(header: header, returnType: computed.decl.type, body: computed.decl.body, into: &writer)
                }
            }
            if !state.selectors.isEmpty {
                writer.line()
                writer.doc(["The selector bodies from the spec: each a function of its parameters and inputs."])
                writer.block("fileprivate enum _SelectorBodies") { writer in
                    let storageNames = Self.storageNames(of: state.selectors)
                    for (index, (selector, storage)) in zip(state.selectors, storageNames).enumerated() {
                        if index > 0 { writer.line() }
                        let parameters = selector.decl.parameters.map { parameter -> String in
                            let label = parameter.label.map(labelName).map { $0 + " " } ?? ""
                            return "\(label)\(swiftName(parameter.name)): \(SpecFragmentNames.parameter(parameter, ofSelectorStorage: storage))"
                        }
                        let inputs = selector.inputs.map { "_ \(swiftName(of: $0)): \(inputType($0))" }
                        let name = bodyFunctionName(of: selector, storage: storage)
                        let header = "static func \(name)(\((parameters + inputs).joined(separator: ", "))) -> \(selector.returnType)"
                        emitBody(header: header, returnType: selector.decl.returnType, body: selector.decl.body, into: &writer)
                    }
                }
            }
        }
    }

    /// Emits `header {`, the body verbatim under `#sourceLocation` (so its lines and columns are
    /// the spec's), and `}`.
    ///
    /// The header spells the return type as the spec does, not through its alias: Swift words some
    /// errors in a body worse against an alias (`conflicting arguments to generic parameter 'T'
    /// ('Int' vs. 'A')` instead of `cannot convert value of type 'String' to expected argument
    /// type 'Int'`). So that a misspelled type is still reported in the spec, the header sits at
    /// the type's spec line.
    func emitBody(header: String, returnType: SourceText?, body: Body, into writer: inout CodeWriter) {
        if let returnType {
            writer.verbatim("#sourceLocation(file: \(source.pathLiteral), line: \(returnType.location.line))")
            writer.line(header + " {")
            writer.verbatim("#sourceLocation()")
        } else {
            writer.line(header + " {")
        }
        for line in BodyLayout(body).lines(sourcePath: source.pathLiteral) {
            writer.verbatim(line)
        }
        writer.line("}")
    }
}
