import CComputedAtomics
import Foundation

/// A record of what changes did: every recomputation with the inputs whose versions moved, every
/// early cutoff and the values it spared, every store commit with the members it changed and the
/// observers it woke.
///
/// Record within a scope (task-local, nesting, like ``RecomputationCounter/counting(_:)``):
///
/// ```swift
/// let trace = ChangeTrace.record {
///     store.commit { $0.query = "milk" }
///     _ = store.state.computed.visibleCount
/// }
/// #expect(trace.recomputations(of: \TodoState.computed.visibleTodos).first?.inputs == ["query"])
/// print(trace.log)
/// ```
///
/// or process-wide, with ``startRecording(capacity:signposts:)`` or the environment variable
/// `COMPUTEDGEN_TRACE` (see ``ProcessTrace``). A scope records the work of the task that opened
/// it and of the tasks that inherit its task-local values; the process-wide trace records every
/// thread's.
///
/// What is recorded: a value's refresh that did work (it ran its body, or verified that no input
/// moved); a commit of a root ``Store`` (the fields whose stamps moved, the members whose
/// observers it woke, the subscribers it delivered to, and how many armed observers it left
/// asleep); selectors, values over `@Shared` fields, scoped stores and rows. A read served from
/// cache is not an event: reads through a store are counted per value (`cacheHits` in
/// ``statistics``), beside the refreshes that kept a value without running its body
/// (`keptCount`); a read of a state value is one load, and not counted.
///
/// A trace keeps the last ``capacity`` events (``defaultCapacity``: 10,000) in a ring; statistics
/// per value count every event, dropped ones included.
///
/// Cost: while no trace records anywhere in the process, a refresh and a commit pay one relaxed
/// atomic load each; cache hits and writes pay nothing.
public final class ChangeTrace: @unchecked Sendable {
    // Safety: every mutable property is accessed only while `lock` is held; `parent`, `capacity`
    // and `origin` are immutable.

    /// The number of events a trace keeps unless told otherwise.
    public static let defaultCapacity = 10_000

    /// How many events this trace keeps (older ones are dropped first).
    public let capacity: Int

    let parent: ChangeTrace?
    let origin = ContinuousClock.now
    private let lock = Lock.make()
    private var ring: [Event] = []
    private var ringStart = 0
    private var nextSequence = 0
    private var isOpen = true
    private var _dropped = 0
    private var _statistics: [ValueID: Statistics] = [:]
    private var _scopeComparisons: [String: ScopeComparisons] = [:]

    init(capacity: Int, parent: ChangeTrace?) {
        precondition(capacity > 0, "a change trace keeps at least one event")
        self.capacity = capacity
        self.parent = parent
    }

    /// The events kept, oldest first.
    public var events: [Event] {
        lock.withLock { Array(ring[ringStart...] + ring[..<ringStart]) }
    }

    /// The events kept, in the order they started: a commit before the refreshes it ran, a
    /// value's refresh before those of the inputs it verified (the call tree, read top down).
    public var eventsByStart: [Event] {
        events.sorted { ($0.start, $0.sequence) < ($1.start, $1.sequence) }
    }

    /// How many events were dropped from the ring to keep ``capacity``.
    public var droppedCount: Int {
        lock.withLock { _dropped }
    }

    /// Per value: its recomputations, cutoffs, refreshes that kept it, and the time its
    /// refreshes took, over every event recorded (dropped ones included).
    public var statistics: [ValueID: Statistics] {
        lock.withLock { _statistics }
    }

    /// Per kind of scoped store (`InboxState → Store<Message?>`): how many times its listeners
    /// compared their state after a commit, and how many of those woke them. Counted, not
    /// recorded one by one.
    public var scopeComparisons: [String: ScopeComparisons] {
        lock.withLock { _scopeComparisons }
    }

    func countCacheHit(_ value: ValueID) {
        lock.withLock {
            guard isOpen else { return }
            _statistics[value, default: Statistics()].cacheHits += 1
        }
    }

    func countScopeComparison(_ key: String, woken: Bool) {
        lock.withLock {
            guard isOpen else { return }
            _scopeComparisons[key, default: ScopeComparisons()].compared += 1
            if woken { _scopeComparisons[key, default: ScopeComparisons()].woken += 1 }
        }
    }

