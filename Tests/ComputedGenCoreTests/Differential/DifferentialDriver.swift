/// The Swift program that runs ``DifferentialProgram``s: for each, random operations on a state,
/// a copy of it and a store, and after each operation the values read in random order, each
/// compared with the oracle's evaluation of the same expression from the stored fields.
///
/// The driver draws with the tests' `SeededGenerator`, whose file is compiled into it.
/// Each operation is drawn from its own generator, seeded by the run's seed and the operation's
/// number, so that leaving operations out (`--skip`) changes none of the others: that is how a
/// failure is shrunk. Command line: `driver <program> <seed> <operations> [--skip 1,5,9] [--log]`.
/// It prints `program P operations N reads R wrong W`, then up to five `wrong …` lines, and with
/// `--log` the operations it ran.
enum DifferentialDriver {
    /// The driver's source: the shared support, then each program's oracle and run function.
    static func source(for programs: [DifferentialProgram]) -> String {
        var text = support
        for program in programs {
            text += oracle(of: program.child, child: program.child.name, program: program)
            text += oracle(of: program.parent, child: program.child.name, program: program)
            text += run(program)
        }
        text += main(programs)
        return text
    }

    /// The oracle of a state: each computed value and selector evaluated from the stored fields.
    static func oracle(of state: DifferentialProgram.State, child: String, program: DifferentialProgram) -> String {
        var lines = ["enum O_\(state.name) {"]
        for value in state.computeds + state.selectors {
            let parameter = value.takesParameter ? ", _ q: Int" : ""
            lines.append("    static func \(value.name)(_ st: \(state.name)\(parameter)) -> Int { \(value.body.oracle(owner: state.name, child: child)) }")
        }
        if state.name == program.parent.name, program.hasList {
            let t = program.threshold
            lines += [
                "    static func big(_ st: \(state.name)) -> [Int] { Array(st.items).filter { $0.v > \(t) }.map(\\.id) }",
                "    static func bigCount(_ st: \(state.name)) -> Int { Array(st.items).filter { $0.v > \(t) }.count }",
                "    static func ordered(_ st: \(state.name)) -> [Int] { Array(st.items).sorted { ($0.v, $0.id) < ($1.v, $1.id) }.map(\\.id) }",
                "    static func bigOrdered(_ st: \(state.name)) -> [Int] { Array(st.items).filter { $0.v > \(t) }.sorted { ($0.v, $0.id) > ($1.v, $1.id) }.map(\\.id) }",
                "    static func perKey(_ st: \(state.name)) -> [Int] { (0..<4).map { key in Array(st.items).filter { $0.k == key }.count } }",
                "    static func groups(_ st: \(state.name)) -> [[Int]] { (0..<4).map { key in Array(st.items).sorted { ($0.v, $0.id) < ($1.v, $1.id) }.filter { $0.k == key }.map(\\.id) } }",
                "    static func tag(_ st: \(state.name), _ key: Int) -> DiffTag? { Array(st.tags).first { $0.id == key } }",
                "    static func tagged(_ st: \(state.name)) -> [[Int]] { Array(st.items).compactMap { item in tag(st, item.k).map { [item.id, $0.label] } } }",
                "    static func allTagged(_ st: \(state.name)) -> [[Int]] { Array(st.items).map { [$0.id, tag(st, $0.k)?.label ?? -1] } }",
                "    static func taggedOrdered(_ st: \(state.name)) -> [Int] { tagged(st).sorted { ($0[1], $0[0]) < ($1[1], $1[0]) }.map { $0[0] } }",
                "    static func taggedCount(_ st: \(state.name)) -> Int { tagged(st).count { $0[1] > 2 } }",
            ]
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// The reads of one program's parent state `st`: name, read and oracle, as closures.
    static func reads(_ program: DifferentialProgram) -> [String] {
        let parent = program.parent.name
        let child = program.child.name
        var reads: [String] = []
        func read(_ name: String, _ got: String, _ want: String) {
            reads.append("        (\"\(name)\", { \"\\(\(got))\" }, { \"\\(\(want))\" }),")
        }
        for value in program.parent.computeds {
            read(value.name, "st.computed.\(value.name)", "O_\(parent).\(value.name)(st)")
            read("Selectors.\(value.name)", "\(parent).Selectors.\(value.name)(st)", "O_\(parent).\(value.name)(st)")
        }
        for value in program.child.computeds {
            read("child.computed.\(value.name)", "st.child.computed.\(value.name)", "O_\(child).\(value.name)(st.child)")
        }
        for value in program.parent.selectors + program.child.selectors {
            let owner = program.parent.selectors.contains { $0.name == value.name } ? parent : child
            let root = owner == parent ? "st" : "st.child"
            if value.takesParameter {
                read("Selectors.\(value.name)(q)", "\(owner).Selectors.\(value.name)(q)(\(root))", "O_\(owner).\(value.name)(\(root), q)")
            } else {
                read("Selectors.\(value.name)()", "\(owner).Selectors.\(value.name)()(\(root))", "O_\(owner).\(value.name)(\(root))")
            }
        }
        if let first = program.child.computeds.first {
            // A selector a user builds over the field's selector.
            read("createSelector(child)", "userSelector\(program.index)(st)", "O_\(child).\(first.name)(st.child)")
        }
        if program.hasList {
            for name in ["big", "ordered", "bigOrdered"] {
                read(name, "Array(st.computed.\(name).map(\\.id))", "O_\(parent).\(name)(st)")
            }
            read("bigCount", "st.computed.bigCount", "O_\(parent).bigCount(st)")
            read("perKey", "(0..<4).map { st.computed.perKey[$0] }", "O_\(parent).perKey(st)")
            read("groups", "(0..<4).map { Array(st.computed.groups[$0].map(\\.id)) }", "O_\(parent).groups(st)")
            read("tagged", "st.computed.tagged.map { [$0.id, $0.label] }", "O_\(parent).tagged(st)")
            read("allTagged", "st.computed.allTagged.map { [$0.id, $0.label] }", "O_\(parent).allTagged(st)")
            read("taggedOrdered", "Array(st.computed.taggedOrdered.map(\\.id))", "O_\(parent).taggedOrdered(st)")
            read("taggedCount", "st.computed.taggedCount", "O_\(parent).taggedCount(st)")
        }
        read("==", "st == st", "true")
        return reads
    }

    /// The operations of one program, as `case` clauses over a drawn number.
    static func operations(_ program: DifferentialProgram) -> [String] {
        let parent = program.parent
        let child = program.child
        var cases: [String] = []
        func op(_ description: String, _ code: String) {
            cases.append("        case \(cases.count): log(\"\(description)\"); \(code)")
        }
        for field in parent.plain {
            op("state.\(field) = \\(v)", "state.\(field) = v")
            op("state.\(field) = state.\(field) (equal)", "state.\(field) = state.\(field)")
            op("store.commit { $0.\(field) = \\(v) }", "store.commit { $0.\(field) = v }")
        }
        for field in child.plain {
            op("state.child.\(field) = \\(v)", "state.child.\(field) = v")
            op("store.commit { $0.child.\(field) = \\(v) }", "store.commit { $0.child.\(field) = v }")
            op("childStore.commit { $0.\(field) = \\(v) }", "childStore.commit { $0.\(field) = v }")
        }
        if let edge = child.edge {
            op("state.child.\(edge) = \\(v)", "state.child.\(edge) = v")
        }
        if let shared = child.shared {
            op("another holder: otherChild.\(shared.name) = \\(v)", "otherChild.\(shared.name) = v")
            op("state.child.\(shared.name) = \\(v)", "state.child.\(shared.name) = v")
            op("store.commit { $0.child.\(shared.name) = \\(v) }", "store.commit { $0.child.\(shared.name) = v }")
        }
        if let shared = parent.shared {
            op("another holder: otherParent.\(shared.name) = \\(v)", "otherParent.\(shared.name) = v")
            op("state.\(shared.name) = \\(v)", "state.\(shared.name) = v")
        }
        let field = parent.plain[0]
        op("var copy = state; copy.\(field) = \\(v); keep the copy: \\(coin)", "var copy = state; copy.\(field) = v; if coin { state = copy }")
        op("var copy = state; copy.child = \(child.name)(); state = copy when \\(coin)", "var copy = state; copy.child = \(child.name)(); if coin { state = copy }")
        op("saved state back (\\(saved != nil)); saved = state", "if let older = saved { state = older }; saved = state")
        op("state = store.state", "state = store.state")
        op("store.commit { $0 = state }", "store.commit { $0 = state }")
        op("state = decoded(encoded(state))", "state = try! JSONDecoder().decode(\(parent.name).self, from: JSONEncoder().encode(state))")
        op("state.child = \(child.name)()", "state.child = \(child.name)()")
        if program.hasList {
            op("state.items.append(id \\(nextID), v \\(v))", "state.items.append(DiffItem(id: nextID, v: v)); nextID += 1")
            op("state.items.append(id \\(nextID), v \\(v)) twice", "state.items.append(DiffItem(id: nextID, v: v)); state.items.append(DiffItem(id: nextID + 1, v: v &+ 3)); nextID += 2")
            op("state.items[id: \\(pick(state.items))]?.k = \\(v & 3)", "if let id = pick(state.items) { state.items[id: id]?.k = v & 3 }")
            op("state.items[id: \\(pick(state.items))]?.v = \\(v)", "if let id = pick(state.items) { state.items[id: id]?.v = v }")
            op("state.items.remove(id: \\(pick(state.items)))", "if let id = pick(state.items) { _ = state.items.remove(id: id) }")
            op("state.items.move(id: \\(pick(state.items)), toOffset: 0)", "if let id = pick(state.items) { state.items.move(id: id, toOffset: 0) }")
            op("store.commit { $0.items.append(id \\(nextID), v \\(v)) }", "store.commit { $0.items.append(DiffItem(id: nextID, v: v)) }; nextID += 1")
            op("var copy = state; copy.items.append(...); state = copy when \\(coin)", "var copy = state; copy.items.append(DiffItem(id: nextID, v: v)); nextID += 1; if coin { state = copy }")
            // The other side of the joins: tags 0 ..< 5, which the items' keys (0 ..< 4) refer to.
            op("state.tags[id: \\(pickTag(state.tags))]?.label = \\(v & 7)", "if let id = pickTag(state.tags) { state.tags[id: id]?.label = v & 7 }")
            op("state.tags.append(the first missing tag, label \\(v & 7))", "if let id = (0..<5).first(where: { state.tags[id: $0] == nil }) { state.tags.append(DiffTag(id: id, label: v & 7)) }")
            op("state.tags.remove(id: \\(pickTag(state.tags)))", "if let id = pickTag(state.tags) { _ = state.tags.remove(id: id) }")
            op("state.tags = the tags reversed (a new list)", "state.tags = IdentifiedList(state.tags.reversed())")
            op("state.tags[id: \\(pickTag(state.tags))] = itself (equal)", "if let id = pickTag(state.tags) { state.tags[id: id] = state.tags[id: id] }")
            op("store.commit { $0.tags[id: …]?.label = \\(v & 7) }", "store.commit { if let id = pickTag($0.tags) { $0.tags[id: id]?.label = v & 7 } }")
            op("var copy = state; copy.tags[id: …]?.label = \\(v & 7); state = copy when \\(coin)", "var copy = state; if let id = pickTag(copy.tags) { copy.tags[id: id]?.label = v & 7 }; if coin { state = copy }")
        }
        return cases
    }

    static func run(_ program: DifferentialProgram) -> String {
        let parent = program.parent.name
        let child = program.child.name
        let cases = operations(program)
        var lines: [String] = []
        if let first = program.child.computeds.first {
            lines.append("let userSelector\(program.index) = createSelector(\(parent).Selectors.child) { $0.computed.\(first.name) }")
        }
        lines += [
            "func check\(program.index)(_ st: \(parent), _ g: inout SeededGenerator, _ place: String, _ report: inout Report) {",
            "    let q = Int(g.next() % 3)",
            "    var reads: [(String, () -> String, () -> String)] = [",
        ]
        lines += reads(program)
        lines += [
            "    ]",
            "    reads.shuffle(using: &g)",
            "    for (name, got, want) in reads.prefix(Int(g.next() % UInt64(reads.count)) + 1) {",
            "        report.reads += 1",
            "        let (value, expected) = (got(), want())",
            "        if value != expected { report.wrong(\"\\(place): \\(name) (q = \\(q)) read \\(value), expected \\(expected)\") }",
            "    }",
            "}",
            "",
            "func run\(program.index)(seed: UInt64, operations: Int, skip: Set<Int>, logging: Bool) -> Report {",
            "    var report = Report()",
            "    var state = \(parent)()",
            "    let store = Store(\(parent)())",
            "    let childStore = store.scope(\\.child)",
            "    var otherChild = \(child)()",
            "    var otherParent = \(parent)()",
            "    var saved: \(parent)? = nil",
            "    var nextID = 0",
            "    _ = (otherChild, otherParent, childStore, nextID)",
            "    for number in 0..<operations where !skip.contains(number) {",
            "        var g = SeededGenerator(seed: seed &+ UInt64(number) &* 0x9E37_79B9_7F4A_7C15)",
            "        let v = Int(g.next() % 41) - 20",
            "        let coin = g.next() % 2 == 0",
            "        let drawn = g.next()",
            "        func pick(_ items: IdentifiedList<DiffItem>) -> Int? { items.isEmpty ? nil : items[Int(drawn % UInt64(items.count))].id }",
            "        func pickTag(_ tags: IdentifiedList<DiffTag>) -> Int? { tags.isEmpty ? nil : tags[Int(drawn % UInt64(tags.count))].id }",
            "        func log(_ text: @autoclosure () -> String) { if logging { print(\"op \\(number): \\(text())\") } }",
            "        _ = (v, coin, drawn)",
            "        switch Int(g.next() % \(cases.count)) {",
        ]
        lines += cases
        lines += [
            "        default: break",
            "        }",
            "        report.operations += 1",
            "        check\(program.index)(state, &g, \"op \\(number), state\", &report)",
            "        check\(program.index)(store.state, &g, \"op \\(number), store.state\", &report)",
            "    }",
            "    return report",
            "}",
            "",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static func main(_ programs: [DifferentialProgram]) -> String {
        let cases = programs.map { "case \($0.index): report = run\($0.index)(seed: seed, operations: operations, skip: skip, logging: logging)" }
        return """
            let arguments = CommandLine.arguments
            let program = Int(arguments[1])!
            let seed = UInt64(arguments[2])!
            let operations = Int(arguments[3])!
            var skip: Set<Int> = []
            if let at = arguments.firstIndex(of: "--skip"), at + 1 < arguments.count {
                skip = Set(arguments[at + 1].split(separator: ",").compactMap { Int($0) })
            }
            let logging = arguments.contains("--log")
            var report = Report()
            switch program {
            \(cases.joined(separator: "\n"))
            default: fatalError("no program \\(program)")
            }
            print("program \\(program) operations \\(report.operations) reads \\(report.reads) wrong \\(report.wrongReads)")
            for line in report.firstWrong { print("wrong \\(line)") }

            """
    }

    static let support = """
        // Generated by the differential test (Tests/ComputedGenCoreTests/Differential).
        import ComputedRuntime
        import Foundation

        struct DiffItem: Identifiable, Hashable, Codable, Sendable {
            var id: Int
            var v: Int
            /// The key of the totals and groups per key: 0 ..< 4.
            var k: Int

            init(id: Int, v: Int) {
                self.id = id
                self.v = v
                k = (v & 3)
            }
        }

        /// What an item's key refers to, in the joins.
        struct DiffTag: Identifiable, Hashable, Codable, Sendable {
            var id: Int
            var label: Int
        }

        /// An item with its tag's label (-1: none, in a left join).
        struct DiffRow: Identifiable, Hashable, Sendable {
            var id: Int
            var v: Int
            var label: Int

            init(item: DiffItem, tag: DiffTag?) {
                id = item.id
                v = item.v
                label = tag?.label ?? -1
            }
        }

        struct Report {
            var operations = 0
            var reads = 0
            var wrongReads = 0
            var firstWrong: [String] = []

            mutating func wrong(_ line: String) {
                wrongReads += 1
                if firstWrong.count < 5 { firstWrong.append(line) }
            }
        }


        """
}
