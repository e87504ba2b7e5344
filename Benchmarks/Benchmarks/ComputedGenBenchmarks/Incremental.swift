// Measure 12 (issue 28): a ListView computed value of a generated state in the BenchModel library,
// after a one-message edit, insertion or removal, against the full recomputation of the same
// expression on an array in the same run; at 10^4, 10^5 and 10^6 messages.

import BenchModel
import Benchmark
import ComputedRuntime
import Foundation

func registerIncrementalBenchmarks() {
    for exponent in [4, 5, 6] {
        let count = pow10(exponent)
        let size = "10^\(exponent)"
        let messages = InboxBaselines.messages(count)

        /// An edit of the state then a read, per operation, on a warm state (every view read once).
        /// The state lives in a box across iterations and is edited in place: starting each
        /// iteration from a copy of a shared initial state would make its first edit diverge from
        /// that copy (a copy of the list and a full evaluation, which the first read after a bulk
        /// load measures instead).
        func incremental(_ what: String, _ operation: @escaping (inout BenchInbox, Int) -> Void) {
            measure("12 incremental \(size): \(what)", configuration(.kilo)) {
                let box = InboxBox(BenchInbox(messages: IdentifiedList(messages)))
                blackHole(box.state.computed.unread)
                blackHole(box.state.computed.unreadCount)
                blackHole(box.state.computed.latest)
                blackHole(box.state.computed.unreadTotal)
                return box
            } _: { benchmark, box in
                for i in benchmark.scaledIterations {
                    operation(&box.state, i)
                }
            }
        }

        /// The same edit of an array, then the full recomputation: one per iteration (milliseconds).
        func full(_ what: String, _ operation: @escaping (inout [BenchMessage], Int) -> Void) {
            measure("12 full \(size): \(what)", configuration(.one, maxDuration: .seconds(3))) {
                messages
            } _: { benchmark, initial in
                var array = initial
                for i in benchmark.scaledIterations {
                    operation(&array, i)
                }
            }
        }

        let date = { (i: Int) in Date(timeIntervalSince1970: Double(i % count)) }
        incremental("toggle a message + read unread (filter+sort)") { state, i in
            state.messages[id: (i &* 7_919) % count]?.isRead.toggle()
            blackHole(state.computed.unread)
        }
        full("toggle a message + filter+sort an array") { array, i in
            array[(i &* 7_919) % count].isRead.toggle()
            blackHole(InboxBaselines.unread(array))
        }
        incremental("toggle a message + read unreadCount") { state, i in
            state.messages[id: (i &* 7_919) % count]?.isRead.toggle()
            blackHole(state.computed.unreadCount)
        }
        full("toggle a message + count an array") { array, i in
            array[(i &* 7_919) % count].isRead.toggle()
            blackHole(InboxBaselines.unreadCount(array))
        }
        // A view of a view (issue 34, item 4): `firstUnread` follows the unread view's changes.
        // Its own warm state, so that the other measures' views keep no record for a follower.
        measure("12 incremental \(size): toggle a message + read firstUnread (unread.prefix(20), a view of a view)",
                configuration(.kilo)) {
            let box = InboxBox(BenchInbox(messages: IdentifiedList(messages)))
            blackHole(box.state.computed.firstUnread)
            return box
        } _: { benchmark, box in
            for i in benchmark.scaledIterations {
                box.state.messages[id: (i &* 7_919) % count]?.isRead.toggle()
                blackHole(box.state.computed.firstUnread)
            }
        }
        full("toggle a message + filter+sort an array, first 20") { array, i in
            array[(i &* 7_919) % count].isRead.toggle()
            blackHole(Array(InboxBaselines.unread(array).prefix(20)))
        }
        incremental("toggle a message + read unreadTotal (a fold)") { state, i in
            state.messages[id: (i &* 7_919) % count]?.isRead.toggle()
            blackHole(state.computed.unreadTotal)
        }
        incremental("redate a message + read latest (top 10)") { state, i in
            state.messages[id: (i &* 7_919) % count]?.date = date(i)
            blackHole(state.computed.latest)
        }
        full("redate a message + top 10 of an array") { array, i in
            array[(i &* 7_919) % count].date = date(i)
            blackHole(InboxBaselines.latest(array))
        }
        incremental("append + remove a message, reading unread after each") { state, i in
            state.messages.append(BenchMessage(id: count + i, subject: "new", date: date(i), isRead: false))
            blackHole(state.computed.unread)
            blackHole(state.messages.remove(id: count + i))
            blackHole(state.computed.unread)
        }

        if exponent == 6 {
            registerDisturbedViewBenchmarks(messages)
        }

        // Bulk load: a new state of `count` messages and its first read, against filter + sort.
        measure("12 incremental \(size): bulk load + first read of unread", configuration(.one, maxDuration: .seconds(3))) {
            messages
        } _: { benchmark, messages in
            for _ in benchmark.scaledIterations {
                blackHole(BenchInbox(messages: IdentifiedList(messages)).computed.unread)
            }
        }
        full("filter+sort an array (bulk)") { array, _ in
            blackHole(InboxBaselines.unread(array))
        }
    }

    // Reading a view nobody changed costs what reading any cached computed value costs: the
    // unread view of a warm state against a cached `[Int]` of another generated state, both in
    // the library, read from here.
    measure("12 read: the unread view, unchanged", configuration(.mega)) {
        let state = BenchInbox(messages: IdentifiedList(InboxBaselines.messages(pow10(4))))
        blackHole(state.computed.unread)
        return state
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(state.computed.unread)
        }
    }
    measure("12 read: a cached [Int] computed value", configuration(.mega)) {
        let state = ModelState(items: Array(0..<pow10(4)))
        blackHole(state.computed.evens)
        return state
    } _: { benchmark, state in
        for _ in benchmark.scaledIterations {
            blackHole(state.computed.evens)
        }
    }
}

/// One toggle + read of the unread view per iteration with caches disturbed between two edits
/// (issue 34: the fixed cost of a one-element update, as an app pays it when rendering runs
/// between two taps), against the same on an array, the disturbance outside the measurement (see
/// measure 14, Groups.swift).
private func registerDisturbedViewBenchmarks(_ messages: [BenchMessage]) {
    let count = messages.count
    let disturbance = Disturbance(count: 1 << 22)
    disturbance.measureEdits("12 incremental 10^6, caches disturbed: toggle a message + read unread (filter+sort)", setup: {
        let box = InboxBox(BenchInbox(messages: IdentifiedList(messages)))
        blackHole(box.state.computed.unread)
        return box
    }) { box, i in
        box.state.messages[id: (i &* 7_919) % count]?.isRead.toggle()
        blackHole(box.state.computed.unread)
    }
    disturbance.measureEdits("12 full 10^6, caches disturbed: toggle a message + filter+sort an array", setup: {
        MessagesBox(messages)
    }) { box, i in
        box.messages[(i &* 7_919) % count].isRead.toggle()
        blackHole(InboxBaselines.unread(box.messages))
    }
}

/// An array edited in place across a benchmark's iterations.
final class MessagesBox: @unchecked Sendable {
    var messages: [BenchMessage]

    init(_ messages: [BenchMessage]) {
        self.messages = messages
    }
}

/// A state edited in place across a benchmark's iterations.
final class InboxBox: @unchecked Sendable {
    var state: BenchInbox

    init(_ state: BenchInbox) {
        self.state = state
    }
}
