import CComputedAtomics

/// What a ``ChangeTrace`` records.
extension ChangeTrace {
    /// The calling thread's number in traces: 1 for the first thread that recorded an event, 2
    /// for the next, and so on. A trace viewer shows each thread's events on a track of its own.
    public static var currentThread: UInt64 {
        cg_trace_thread_number()
    }

    /// A computed value of a generated state: the state's type name and the value's name.
    public struct ValueID: Hashable, Sendable, CustomStringConvertible {
        /// The state's type name, e.g. `TodoState`.
        public var state: String
        /// The value's name in the spec, e.g. `visibleTodos`.
        public var name: String

        /// `TodoState.visibleTodos`.
        public var description: String { "\(state).\(name)" }
    }

    /// An input of a value whose version moved since the value was last computed.
    public struct Cause: Hashable, Sendable, CustomStringConvertible {
        /// The input's name: a field (`todos`), a computed value (`visibleTodos`), or a member of a
        /// nested state's field (`shelf.computed.total`).
        public var input: String
        /// Its version when the value was last computed (nil for an input recorded for the
        /// first time).
        public var from: VersionStamp?
        /// Its version now (0 for a selector's input compared by `==`, which has no version).
        public var to: VersionStamp

        /// `todos v12 → v40` (`query changed` for an input compared by `==`).
        public var description: String {
            to.rawValue == 0 ? "\(input) changed" : "\(input) \(from.map(\.description) ?? "—") → \(to)"
        }
    }

    /// A refresh of a stale value that did work: it ran the value's body, or verified that none
    /// of its inputs moved and kept the cached value.
    public struct Refresh: Sendable {
        /// The event's position in its trace.
        public var sequence: Int
        /// The thread it ran on, numbered in the order threads first recorded (1, 2, …).
        public var thread = ChangeTrace.currentThread
        /// The value refreshed.
        public var value: ValueID
        /// Whether the body ran (false: no input moved, the cached value was kept).
        public var recomputed: Bool
        /// Whether the value had never been computed before (its first read).
        public var isFirstComputation: Bool
        /// The inputs whose versions moved since the value was last computed: why it recomputed.
        public var causes: [Cause]
        /// Whether the body's result was equal to the cached value, which was kept with its
        /// version (an early cutoff): the values that read it are not recomputed for it.
        public var isCutOff: Bool
        /// The values that read this one directly: spared by a cutoff, and woken otherwise.
        public var readers: [String]
        /// The value's version after the refresh.
        public var version: VersionStamp
        /// For a value maintained incrementally (a `ListView`, `ListGroups` or a fold over a
        /// list) that recomputed: whether it followed the list's changes or was evaluated in
        /// full, and why (nil for other values).
        public var evaluation: ListEvaluation?
        /// When the refresh started, from the trace's start.
        public var start: Duration
        /// How long the refresh took, verifying its inputs (and refreshing those that are
        /// computed values) included.
        public var duration: Duration
        /// How many refreshes this one ran inside (0 when it was read directly; 1 for an input
        /// that a reader's refresh verified; …).
        public var depth: Int

        /// The input names of ``causes``.
        public var inputs: [String] { causes.map(\.input) }
    }

    /// A notification a commit sent.
    public struct Notification: Hashable, Sendable, CustomStringConvertible {
        /// Who was told.
        public enum Observer: Hashable, Sendable {
            /// Observation's observers of a member read through the store (SwiftUI views).
            case observation
            /// Observation's observers of the whole state (`store.state` read in a view).
            case wholeState
            /// The store's subscribers: `subscribe` handlers, `select`/`states` streams,
            /// publishers, derived stores and scoped stores' listeners (`count` of them).
            case subscribers(count: Int)
            /// A scoped store (`store.scope(\.settings)`) whose state the commit changed: its
            /// subscribers and observers are told. `store` names its type (`Store<Settings>`).
            case scopedStore(store: String)
            /// The row store of the element with `id` (`store.scope(\.messages, id: 3)`), whose
            /// element the commit changed.
            case row(id: String)
        }

        /// Who was told.
        public var observer: Observer
        /// The member whose change woke them (`todos`, `computed.visibleCount`); for subscribers
        /// and whole-state observers, the fields the commit changed, joined by `, `.
        public var member: String

        /// `Observation of computed.visibleCount`.
        public var description: String {
            switch observer {
            case .observation: "Observation of \(member)"
            case .wholeState: "Observation of the whole state (\(member))"
            case .subscribers(let count): "\(count) subscriber\(count == 1 ? "" : "s") (\(member))"
            case .scopedStore(let store): "scoped \(store) (\(member))"
            case .row(let id): "row \(id) of \(member)"
            }
        }
    }

