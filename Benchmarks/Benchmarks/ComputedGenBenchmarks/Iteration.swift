// Measure 13 (issue 37): walking a ListView through its iterator, as `first(where:)`, `contains`,
// `lazy` chains and `for` loops do, against the same walk over an Array of the same elements.
// The view is the unread view of a generated state of 10^6 messages (666,666 elements, a filter
// and a sort), read from this module; the array is the same expression on a plain array.

import BenchModel
import Benchmark
import ComputedRuntime
import Foundation

func registerIterationBenchmarks() {
    let messages = InboxBaselines.messages(pow10(6))

    /// `body` over the unread view of a warm state, `ops` times per iteration.
    func view(_ what: String, _ scale: BenchmarkScalingFactor, _ body: @escaping (ListView<BenchMessage>) -> Void) {
        measure("13 iterate the view: \(what)", configuration(scale)) {
            BenchInbox(messages: IdentifiedList(messages)).computed.unread
        } _: { benchmark, unread in
            for _ in benchmark.scaledIterations {
                body(unread)
            }
        }
    }

    /// `body` over the same elements in an array.
    func array(_ what: String, _ scale: BenchmarkScalingFactor, _ body: @escaping ([BenchMessage]) -> Void) {
        measure("13 iterate an array: \(what)", configuration(scale)) {
            InboxBaselines.unread(messages)
        } _: { benchmark, unread in
            for _ in benchmark.scaledIterations {
                body(unread)
            }
        }
    }

    view("first(where:), first element", .kilo) { blackHole($0.first { _ in true }) }
    array("first(where:), first element", .kilo) { blackHole($0.first { _ in true }) }
    view("for loop, break after 10", .kilo) { elements in
        var count = 0
        for message in elements {
            blackHole(message)
            count += 1
            if count == 10 { break }
        }
    }
    array("for loop, break after 10", .kilo) { elements in
        var count = 0
        for message in elements {
            blackHole(message)
            count += 1
            if count == 10 { break }
        }
    }
    view("full iteration", .one) { elements in
        var unread = 0
        for message in elements where !message.isRead { unread += 1 }
        blackHole(unread)
    }
    array("full iteration", .one) { elements in
        var unread = 0
        for message in elements where !message.isRead { unread += 1 }
        blackHole(unread)
    }
}
