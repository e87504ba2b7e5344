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
    ///
    /// Linear in the size of the graph: the components come from one pass of Tarjan's algorithm,
    /// and each cycle is searched for inside its own component only (a search from a member can
    /// only get back to it through members of its component). Both walks use explicit stacks,
    /// so a chain of thousands of computeds cannot exhaust the call stack.
    func cycles() -> [[Int]] {
        var cycles: [[Int]] = []
        var inComponent = Array(repeating: false, count: count)
        var visited = Array(repeating: false, count: count)
        let components = stronglyConnectedComponents()
            .filter { $0.count > 1 || edges[$0[0]].contains($0[0]) }
            .map { $0.sorted() }
            .sorted { $0[0] < $1[0] }
        for component in components {
            for member in component { inComponent[member] = true }
            if let cycle = cycle(through: component[0], inComponent: inComponent, visited: &visited) {
                cycles.append(cycle)
            }
            for member in component {
                inComponent[member] = false
                visited[member] = false
            }
        }
        return cycles
    }

    /// The computed indices such that each comes after every computed it reads; ties keep
    /// source order (of the computeds whose inputs are all placed, the first declared comes
    /// next). Assumes there is no cycle; members of a cycle are left out.
    func topologicalOrder() -> [Int] {
        var readers = Array(repeating: [Int](), count: count)
        var unplacedInputs = Array(repeating: 0, count: count)
        for (reader, inputs) in edges.enumerated() {
            unplacedInputs[reader] = inputs.count
            for input in inputs { readers[input].append(reader) }
        }
        var ready = MinHeap()
        for index in 0..<count where unplacedInputs[index] == 0 { ready.insert(index) }
        var order: [Int] = []
        order.reserveCapacity(count)
        while let next = ready.popMin() {
            order.append(next)
            for reader in readers[next] {
                unplacedInputs[reader] -= 1
                if unplacedInputs[reader] == 0 { ready.insert(reader) }
            }
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

    /// A path from `start` back to itself, depth first in input order through members of
    /// `start`'s component, or `nil`. `visited` is all `false` for the component on entry.
    private func cycle(through start: Int, inComponent: [Bool], visited: inout [Bool]) -> [Int]? {
        var path: [(node: Int, nextEdge: Int)] = [(start, 0)]
        while let top = path.last {
            let inputs = edges[top.node]
            guard top.nextEdge < inputs.count else {
                path.removeLast()
                continue
            }
            path[path.count - 1].nextEdge += 1
            let next = inputs[top.nextEdge]
            if next == start { return path.map(\.node) }
            if inComponent[next], !visited[next] {
                visited[next] = true
                path.append((next, 0))
            }
        }
        return nil
    }

    /// The strongly connected components (Tarjan's algorithm, with an explicit stack).
    private func stronglyConnectedComponents() -> [[Int]] {
        var indexOf = Array(repeating: -1, count: count)
        var lowLink = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var nextIndex = 0
        for root in 0..<count where indexOf[root] < 0 {
            var work: [(node: Int, nextEdge: Int)] = [(root, 0)]
            indexOf[root] = nextIndex
            lowLink[root] = nextIndex
            nextIndex += 1
            stack.append(root)
            onStack[root] = true
            while let top = work.last {
                let node = top.node
                if top.nextEdge < edges[node].count {
                    work[work.count - 1].nextEdge += 1
                    let next = edges[node][top.nextEdge]
                    if indexOf[next] < 0 {
                        indexOf[next] = nextIndex
                        lowLink[next] = nextIndex
                        nextIndex += 1
                        stack.append(next)
                        onStack[next] = true
                        work.append((next, 0))
                    } else if onStack[next] {
                        lowLink[node] = min(lowLink[node], indexOf[next])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last {
                    lowLink[parent.node] = min(lowLink[parent.node], lowLink[node])
                }
                if lowLink[node] == indexOf[node] {
                    var component: [Int] = []
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component.append(member)
                        if member == node { break }
                    }
                    components.append(component)
                }
            }
        }
        return components
    }
}

/// A binary min-heap of indices, for the topological order's "first declared" tie-break.
private struct MinHeap {
    private var items: [Int] = []

    mutating func insert(_ item: Int) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Int? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let minimum = items[0]
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left] < items[smallest] { smallest = left }
            if right < items.count, items[right] < items[smallest] { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return minimum
    }
}