    /// A commit of a root store.
    public struct Commit: Sendable {
        /// The event's position in its trace.
        public var sequence: Int
        /// The thread it ran on, numbered in the order threads first recorded (1, 2, …).
        public var thread = ChangeTrace.currentThread
        /// The state's type name.
        public var state: String
        /// The fields whose stamps moved, with their new stamps, in declaration order (empty: the
        /// commit changed nothing, and nobody was told).
        public var changed: [(field: String, version: VersionStamp)]
        /// The notifications sent.
        public var notifications: [Notification]
        /// The Observation members still armed after the commit: observers not woken (counted,
        /// not listed).
        public var observersNotWoken: Int
        /// When the commit started, from the trace's start.
        public var start: Duration
        /// How long the commit took (the mutation and the change detection, not the notified
        /// observers' work).
        public var duration: Duration

        /// The names of ``changed``.
        public var changedFields: [String] { changed.map(\.field) }
    }

    /// A notification a child store sent after its parent's commit: a scoped store whose state
    /// changed, or the row of an element that changed.
    public struct Delivery: Sendable {
        /// The event's position in its trace.
        public var sequence: Int
        /// The thread it ran on, numbered in the order threads first recorded (1, 2, …).
        public var thread = ChangeTrace.currentThread
        /// The parent store's state type name.
        public var state: String
        /// Who was told, and of what.
        public var notification: Notification
        /// When it was sent, from the trace's start.
        public var start: Duration
    }

    /// A call of a parameterized selector for an argument its cache did not hold.
    public struct CacheMiss: Sendable {
        /// The event's position in its trace.
        public var sequence: Int
        /// The thread it ran on, numbered in the order threads first recorded (1, 2, …).
        public var thread = ChangeTrace.currentThread
        /// The selector (`LibraryState.todos(ownedBy:)`).
        public var selector: ValueID
        /// The argument missed, as `String(describing:)` prints it.
        public var argument: String
        /// The least recently used argument evicted to make room (nil while the cache was not full).
        public var evicted: String?
        /// The cache's capacity (a spec's `cache N`).
        public var capacity: Int
        /// When it happened, from the trace's start.
        public var start: Duration
    }

    /// One recorded event.
    public enum Event: Sendable {
        /// A refresh of a value that did work.
        case refresh(Refresh)
        /// A commit of a root store.
        case commit(Commit)
        /// A notification of a scoped store or a row after a commit.
        case delivery(Delivery)
        /// A parameterized selector's cache miss.
        case cacheMiss(CacheMiss)

        /// The event's position in its trace, in the order events ended (a value's refresh
        /// ends before the refresh of the value that read it, and a refresh that a commit ran to
        /// check its observers before the commit).
        public var sequence: Int {
            switch self {
            case .refresh(let refresh): refresh.sequence
            case .commit(let commit): commit.sequence
            case .delivery(let delivery): delivery.sequence
            case .cacheMiss(let miss): miss.sequence
            }
        }

        /// The thread the event ran on (see ``ChangeTrace/currentThread``).
        public var thread: UInt64 {
            switch self {
            case .refresh(let refresh): refresh.thread
            case .commit(let commit): commit.thread
            case .delivery(let delivery): delivery.thread
            case .cacheMiss(let miss): miss.thread
            }
        }

        /// When the event started, from the trace's start.
        public var start: Duration {
            switch self {
            case .refresh(let refresh): refresh.start
            case .commit(let commit): commit.start
            case .delivery(let delivery): delivery.start
            case .cacheMiss(let miss): miss.start
            }
        }
    }

    /// How often the listeners of one kind of scoped store compared their state, and how often
    /// that woke them.
    public struct ScopeComparisons: Hashable, Sendable {
        /// Comparisons after parent commits.
        public var compared = 0
        /// Of those, the ones that found a change and told the scoped store's observers.
        public var woken = 0

        /// Counts of `compared` comparisons, `woken` of which woke their store.
        public init(compared: Int = 0, woken: Int = 0) {
            self.compared = compared
            self.woken = woken
        }
    }

    /// What one value cost, over a trace.
    public struct Statistics: Hashable, Sendable {
        /// Refreshes that ran the body.
        public var recomputations = 0
        /// Of those, the ones whose result was equal to the cached value.
        public var cutOffs = 0
        /// Refreshes that verified the inputs and kept the cached value without running the body.
        public var keptCount = 0
        /// Reads through a store (`store.computed.total`) that found the value cached: served
        /// without any work. (A read of `state.computed.total` on a state value is one load, and
        /// not counted.)
        public var cacheHits = 0
        /// The time all its refreshes took.
        public var time: Duration = .zero

        /// The share of recomputations whose result was equal: work done for nothing.
        public var wastedShare: Double {
            recomputations == 0 ? 0 : Double(cutOffs) / Double(recomputations)
        }

        mutating func add(_ refresh: Refresh) {
            if refresh.recomputed {
                recomputations += 1
                if refresh.isCutOff { cutOffs += 1 }
            } else {
                keptCount += 1
            }
            time += refresh.duration
        }
    }
}
