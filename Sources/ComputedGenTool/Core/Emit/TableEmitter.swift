/// Emits a state's table (`Extended.__table`, a `ComputedRuntime.StateTable`): one line per field
/// and one entry per memoized computed value, from which the runtime does everything that is the
/// same for every member (refresh, invalidation, versions by name, field stamps, observation by
/// key path, the mirror). Also the state's two small entry points into it, `__refresh(_:)` (a hit
/// path's miss) and `__didChange(_:)` (after a field write), and the conformances that take the
/// rest from the table.
///
/// Indices: a field's is its position among the fields; a computed value's, its position among
/// the computed values not over `@Shared` fields (`StateEmitter.memoIndices`), which keep their
/// own code and are not in the table.
struct TableEmitter {
    let emitter: StateEmitter

    private var state: CheckedState { emitter.state }
    private var typeName: String { emitter.typeName }
    private var access: String { emitter.access }

    func emit(into writer: inout CodeWriter) {
        let memos = emitter.tableComputeds
        writer.line()
        // Two witnesses per state, not per member: here, where the state's type is known, a store's
        // unspecialized calls reach the table directly and read the state in place (the protocol's
        // generic defaults reached the table through the conformance on every call).
        writer.block("extension \(typeName): ComputedRuntime._TableDrivenState") { writer in
            writer.doc(["The version of the member at `path` (`\"items\"`, `\"computed.total\"`), from the table."])
            writer.block("\(access)func _version(ofMember path: Swift.Substring) -> ComputedRuntime.VersionStamp?") { writer in
                writer.line("Swift.withUnsafePointer(to: self) { Extended.__table.version(ofMember: path, in: $0) }")
            }
            writer.line()
            writer.doc(["Records every field's stamp, in declaration order, from the table."])
            writer.block("\(access)func _recordFieldVersions(_ versions: inout ComputedRuntime.MemoInputs) -> Swift.Bool") { writer in
                writer.line("Swift.withUnsafePointer(to: self) { Extended.__table.recordFieldVersions(in: $0, into: &versions) }")
                writer.line("return true")
            }
        }
        writer.line()
        writer.block("extension \(typeName).Extended: ComputedRuntime._TableDrivenStorage") { writer in
            var doc = [
                "The members of ``\(state.name)`` for the runtime: each field with its storage and the key",
                "paths a store observes it by (on the state and on `state.computed`), then each memoized",
                "computed value with its key path, the members its body reads (by name: the table",
                "resolves them once) and its body, called with the storage. A computed value's index is",
                "its slot in `__memo`, the state's memo table.",
            ]
            if state.computeds.contains(where: emitter.isIncremental) {
                doc += ["`ListView` values and folds of a list follow, each with its cell, maintained incrementally."]
            }
            if memos.count < state.computeds.count {
                doc += ["Last, the computed values over `@Shared` fields (their accessors refresh them), so that",
                        "a store observes each alone."]
            }
            writer.doc(doc)
            // Typed: were a member's type to fail to compile, the table's type would still be
            // known, and the conformance and the selectors that name the table would not fail too.
            let table = "ComputedRuntime.StateTable<\(typeName), \(typeName).Extended>"
            if state.fields.isEmpty && state.computeds.isEmpty {
                writer.line("\(access)static let __table: \(table) = .init(\\.computed) { _ in }")
            } else {
                let memo = state.computeds.contains(where: emitter.isInMemoTable) ? ", memo: \\.__memo" : ""
                writer.line("\(access)static let __table: \(table) = .init(\\.computed\(memo), __describe)")
                emitDescribe(table: table, memos: memos, into: &writer)
            }
            guard !memos.isEmpty else { return }
            writer.line()
            writer.doc(["Brings the computed value at `index` up to date: the miss path of its accessor."])
            let refresh = emitter.isInlinable ? "@usableFromInline @inline(never) internal " : "fileprivate "
            writer.block("\(refresh)func __refresh(_ index: Swift.Int)") { writer in
                writer.line("Swift.withUnsafePointer(to: self) { \(typeName).Extended.__table.refresh(index, in: $0) }")
            }
            writer.line()
            writer.doc(["Marks every computed value the field at `field` feeds as stale, after a write to it."])
            let didChange = emitter.isInlinable ? "@inlinable internal " : "fileprivate "
            writer.block("\(didChange)mutating func __didChange(_ field: Swift.Int)") { writer in
                writer.line("Swift.withUnsafeMutablePointer(to: &self) { \(typeName).Extended.__table.invalidate(afterWritingField: field, in: $0) }")
            }
        }
        writer.line()
        writer.block("extension \(typeName): CustomReflectable") { writer in
            writer.doc(["The fields, as `print` and `dump` show them."])
            writer.line("\(access)var customMirror: Swift.Mirror { Extended.__table.mirror(of: self) }")
        }
    }

    /// The most entries one describing function holds. The table is built once, but the
    /// optimizer's time on one function grows faster than the function (its ARC passes), so a
    /// large state's table is described by several functions of this many entries, called in turn.
    static let entriesPerFunction = 16

