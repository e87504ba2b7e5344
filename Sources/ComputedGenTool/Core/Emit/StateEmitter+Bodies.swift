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
                    emitBody(header: header, body: computed.decl.body, into: &writer)
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
                        let result = SpecFragmentNames.result(ofSelectorStorage: storage)
                        let header = "static func \(name)(\((parameters + inputs).joined(separator: ", "))) -> \(result)"
                        emitBody(header: header, body: selector.decl.body, into: &writer)
                    }
                }
            }
        }
    }

    /// Emits `header {`, then the body verbatim under `#sourceLocation` (so its lines and columns
    /// are the spec's) with its closing `}` at the spec's position.
    ///
    /// The header names the return type by its alias, like every other generated declaration, so
    /// that a misspelled type is reported once, at the alias (spelling the type here too would
    /// report it twice). A body's type errors then name the alias with its type, as they do for
    /// its inputs: "cannot convert return expression of type 'Int' to return type
    /// 'Form.__titleType' (aka 'String')". (One error reads worse against an alias, as of Swift
    /// 6.3: `todos.first ?? "none"` for an `Int` gets "conflicting arguments to generic parameter
    /// 'T' ('Int' vs. 'Form.__xType')" at `??` rather than a conversion error at `"none"`.)
    func emitBody(header: String, body: Body, into writer: inout CodeWriter) {
        writer.line(header + " {")
        for line in BodyLayout(body).lines(sourcePath: source.pathLiteral) {
            writer.verbatim(line)
        }
    }
}
