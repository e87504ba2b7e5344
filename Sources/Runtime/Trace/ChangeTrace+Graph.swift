/// A picture of where the work went: a state's dependency graph, drawn from its table, with each
/// value annotated with what a trace saw it do.
extension ChangeTrace {
    /// The languages ``dependencyGraph(of:format:)`` draws in.
    public enum GraphFormat: Sendable {
        /// Mermaid (`flowchart LR`), which GitHub, GitLab and DocC-rendered Markdown show.
        case mermaid
        /// Graphviz DOT (`dot -Tsvg`).
        case dot
    }

    /// The dependency graph of the generated state `State`: a box per field, a rounded node per
    /// computed value, an arrow from each input to each value that reads it (labelled with the
    /// member read, for a nested state's member), each value annotated with this trace's
    /// statistics for it: recomputations, cutoffs, refreshes that kept it, and time.
    ///
    /// Values are colored by what the trace saw: recomputed (amber), mostly cut off, work done
    /// for nothing (red, as ``warnings`` flags them), only kept or never refreshed (grey).
    ///
    /// ```swift
    /// let trace = ChangeTrace.record { _ in … }
    /// print(trace.dependencyGraph(of: TodoState.self))             // Mermaid
    /// try trace.dependencyGraph(of: TodoState.self, format: .dot)   // dot -Tsvg
    ///     .write(toFile: "todo.dot", atomically: true, encoding: .utf8)
    /// ```
    public func dependencyGraph<State: _TableDrivenState>(of state: State.Type, format: GraphFormat = .mermaid) -> String {
        let table = State.Extended.__table
        let stateName = String(describing: State.self)
        let statistics = self.statistics
        var nodes: [GraphNode] = table.fields.map { GraphNode(id: "f_\($0.name)", label: [$0.name], kind: .field) }
        for computed in table.computeds {
            let numbers = statistics[ValueID(state: stateName, name: computed.name)] ?? Statistics()
            nodes.append(GraphNode(id: "v_\(computed.name)", label: [computed.name] + Self.annotation(numbers), kind: Self.kind(numbers)))
        }
        var edges: [GraphEdge] = []
        for computed in table.computeds {
            for input in computed.inputs {
                switch input {
                case .field(let index): edges.append(GraphEdge(from: "f_\(table.fields[index].name)", to: "v_\(computed.name)", label: nil))
                case .computed(let index): edges.append(GraphEdge(from: "v_\(table.computeds[index].name)", to: "v_\(computed.name)", label: nil))
                case .member(let index, let path): edges.append(GraphEdge(from: "f_\(table.fields[index].name)", to: "v_\(computed.name)", label: String(path)))
                }
            }
        }
        switch format {
        case .mermaid: return Self.mermaid(nodes, edges)
        case .dot: return Self.dot(stateName, nodes, edges)
        }
    }

    private struct GraphNode {
        enum Kind { case field, recomputed, wasteful, idle }
        let id: String
        let label: [String]
        let kind: Kind
    }

    private struct GraphEdge {
        let from: String
        let to: String
        let label: String?
    }

    /// `3 recomputed · 1 cut off`, `2 kept`, `0.12 ms`: what the value did, the lines empty when nothing.
    private static func annotation(_ numbers: Statistics) -> [String] {
        var counts: [String] = []
        if numbers.recomputations > 0 { counts.append("\(numbers.recomputations) recomputed") }
        if numbers.cutOffs > 0 { counts.append("\(numbers.cutOffs) cut off") }
        if numbers.keptCount > 0 { counts.append("\(numbers.keptCount) kept") }
        if numbers.cacheHits > 0 { counts.append("\(numbers.cacheHits) cache hits") }
        guard !counts.isEmpty else { return ["not refreshed"] }
        return [counts.joined(separator: " · "), formatted(numbers.time)]
    }

    private static func kind(_ numbers: Statistics) -> GraphNode.Kind {
        if numbers.recomputations >= minimumRecomputationsChecked && numbers.wastedShare >= wastedShareWarned { return .wasteful }
        return numbers.recomputations > 0 ? .recomputed : .idle
    }

    private static func mermaid(_ nodes: [GraphNode], _ edges: [GraphEdge]) -> String {
        var lines = ["flowchart LR"]
        for node in nodes {
            let label = node.label.map(mermaidText).joined(separator: "<br/>")
            lines.append(node.kind == .field ? "    \(node.id)[\"\(label)\"]" : "    \(node.id)(\"\(label)\")")
        }
        for edge in edges {
            lines.append("    \(edge.from) -->" + (edge.label.map { "|\"\(mermaidText($0))\"|" } ?? "") + " \(edge.to)")
        }
        lines += [
            "    classDef field fill:#e8eef7,stroke:#4a6fa5",
            "    classDef recomputed fill:#fff1cc,stroke:#c98a00",
            "    classDef wasteful fill:#ffd6d6,stroke:#c0392b",
            "    classDef idle fill:#f2f2f2,stroke:#999999",
        ]
        for kind in [GraphNode.Kind.field, .recomputed, .wasteful, .idle] {
            let ids = nodes.filter { $0.kind == kind }.map(\.id)
            if !ids.isEmpty { lines.append("    class \(ids.joined(separator: ",")) \(className(kind))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func dot(_ name: String, _ nodes: [GraphNode], _ edges: [GraphEdge]) -> String {
        var lines = ["digraph \"\(dotText(name))\" {", "    rankdir=LR;", "    node [fontname=\"Helvetica\", fontsize=11];", "    edge [fontname=\"Helvetica\", fontsize=10];"]
        for node in nodes {
            let (shape, fill) = switch node.kind {
            case .field: ("box", "#e8eef7")
            case .recomputed: ("box, style=\"rounded,filled\"", "#fff1cc")
            case .wasteful: ("box, style=\"rounded,filled\"", "#ffd6d6")
            case .idle: ("box, style=\"rounded,filled\"", "#f2f2f2")
            }
            let style = node.kind == .field ? ", style=filled" : ""
            lines.append("    \"\(node.id)\" [label=\"\(node.label.map(dotText).joined(separator: "\\n"))\", shape=\(shape)\(style), fillcolor=\"\(fill)\"];")
        }
        for edge in edges {
            lines.append("    \"\(edge.from)\" -> \"\(edge.to)\"" + (edge.label.map { " [label=\"\(dotText($0))\"]" } ?? "") + ";")
        }
        return (lines + ["}"]).joined(separator: "\n") + "\n"
    }

    private static func className(_ kind: GraphNode.Kind) -> String {
        switch kind {
        case .field: "field"
        case .recomputed: "recomputed"
        case .wasteful: "wasteful"
        case .idle: "idle"
        }
    }

    /// Text inside a Mermaid `"…"` label: quotes and angle brackets as entities.
    private static func mermaidText(_ text: String) -> String {
        text.replacingAll("\"", with: "#quot;").replacingAll("<", with: "#lt;").replacingAll(">", with: "#gt;")
    }

    /// Text inside a DOT `"…"` string.
    private static func dotText(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
    }
}

extension String {
    /// Every occurrence of `target` replaced (without Foundation).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
