#if canImport(os)
import os
#endif

/// Instruments: while the process-wide trace runs with signposts (``ChangeTrace/startRecording(capacity:signposts:)``
/// or `COMPUTEDGEN_TRACE=signposts`), every event is also an `OSSignposter` signpost of subsystem
/// ``ChangeTrace/signpostSubsystem``:
/// - category `Recomputations`: an interval per refresh that did work (`recompute`, named after
///   the value, its end message the log's line: causes, list evaluation, cutoff), an event per
///   cutoff (`cutoff`) and per parameterized selector cache miss (`cache miss`);
/// - category `PointsOfInterest` (Apple's `.pointsOfInterest`, which Instruments' Time Profiler
///   and the Points of Interest instrument show without any setup): an event per store commit
///   (`commit`, with the fields it changed);
/// - category `Notifications`: an event per observer woken (`notify`: Observation of a member, the
///   subscribers, a scoped store or a row).
///
/// On other platforms there is nothing to emit to: the trace records as usual.
extension ChangeTrace {
    /// The subsystem of the change trace's signposts.
    public static let signpostSubsystem = "dev.computedgen.ComputedRuntime"

    /// Begins the Instruments interval of a refresh, when the process-wide trace emits signposts.
    static func beginSignpostInterval(_ value: @autoclosure () -> String) -> _SignpostInterval? {
        guard let signposts = ProcessTrace.signposts else { return nil }
        return signposts.signposter.beginRecomputation(value())
    }

    /// Ends an interval whose refresh turned out to be no event (the value was up to date).
    static func endSignpostInterval(_ interval: _SignpostInterval?, _ message: String) {
        guard interval != nil, let signposts = ProcessTrace.signposts else { return }
        signposts.signposter.endRecomputation(interval, message)
    }
}

/// The signposts of the process-wide trace: what each event emits, in the log's words.
final class _Signposts: @unchecked Sendable {
    // Safety: immutable; signposters are thread-safe (each call is one os_signpost).
    let signposter = _Signposter()

    /// Emits `event`, ending `interval` when it is the event's refresh.
    func emit(_ event: ChangeTrace.Event, ending interval: _SignpostInterval?) {
        let line = ChangeTrace.logLines(event).first.map { String($0.drop { $0 == " " }) } ?? ""
        switch event {
        case .refresh(let refresh):
            signposter.endRecomputation(interval, line)
            if refresh.isCutOff { signposter.event(.cutOff, line) }
        case .commit(let commit):
            signposter.event(.commit, line)
            for notification in commit.notifications { signposter.event(.notification, notification.description) }
        case .delivery(let delivery):
            signposter.event(.notification, delivery.notification.description)
        case .cacheMiss:
            signposter.event(.cacheMiss, line)
        }
    }
}

/// What a signpost event marks.
enum _SignpostEvent {
    case cutOff, cacheMiss, commit, notification
}

#if canImport(os)
/// An interval begun in Instruments.
struct _SignpostInterval {
    let state: OSSignpostIntervalState
}

/// The change trace's three signposters (the only code here that differs on Apple platforms).
struct _Signposter {
    private let recomputations = OSSignposter(subsystem: ChangeTrace.signpostSubsystem, category: "Recomputations")
    private let commits = OSSignposter(subsystem: ChangeTrace.signpostSubsystem, category: .pointsOfInterest)
    private let notifications = OSSignposter(subsystem: ChangeTrace.signpostSubsystem, category: "Notifications")

    func beginRecomputation(_ value: String) -> _SignpostInterval? {
        guard recomputations.isEnabled else { return nil }
        return _SignpostInterval(state: recomputations.beginInterval("recompute", id: recomputations.makeSignpostID(), "\(value, privacy: .public)"))
    }

    func endRecomputation(_ interval: _SignpostInterval?, _ message: String) {
        guard let interval else { return }
        recomputations.endInterval("recompute", interval.state, "\(message, privacy: .public)")
    }

    func event(_ kind: _SignpostEvent, _ message: String) {
        switch kind {
        case .cutOff: recomputations.emitEvent("cutoff", "\(message, privacy: .public)")
        case .cacheMiss: recomputations.emitEvent("cache miss", "\(message, privacy: .public)")
        case .commit: commits.emitEvent("commit", "\(message, privacy: .public)")
        case .notification: notifications.emitEvent("notify", "\(message, privacy: .public)")
        }
    }
}
#else
/// An interval begun in Instruments (none here).
struct _SignpostInterval {}

/// Signposts exist on Apple platforms only: nothing is emitted.
struct _Signposter {
    func beginRecomputation(_ value: String) -> _SignpostInterval? { nil }
    func endRecomputation(_ interval: _SignpostInterval?, _ message: String) {}
    func event(_ kind: _SignpostEvent, _ message: String) {}
}
#endif
