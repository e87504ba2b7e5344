import Foundation

/// A trace as a Chrome Trace Event file, which the Perfetto UI (ui.perfetto.dev), Chrome's
/// `chrome://tracing` and the Catapult trace viewer open.
extension ChangeTrace {
    /// The events kept, in the Chrome Trace Event format (JSON object form):
    /// - each refresh is a complete slice (`"ph": "X"`) named after its value, in the category
    ///   `recompute`, `cutoff`, `first` or `kept`, with its causes in `args`;
    /// - each commit is a slice in the category `commit`, with the fields it changed, followed by
    ///   one short slice per notification (category `notify`);
    /// - a flow arrow (`"ph": "s"` / `"f"`) goes from each commit to every recomputation one of
    ///   whose inputs that commit moved (matched by stamp), and to every notification it sent;
    /// - counter tracks (`"ph": "C"`) count recomputations and cutoffs.
    ///
    /// Times are microseconds from the trace's start.
    public func chromeTraceJSON() -> Data {
        var out = ChromeTraceWriter()
        out.metadata(name: "process_name", thread: 1, args: #"{"name":"ComputedGen change trace"}"#)
        let events = eventsByStart
        // A track per thread: slices of different threads overlap without nesting.
        for thread in Set(events.map(\.thread)).sorted() {
            out.metadata(name: "thread_name", thread: thread, args: #"{"name":"thread \#(thread)"}"#)
        }
        // Which commit gave each field stamp (for the flows), first: a commit's observers may
        // refresh values before the commit's event ends.
        var commitOfStamp: [VersionStamp: (id: Int, start: Double, thread: UInt64)] = [:]
        for case .commit(let commit) in events {
            for change in commit.changed where commitOfStamp[change.version] == nil {
                commitOfStamp[change.version] = (commit.sequence, Self.microseconds(commit.start), commit.thread)
            }
        }
        var recomputations = 0
        var cutOffs = 0
        var nextFlow = 1
        for event in events {
            switch event {
            case .commit(let commit):
                let start = Self.microseconds(commit.start)
                let duration = max(Self.microseconds(commit.duration), 0.001)
                let changed = commit.changed.map { "\"\(ChromeTraceWriter.escaped($0.field))\":\"\($0.version)\"" }.joined(separator: ",")
                out.slice(name: "commit \(commit.state)", category: "commit", thread: commit.thread, start: start, duration: duration,
                          args: "{\"changed\":{\(changed)},\"observersNotWoken\":\(commit.observersNotWoken)}")
                // One 1 ns slice per notification after the commit, each 1 ns after the slice
                // before it: a flow's end binds to the slice enclosing its time, and a time where
                // one slice ends and the next starts binds to either (the Catapult viewer takes the
                // one that ends, so the arrow went from the commit to itself).
                var at = start + duration
                for notification in commit.notifications {
                    at += 0.001
                    out.flow(id: nextFlow, from: commit.thread, start: start, to: commit.thread, end: at, name: "notify")
                    nextFlow += 1
                    out.slice(name: notification.description, category: "notify", thread: commit.thread, start: at, duration: 0.001, args: "{}")
                    at += 0.001
                }
            case .refresh(let refresh):
                let start = Self.microseconds(refresh.start)
                let category = !refresh.recomputed ? "kept" : refresh.isFirstComputation ? "first" : refresh.isCutOff ? "cutoff" : "recompute"
                let causes = refresh.causes.map { "\"\(ChromeTraceWriter.escaped($0.description))\"" }.joined(separator: ",")
                out.slice(name: refresh.value.description, category: category, thread: refresh.thread, start: start,
                          duration: max(Self.microseconds(refresh.duration), 0.001),
                          args: "{\"causes\":[\(causes)],\"cutOff\":\(refresh.isCutOff),\"version\":\"\(refresh.version)\"}")
                for cause in refresh.causes {
                    guard let origin = commitOfStamp[cause.to] else { continue }
                    out.flow(id: nextFlow, from: origin.thread, start: origin.start, to: refresh.thread, end: start, name: "cause")
                    nextFlow += 1
                }
                if refresh.recomputed {
                    recomputations += 1
                    if refresh.isCutOff { cutOffs += 1 }
                    out.counter(name: "recomputations", at: start, args: "{\"recomputations\":\(recomputations),\"cutOffs\":\(cutOffs)}")
                }
            case .delivery(let delivery):
                out.slice(name: delivery.notification.description, category: "notify", thread: delivery.thread, start: Self.microseconds(delivery.start),
                          duration: 0.001, args: "{\"state\":\"\(ChromeTraceWriter.escaped(delivery.state))\"}")
            case .cacheMiss(let miss):
                let evicted = miss.evicted.map { "\"\(ChromeTraceWriter.escaped($0))\"" } ?? "null"
                out.slice(name: "cache miss \(miss.selector) for \(miss.argument)", category: "cachemiss", thread: miss.thread, start: Self.microseconds(miss.start),
                          duration: 0.001, args: "{\"evicted\":\(evicted),\"capacity\":\(miss.capacity)}")
            }
        }
        return out.finish()
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}

/// Writes Chrome Trace Event JSON by hand: a trace of 10^5 commits is written in well under a
/// second, which `JSONSerialization` of as many dictionaries is not.
struct ChromeTraceWriter {
    private var text = #"{"displayTimeUnit":"ns","traceEvents":["#
    private var first = true

    private mutating func append(_ event: String) {
        if !first { text += ",\n" }
        first = false
        text += event
    }

    mutating func metadata(name: String, thread: UInt64, args: String) {
        append(#"{"ph":"M","pid":1,"tid":\#(thread),"name":"\#(name)","args":\#(args)}"#)
    }

    /// A slice on the track of `thread`.
    mutating func slice(name: String, category: String, thread: UInt64, start: Double, duration: Double, args: String) {
        append(#"{"ph":"X","pid":1,"tid":\#(thread),"name":"\#(Self.escaped(name))","cat":"\#(category)","ts":\#(Self.number(start)),"dur":\#(Self.number(duration)),"args":\#(args)}"#)
    }

    /// A flow arrow from the slice of thread `from` enclosing `start` to the slice of thread `to`
    /// enclosing `end`.
    mutating func flow(id: Int, from: UInt64, start: Double, to: UInt64, end: Double, name: String) {
        append(#"{"ph":"s","pid":1,"tid":\#(from),"name":"\#(name)","cat":"flow","id":\#(id),"ts":\#(Self.number(start))}"#)
        append(#"{"ph":"f","bp":"e","pid":1,"tid":\#(to),"name":"\#(name)","cat":"flow","id":\#(id),"ts":\#(Self.number(end))}"#)
    }

    mutating func counter(name: String, at time: Double, args: String) {
        append(#"{"ph":"C","pid":1,"tid":1,"name":"\#(name)","ts":\#(Self.number(time)),"args":\#(args)}"#)
    }

    mutating func finish() -> Data {
        text += "]}\n"
        return Data(text.utf8)
    }

    /// Microseconds with three decimals (nanosecond resolution).
    static func number(_ value: Double) -> String {
        let nanoseconds = Int64((value * 1_000).rounded())
        let fraction = abs(nanoseconds % 1_000)
        let padding = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return "\(nanoseconds / 1_000).\(padding)\(fraction)"
    }

    /// `text` as the inside of a JSON string.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
