import CComputedAtomics

/// What a traced refresh of one memo cell found, filled in by the cell's refresh while it owns
/// the cell (see `_MemoCellHeader._refresh`): the innermost traced refresh of its thread.
@usableFromInline
final class _ChangeTraceFrame {
    let header: UnsafeMutableRawPointer
    let previous: UnsafeMutableRawPointer?
    let depth: Int
    private(set) var reported = false
    private(set) var hadValue = false
    private(set) var recomputed = false
    private(set) var cutOff = false
    private(set) var oldInputs: [VersionStamp] = []
    private(set) var newInputs: [VersionStamp] = []
    private(set) var version = VersionStamp(rawValue: 0)
    private(set) var evaluation: ListEvaluation?

    init(header: UnsafeMutableRawPointer, previous: UnsafeMutableRawPointer?, depth: Int) {
        self.header = header
        self.previous = previous
        self.depth = depth
    }

    /// The calling thread's innermost traced refresh, when it is the refresh of `header`.
    @usableFromInline
    static func current(for header: UnsafeMutablePointer<_MemoCellHeader>) -> _ChangeTraceFrame? {
        guard let raw = cg_trace_frame_get() else { return nil }
        let frame = Unmanaged<_ChangeTraceFrame>.fromOpaque(raw).takeUnretainedValue()
        return frame.header == UnsafeMutableRawPointer(header) ? frame : nil
    }

    /// The calling thread's innermost traced refresh, whatever its cell.
    static var innermost: _ChangeTraceFrame? {
        cg_trace_frame_get().map { Unmanaged<_ChangeTraceFrame>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Records how an incremental value's query was evaluated (by the refresh of `header` only).
    func noteEvaluation(_ evaluation: ListEvaluation, of header: UnsafeMutablePointer<_MemoCellHeader>) {
        if self.header == UnsafeMutableRawPointer(header) { self.evaluation = evaluation }
    }

    /// Records what the refresh found (called once, by the thread that owns the cell).
    @usableFromInline
    func found(hadValue: Bool, inputs old: [VersionStamp], _ new: [VersionStamp], recomputed: Bool, cutOff: Bool, version: VersionStamp) {
        reported = true
        self.hadValue = hadValue
        oldInputs = old
        newInputs = new
        self.recomputed = recomputed
        self.cutOff = cutOff
        self.version = version
    }
}

extension StateTable {
    /// ``refresh(_:in:)`` while a change trace records: the same refresh, with what it found
    /// delivered to the traces (a refresh that found the value up to date, refreshed by another
    /// thread meanwhile, is not an event).
    @inline(never)
    func tracedRefresh(_ index: Int, in base: UnsafeRawPointer) {
        guard ChangeTrace.isRecordingHere else {
            computeds[index].refresh(self, index, base)
            return
        }
        let header = header(ofComputed: index, in: base)
        let outer = _ChangeTraceFrame.innermost
        let frame = _ChangeTraceFrame(header: UnsafeMutableRawPointer(header), previous: cg_trace_frame_get(), depth: outer.map { $0.depth + 1 } ?? 0)
        let names = traceNames.names(of: self)
        let interval = ChangeTrace.beginSignpostInterval(names.values[index].description)
        let clock = ContinuousClock()
        let start = clock.now
        cg_trace_frame_set(Unmanaged.passUnretained(frame).toOpaque())
        computeds[index].refresh(self, index, base)
        cg_trace_frame_set(frame.previous)
        let end = clock.now
        guard frame.reported else {
            ChangeTrace.endSignpostInterval(interval, "\(names.values[index]) was up to date")
            return
        }
        let inputs = computeds[index].inputs
        var causes: [ChangeTrace.Cause] = []
        if frame.recomputed {
            for (position, version) in frame.newInputs.enumerated() where position >= frame.oldInputs.count || frame.oldInputs[position] != version {
                guard position < inputs.count else { break }
                causes.append(ChangeTrace.Cause(
                    input: inputName(inputs[position]),
                    from: position < frame.oldInputs.count && frame.hadValue ? frame.oldInputs[position] : nil,
                    to: version
                ))
            }
        }
        let value = names.values[index]
        let readers = names.readers[index]
        ChangeTrace.deliver(interval: interval) { sequence, origin in
            .refresh(ChangeTrace.Refresh(
                sequence: sequence,
                value: value,
                recomputed: frame.recomputed,
                isFirstComputation: !frame.hadValue,
                causes: frame.hadValue ? causes : [],
                isCutOff: frame.cutOff,
                readers: readers,
                version: frame.version,
                evaluation: frame.recomputed ? frame.evaluation : nil,
                start: origin.duration(to: start),
                duration: start.duration(to: end),
                depth: frame.depth
            ))
        }
    }

    /// An input as users name it: `todos`, `visibleTodos`, `shelf.computed.total`.
    func inputName(_ input: Input) -> String {
        switch input {
        case .field(let field): fields[field].name
        case .computed(let computed): computeds[computed].name
        case .member(let field, let path): "\(fields[field].name).\(path)"
        }
    }

    /// The computed values that read each computed value directly, by index: O(edges).
    func readerNames() -> [[String]] {
        var readers = [[String]](repeating: [], count: computeds.count)
        for reader in computeds {
            for case .computed(let index) in reader.inputs where !readers[index].contains(reader.name) {
                readers[index].append(reader.name)
            }
        }
        return readers
    }

    /// The names of the fields, in declaration order.
    var fieldNames: [String] {
        fields.map(\.name)
    }
}

/// What a traced refresh names: each computed value as a trace identifies it, and the values that
/// read it. Made once per table, on its first traced refresh, so that tracing costs tables
/// nothing while it is off.
final class _TraceNames: @unchecked Sendable {
    // Safety: `made` is only accessed while `lock` is held; once set it never changes.
    private let lock = Lock.make()
    private var made: (values: [ChangeTrace.ValueID], readers: [[String]])?
    private var indices: [Substring: Int]?

    func names<State, Extended>(of table: StateTable<State, Extended>) -> (values: [ChangeTrace.ValueID], readers: [[String]]) {
        lock.withLock {
            if let made { return made }
            let state = String(describing: State.self)
            let names = (table.computeds.map { ChangeTrace.ValueID(state: state, name: $0.name) }, table.readerNames())
            made = names
            return names
        }
    }

    /// The index of the computed value named `name` in `table`.
    func index<State, Extended>(of name: Substring, in table: StateTable<State, Extended>) -> Int? {
        lock.withLock {
            if indices == nil {
                indices = Dictionary(table.computeds.enumerated().map { (Substring($1.name), $0) }, uniquingKeysWith: { first, _ in first })
            }
            return indices?[name]
        }
    }
}

/// What a read through a store reports while a change trace records: whether the computed value
/// it reads (`computed.total`) was cached (a cache hit, counted per value).
func _traceStoreRead<State>(_ state: inout State, member name: String) {
    guard name.hasPrefix("computed."), ChangeTrace.isRecordingHere, let table = State.self as? any _TableDrivenState.Type else { return }
    withUnsafePointer(to: &state) { _traceStoreRead(UnsafeRawPointer($0), table, name.dropFirst("computed.".count)) }
}

private func _traceStoreRead<State: _TableDrivenState>(_ base: UnsafeRawPointer, _: State.Type, _ name: Substring) {
    let table = State.Extended.__table
    guard let index = table.traceNames.index(of: name, in: table) else { return }
    if cg_once_is_ready(table.header(ofComputed: index, in: base)._once) {
        ChangeTrace.deliverCacheHit(table.traceNames.names(of: table).values[index])
    }
}
