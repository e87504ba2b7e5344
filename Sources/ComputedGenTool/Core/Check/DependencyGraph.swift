/// The graph of computeds reading computeds, by index in source order.
struct DependencyGraph {
    /// For each computed, the computeds it reads, in input order.
    let edges: [[Int]]
    /// For each computed, the fields it reads directly.
    let fieldReads: [Set<String>]

    init(computeds: [ComputedDecl], inputs: [[Input]]) {
        var indexByName: [String: Int] = [:]
        for (index, computed) in computeds.enumerated() where indexByName[computed.name.name] == nil {
            indexByName[computed.name.name] = index
        }
        edges = inputs.map { list in
            list.compactMap { input in
                if case .computed(let name) = input { indexByName[name] } else { nil }
            }
        }
        fieldReads = inputs.map { list in
            Set(list.compactMap { input in
                if case .field(let name) = input { name } else { nil }
            })
        }
    }

    var count: Int { edges.count }

    /// One cycle per strongly connected component that has one, as computed indices starting at
    /// the component's first member in source order and following inputs in the order written.
    func cycles() -> [[Int]] {
        var covered: Set<Int> = []
        var cycles: [[Int]] = []
        for start in 0..<count where !covered.contains(start) {
            guard let cycle = cycle(through: start) else { continue }
            cycles.append(cycle)
            let reachable = reachable(from: start)
            covered.formUnion(reachable.filter { self.reachable(from: $0).contains(start) })
        }
        return cycles
    }

    /// The computed indices such that each comes after every computed it reads; ties keep
    /// source order. Assumes there is no cycle.
    func topologicalOrder() -> [Int] {
        var order: [Int] = []
        var placed = Array(repeating: false, count: count)
        while order.count < count {
            guard let next = (0..<count).first(where: { !placed[$0] && edges[$0].allSatisfy { placed[$0] } }) else {
                break  // A cycle: cannot happen once the checks passed.
            }
            placed[next] = true
            order.append(next)
        }
        return order
    }

    /// Whether the computed at `index` reads the field `name`, directly or through computeds.
    func readsField(_ name: String, computed index: Int) -> Bool {
        reachable(from: index).union([index]).contains { fieldReads[$0].contains(name) }
    }

    /// For every field some computed reads, the computeds that read it directly or through other
    /// computeds (those for which ``readsField(_:computed:)`` is true), in `order`.
    ///
    /// One walk of the reversed graph per field, instead of one reachability search per field and
    /// computed: linear in the size of the graph per field rather than quadratic.
    func fieldDependents(in order: [Int]) -> [String: [Int]] {
        var readers = Array(repeating: [Int](), count: count)
        for (reader, inputs) in edges.enumerated() {
            for input in inputs { readers[input].append(reader) }
        }
        var directReaders: [String: [Int]] = [:]
        for (index, fields) in fieldReads.enumerated() {
            for field in fields { directReaders[field, default: []].append(index) }
        }
        var position = Array(repeating: 0, count: count)
        for (rank, index) in order.enumerated() { position[index] = rank }

        var result: [String: [Int]] = [:]
        var seen = Array(repeating: false, count: count)
        for (field, direct) in directReaders {
            var found: [Int] = []
            var stack = direct
            while let next = stack.popLast() {
                guard !seen[next] else { continue }
                seen[next] = true
                found.append(next)
                stack += readers[next]
            }
            for index in found { seen[index] = false }
            result[field] = found.sorted { position[$0] < position[$1] }
        }
        return result
    }

    /// The computeds reachable from `start` by one or more edges.
    private func reachable(from start: Int) -> Set<Int> {
        var seen: Set<Int> = []
        var stack = edges[start]
        while let next = stack.popLast() {
            if seen.insert(next).inserted { stack += edges[next] }
        }
        return seen
    }

    /// A path from `start` back to itself, depth first in input order, or `nil`.
    private func cycle(through start: Int) -> [Int]? {
        var visited: Set<Int> = []
        func search(_ node: Int, path: [Int]) -> [Int]? {
            for next in edges[node] {
                if next == start { return path }
                if visited.insert(next).inserted, let found = search(next, path: path + [next]) { return found }
            }
            return nil
        }
        return search(start, path: [start])
    }
}
