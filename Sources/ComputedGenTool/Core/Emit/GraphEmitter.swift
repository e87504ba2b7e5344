/// Renders the dependency graph of a checked spec: fields and computed values as nodes, an edge
/// from each input to what reads it.
public enum GraphEmitter {
    /// The output formats of `ComputedGenTool graph`.
    public enum Format: String, CaseIterable, Sendable {
        /// A Mermaid `flowchart`, which GitHub renders in Markdown.
        case mermaid
        /// Graphviz DOT.
        case dot
    }

    /// Renders every state of `spec` in `format`.
    public static func render(_ spec: CheckedSpec, format: Format) -> String {
        switch format {
        case .mermaid: mermaid(spec)
        case .dot: dot(spec)
        }
    }

    private struct Edge {
        var from: String
        var to: String
    }

    private static func edges(of state: CheckedState) -> [Edge] {
        var edges: [Edge] = []
        for computed in state.computeds {
            for input in computed.inputs {
                edges.append(Edge(from: input.name, to: computed.name))
            }
        }
        for selector in state.selectors {
            for input in selector.inputs {
                edges.append(Edge(from: input.name, to: selectorNode(selector)))
            }
        }
        return edges
    }

    private static func selectorNode(_ selector: CheckedSelector) -> String {
        selector.name + "(" + selector.decl.parameters.map { $0.callLabel + ":" }.joined() + ")"
    }

    /// Mermaid node ids by node name: `s<state>_<n>`, numbered in declaration order, so that no two
    /// nodes collide whatever their names (`f(x:)` and `f_x__` would if ids were derived from names).
    private static func mermaidIDs(_ state: CheckedState, stateIndex: Int) -> [String: String] {
        let names = state.fields.map(\.name) + state.computeds.map(\.name) + state.selectors.map(selectorNode)
        var ids: [String: String] = [:]
        for (index, name) in names.enumerated() where ids[name] == nil {
            ids[name] = "s\(stateIndex)_\(index)"
        }
        return ids
    }

    /// A Mermaid label: quotes are not allowed inside `["…"]`, so they become `#quot;`.
    private static func mermaidLabel(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "#quot;")
    }

    private static func mermaid(_ spec: CheckedSpec) -> String {
        var lines = ["flowchart LR"]
        for (stateIndex, state) in spec.states.enumerated() {
            let ids = mermaidIDs(state, stateIndex: stateIndex)
            lines.append("  subgraph s\(stateIndex)[\"\(mermaidLabel(state.name))\"]")
            for field in state.fields {
                lines.append("    \(ids[field.name]!)[\"\(mermaidLabel(field.name))\"]")
            }
            for computed in state.computeds {
                lines.append("    \(ids[computed.name]!)([\"\(mermaidLabel(computed.name))\"])")
            }
            for selector in state.selectors {
                let node = selectorNode(selector)
                lines.append("    \(ids[node]!)[[\"\(mermaidLabel(node))\"]]")
            }
            for edge in edges(of: state) {
                guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
                lines.append("    \(from) --> \(to)")
            }
            lines.append("  end")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func dotID(_ state: CheckedState, _ node: String) -> String {
        "\"\(state.name).\(node)\""
    }

    private static func dot(_ spec: CheckedSpec) -> String {
        var lines = ["digraph ComputedGen {", "  rankdir=LR;"]
        for (index, state) in spec.states.enumerated() {
            lines.append("  subgraph cluster_\(index) {")
            lines.append("    label=\"\(state.name)\";")
            for field in state.fields {
                lines.append("    \(dotID(state, field.name)) [label=\"\(field.name)\", shape=box];")
            }
            for computed in state.computeds {
                lines.append("    \(dotID(state, computed.name)) [label=\"\(computed.name)\", shape=ellipse];")
            }
            for selector in state.selectors {
                let node = selectorNode(selector)
                lines.append("    \(dotID(state, node)) [label=\"\(node)\", shape=component];")
            }
            for edge in edges(of: state) {
                lines.append("    \(dotID(state, edge.from)) -> \(dotID(state, edge.to));")
            }
            lines.append("  }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