    /// Adds the event `make` makes from its sequence number and the trace's start, unless the
    /// trace is closed.
    @discardableResult
    func append(_ make: (Int, ContinuousClock.Instant) -> Event) -> Event? {
        lock.withLock {
            guard isOpen else { return nil }
            let event = make(nextSequence, origin)
            nextSequence += 1
            if case .refresh(let refresh) = event {
                _statistics[refresh.value, default: Statistics()].add(refresh)
            }
            if ring.count < capacity {
                ring.append(event)
            } else {
                ring[ringStart] = event
                ringStart = (ringStart + 1) % capacity
                _dropped += 1
            }
            return event
        }
    }

    func close() {
        lock.withLock { isOpen = false }
    }
}

// MARK: - Recording

extension ChangeTrace {
    /// The innermost open scope of the current task.
    @TaskLocal static var _scope: ChangeTrace?

    /// Runs `body` with a fresh trace that records the work the current task (and its child
    /// tasks) do until `body` returns; returns the trace.
    @discardableResult
    public static func record(capacity: Int = defaultCapacity, _ body: (ChangeTrace) throws -> Void) rethrows -> ChangeTrace {
        let trace = open(capacity: capacity)
        defer { close(trace) }
        try $_scope.withValue(trace) { try body(trace) }
        return trace
    }

    /// Runs the asynchronous `body` with a fresh trace that records the work the current task
    /// and its child tasks do until `body` returns; returns the trace.
    @discardableResult
    public static func record(
        capacity: Int = defaultCapacity,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ChangeTrace) async throws -> Void
    ) async rethrows -> ChangeTrace {
        let trace = open(capacity: capacity)
        defer { close(trace) }
        try await $_scope.withValue(trace) { try await body(trace) }
        return trace
    }

    private static func open(capacity: Int) -> ChangeTrace {
        cg_change_traces_add(1)
        return ChangeTrace(capacity: capacity, parent: _scope)
    }

    private static func close(_ trace: ChangeTrace) {
        trace.close()
        cg_change_traces_add(-1)
    }

    /// Whether a trace records anything the calling task does.
    static var isRecordingHere: Bool {
        _scope != nil || ProcessTrace.current != nil
    }

    /// Counts a read through a store that found `value` cached, in every scope open in the
    /// current task and in the process-wide trace.
    static func deliverCacheHit(_ value: ValueID) {
        forEachScope { $0.countCacheHit(value) }
        ProcessTrace.current?.countCacheHit(value)
    }

    /// Counts a scoped store's comparison in every scope open in the current task and in the
    /// process-wide trace.
    static func deliverScopeComparison(_ key: String, woken: Bool) {
        forEachScope { $0.countScopeComparison(key, woken: woken) }
        ProcessTrace.current?.countScopeComparison(key, woken: woken)
    }

    /// Calls `body` with every scope open in the current task, innermost first.
    private static func forEachScope(_ body: (ChangeTrace) -> Void) {
        var scope = _scope
        while let trace = scope {
            body(trace)
            scope = trace.parent
        }
    }

    /// Adds an event to every scope open in the current task and to the process-wide trace (and,
    /// when it emits signposts, to Instruments, ending the refresh's `interval`).
    static func deliver(interval: _SignpostInterval? = nil, _ make: (Int, ContinuousClock.Instant) -> Event) {
        forEachScope { $0.append(make) }
        guard let (process, logs, signposts) = ProcessTrace.currentAndOutputs, let event = process.append(make) else { return }
        signposts?.emit(event, ending: interval)
        guard logs else { return }
        // `COMPUTEDGEN_TRACE=1`: each event as it happens, in the log's words.
        FileHandle.standardError.write(Data((logLines(event).joined(separator: "\n") + "\n").utf8))
    }
}

