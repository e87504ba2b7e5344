/// The console view of a trace: one block per commit, with the work the reads after it did.
extension ChangeTrace {
    /// The log of the events kept, in the order they started: one block per commit (the fields it
    /// changed, the observers it woke and how many it left asleep), followed by the refreshes
    /// that ran after it (recomputed with their causes and time, cut off with the values spared,
    /// kept), each indented under the refresh that verified it.
    ///
    /// ```text
    /// commit #4 TodoScreen: todos
    ///   1 observer not woken
    ///   recomputed TodoScreen.header in 14.41 µs: todos v1 → v4; cut off
    ///     recomputed TodoScreen.openCount in 3.53 µs: todos v1 → v4; cut off, spared header
    /// ```
    public var log: String {
        var text = ""
        printChanges(to: &text)
        return text
    }

    /// Writes ``log`` to `target`.
    public func printChanges<Target: TextOutputStream>(to target: inout Target) {
        for event in eventsByStart {
            target.write(Self.logLines(event).joined(separator: "\n") + "\n")
        }
        for warning in warnings {
            target.write(warning + "\n")
        }
    }

    /// Prints ``log`` to standard output.
    public func printChanges() {
        print(log, terminator: "")
    }

    /// The lines of one event in the log.
    static func logLines(_ event: Event) -> [String] {
        switch event {
        case .commit(let commit):
            let changed = commit.changed.isEmpty ? "nothing changed" : commit.changedFields.joined(separator: ", ")
            var lines = ["commit #\(commit.sequence) \(commit.state): \(changed)"]
            var told = commit.notifications.isEmpty ? [] : ["woke " + commit.notifications.map(\.description).joined(separator: "; ")]
            if commit.observersNotWoken > 0 {
                told.append("\(commit.observersNotWoken) observer\(commit.observersNotWoken == 1 ? "" : "s") not woken")
            }
            if !told.isEmpty { lines.append("  " + told.joined(separator: "; ")) }
            return lines
        case .refresh(let refresh):
            let indent = String(repeating: "  ", count: refresh.depth + 1)
            let time = formatted(refresh.duration)
            if !refresh.recomputed {
                return ["\(indent)kept \(refresh.value) in \(time): no input moved since \(refresh.version)"]
            }
            if refresh.isFirstComputation {
                return ["\(indent)computed \(refresh.value) in \(time) (first read)"]
            }
            var line = "\(indent)recomputed \(refresh.value) in \(time): " + refresh.causes.map(\.description).joined(separator: ", ")
            if let evaluation = refresh.evaluation {
                line += "; \(evaluation)"
            }
            if refresh.isCutOff {
                line += "; cut off" + (refresh.readers.isEmpty ? "" : ", spared " + refresh.readers.joined(separator: ", "))
            }
            return [line]
        case .delivery(let delivery):
            return ["  woke \(delivery.notification)"]
        case .cacheMiss(let miss):
            return ["  cache miss: \(miss.selector) for \(miss.argument)" + (miss.evicted.map { ", evicted \($0) (cache \(miss.capacity))" } ?? "")]
        }
    }

    /// `0.12 ms`, `35 µs`.
    static func formatted(_ duration: Duration) -> String {
        let nanoseconds = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
        if nanoseconds >= 1e6 { return String(format2: nanoseconds / 1e6) + " ms" }
        if nanoseconds >= 1e3 { return String(format2: nanoseconds / 1e3) + " µs" }
        return "\(Int(nanoseconds)) ns"
    }
}

extension String {
    /// `value` with two decimals, without Foundation's formatting (which differs across platforms).
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