    /// `__describe(_:)`: the table's entries, one statement each, in a function rather than a
    /// closure (Swift type-checks a closure's statements with the expression around it: about
    /// twice the time per entry); split into parts of ``entriesPerFunction`` entries.
    private func emitDescribe(table: String, memos: [CheckedComputed], into writer: inout CodeWriter) {
        var entries: [(inout CodeWriter) -> Void] = []
        for (index, field) in state.fields.enumerated() {
            entries.append { $0.line("\(fieldEntry(field))  // \(index)") }
        }
        for (index, computed) in memos.enumerated() {
            entries.append { emitEntry(of: computed, index: index, into: &$0) }
        }
        for computed in state.computeds where emitter.isShared(computed) {
            let name = emitter.swiftName(computed.decl.name)
            entries.append { $0.line("table.sharedComputed(\"\(computed.name)\", \\._\(computed.name), \\.\(name))") }
        }
        let builder = "_ table: inout \(table).Builder"
        let parts = stride(from: 0, to: entries.count, by: Self.entriesPerFunction).map {
            $0..<min($0 + Self.entriesPerFunction, entries.count)
        }
        writer.line()
        if parts.count > 1 {
            writer.doc(["In parts of \(Self.entriesPerFunction) entries: the optimizer's time grows faster than a function's size."])
        }
        writer.block("private static func __describe(\(builder))") { writer in
            if parts.count == 1 {
                for entry in entries { entry(&writer) }
            } else {
                for part in parts.indices { writer.line("__describe\(part)(&table)") }
            }
        }
        guard parts.count > 1 else { return }
        for (number, part) in parts.enumerated() {
            writer.line()
            writer.block("private static func __describe\(number)(\(builder))") { writer in
                for entry in entries[part] { entry(&writer) }
            }
        }
    }

    /// `table.field("count", \._count, \.count, \.count)`: a plain field's storage and its key paths
    /// on the state and on `state.computed`; an `@Edge` or `@Shared` field's wrapper storage and
    /// its key path on the state.
    private func fieldEntry(_ field: CheckedField) -> String {
        let name = emitter.swiftName(field.decl.name)
        let label = "\"\(field.name)\""
        if field.isEdge { return "table.edge(\(label), \\._\(field.name), \\.\(name))" }
        if field.isShared { return "table.shared(\(label), \\._\(field.name), \\.\(name))" }
        return "table.field(\(label), \\._\(field.name), \\.\(name), \\.\(name))"
    }

    /// A memoized computed value: its cell, key path and inputs, then its body, called with the
    /// inputs' values read from the storage (`$0`).
    private func emitEntry(of computed: CheckedComputed, index: Int, into writer: inout CodeWriter) {
        let name = emitter.swiftName(computed.decl.name)
        let inputs = computed.inputs.flatMap { tableInputs(of: $0, for: computed) }.joined(separator: " ")
        let order = computed.keyOrderInputs
        let orderInputs = order.isEmpty ? "" : ", orderInputs: \"\(order.joined(separator: " "))\""
        let followed = emitter.followedOtherInputs(of: computed)
        let sourceInputs = followed.isEmpty ? "" : ", sourceInputs: \"\(followed.joined(separator: " "))\""
        let source = emitter.querySource(of: computed).map { ", source: \\._\($0.name)" } ?? ""
        let unfollowed = emitter.unfollowedLists(of: computed)
        let unfollowedLists = unfollowed.isEmpty ? "" : ", unfollowedLists: \"\(unfollowed.joined(separator: " "))\""
        let cutoff = orderInputs + sourceInputs + unfollowedLists + (computed.decl.noCutoff ? ", cutoff: false" : "") + source
        let arguments = computed.inputs.map(readExpression(of:)).joined(separator: ", ")
        // A slot of the memo table is the next one; any other cell is named.
        let cell = emitter.isInMemoTable(computed) ? "" : "\\._\(computed.name), "
        writer.line("table.\(emitter.tableEntryMethod(of: computed))(\"\(computed.name)\", \(cell)\\.\(name), inputs: \"\(inputs)\"\(cutoff)) {  // \(index)")
        writer.line("    \(typeName)._ComputedBodies.\(name)(\(arguments))")
        writer.line("}")
    }

    /// An input as the table names it (the table resolves names to indices once): a field or a
    /// computed value by its name, or, for a field read only through its members (a generated
    /// state's members have versions of their own), each member path (`shelf.computed.total`).
    private func tableInputs(of input: Input, for computed: CheckedComputed) -> [String] {
        switch input {
        case .field(let name):
            guard let field = emitter.field(named: name) else { return [] }
            guard let paths = computed.memberPaths[name], !field.isShared else { return [name] }
            return paths.map { "\(name).\($0)" }
        case .computed(let name):
            return [name]
        }
    }

    /// An input's value, read from the storage the body closure is given.
    private func readExpression(of input: Input) -> String {
        switch input {
        case .field(let name):
            guard let field = emitter.field(named: name) else { return name }
            if emitter.isWrapped(field) { return "$0.pointee." + emitter.swiftName(field.decl.name) }
            return "$0.pointee._\(name).wrappedValue"
        case .computed:
            return "$0.pointee." + emitter.swiftName(of: input)
        }
    }
}