/// The process-wide change trace: started by ``ChangeTrace/startRecording(capacity:signposts:)`` or by the
/// environment variable `COMPUTEDGEN_TRACE`, which the runtime reads when the first generated
/// state's table is built:
/// - `COMPUTEDGEN_TRACE=1` (or `log`): every commit's block of the log is printed to standard
///   error as it happens;
/// - `COMPUTEDGEN_TRACE=path.json`: everything is recorded and written to `path.json` as a
///   Chrome Trace Event file when the process exits (open it in Perfetto or `chrome://tracing`);
/// - `COMPUTEDGEN_TRACE=signposts`: every event is also an Instruments signpost (on Apple
///   platforms; see ``ChangeTrace/signpostSubsystem``).
public enum ProcessTrace {
    /// The process-wide trace's state, behind a lock.
    private final class Storage: @unchecked Sendable {
        // Safety: every property is accessed only while `lock` is held.
        let lock = Lock.make()
        var trace: ChangeTrace?
        var logs = false
        var signposts: _Signposts?
        var exitPath: String?
    }

    private static let storage = Storage()

    /// The process-wide trace, while one records.
    public static var current: ChangeTrace? {
        storage.lock.withLock { storage.trace }
    }

    /// The process-wide trace, whether its events are printed to standard error as they happen,
    /// and its signposts.
    static var currentAndOutputs: (ChangeTrace, Bool, _Signposts?)? {
        storage.lock.withLock { storage.trace.map { ($0, storage.logs, storage.signposts) } }
    }

    /// The process-wide trace's signposts, while it emits them.
    static var signposts: _Signposts? {
        storage.lock.withLock { storage.signposts }
    }

    static func start(capacity: Int, logging: Bool, signposts: Bool = false) -> ChangeTrace {
        storage.lock.withLock {
            if let trace = storage.trace {
                if signposts, storage.signposts == nil { storage.signposts = _Signposts() }
                return trace
            }
            cg_change_traces_add(1)
            let trace = ChangeTrace(capacity: capacity, parent: nil)
            storage.trace = trace
            storage.logs = logging
            storage.signposts = signposts ? _Signposts() : nil
            return trace
        }
    }

    static func stop() -> ChangeTrace? {
        storage.lock.withLock {
            guard let trace = storage.trace else { return nil }
            trace.close()
            cg_change_traces_add(-1)
            storage.trace = nil
            storage.logs = false
            storage.signposts = nil
            return trace
        }
    }

    /// Reads `COMPUTEDGEN_TRACE` once (see the type's documentation).
    static let startFromEnvironment: Void = {
        guard let setting = ProcessInfo.processInfo.environment["COMPUTEDGEN_TRACE"], !setting.isEmpty, setting != "0" else { return }
        if setting == "1" || setting == "log" {
            _ = start(capacity: ChangeTrace.defaultCapacity, logging: true)
            return
        }
        if setting == "signposts" {
            _ = start(capacity: ChangeTrace.defaultCapacity, logging: false, signposts: true)
            return
        }
        _ = start(capacity: 1_000_000, logging: false)
        storage.lock.withLock { storage.exitPath = setting }
        atexit { ProcessTrace.writeAtExit() }
    }()

    /// Writes the process-wide trace to the file `COMPUTEDGEN_TRACE` names.
    private static func writeAtExit() {
        guard let path = storage.lock.withLock({ storage.exitPath }), let trace = current else { return }
        do {
            try trace.chromeTraceJSON().write(to: URL(fileURLWithPath: path))
        } catch {
            FileHandle.standardError.write(Data("ComputedRuntime: could not write the change trace to '\(path)': \(error)\n".utf8))
        }
    }
}

extension ChangeTrace {
    /// Starts the process-wide trace (see ``ProcessTrace``), or returns the one already
    /// recording. It records every thread's work until ``stopRecording()``.
    ///
    /// With `signposts`, every event is also an Instruments signpost on Apple platforms:
    /// recomputations as intervals, commits in Points of Interest (see ``signpostSubsystem``).
    @discardableResult
    public static func startRecording(capacity: Int = defaultCapacity, signposts: Bool = false) -> ChangeTrace {
        ProcessTrace.start(capacity: capacity, logging: false, signposts: signposts)
    }

    /// Stops the process-wide trace and returns it (nil when none was recording).
    @discardableResult
    public static func stopRecording() -> ChangeTrace? {
        ProcessTrace.stop()
    }
}
