/// What a ``ChangeTrace`` records.
extension ChangeTrace {
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
        /// Its version now.
        public var to: VersionStamp

        /// `todos v12 → v40`.
        public var description: String {
            "\(input) \(from.map(\.description) ?? "—") → \(to)"
        }
    }

    /// A refresh of a stale value that did work: it ran the value's body, or verified that none
    /// of its inputs moved and kept the cached value.
    public struct Refresh: Sendable {
        /// The event's position in its trace.
        public var sequence: Int
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
            }
        }
    }

    /// A commit of a root store.
    public struct Commit: Sendable {
        /// The event's position in its trace.
        public var sequence: Int
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

    /// One recorded event.
    public enum Event: Sendable {
        /// A refresh of a value that did work.
        case refresh(Refresh)
        /// A commit of a root store.
        case commit(Commit)

        /// The event's position in its trace, in the order events ended (a value's refresh
        /// ends before the refresh of the value that read it, and a refresh that a commit ran to
        /// check its observers before the commit).
        public var sequence: Int {
            switch self {
            case .refresh(let refresh): refresh.sequence
            case .commit(let commit): commit.sequence
            }
        }

        /// When the event started, from the trace's start.
        public var start: Duration {
            switch self {
            case .refresh(let refresh): refresh.start
            case .commit(let commit): commit.start
            }
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
