// Measure 14 (issue 34): a ListGroups computed value of a generated state in the BenchModel
// library (50,000 articles, unread ones by feed), after one article is marked read or unread,
// read as a feed's row does (its count and first article), against the full recomputation of the
// same expression on an array (filter + sort + `Dictionary(grouping:)`) in the same run; at 10,
// 1,000 and 10,000 feeds. Each is measured in a warm loop and with caches disturbed between two
// edits (a full pass over a 32 MB array, as rendering runs between two taps in an app), the
// disturbance itself outside the measurement.

import BenchModel
import Benchmark
import ComputedRuntime
import Foundation

func registerGroupBenchmarks() {
    let count = 50_000
    /// What disturbs the caches between two edits: 4 Mi integers (32 MB), each incremented.
    let disturbance = Disturbance(count: 1 << 22)

    for feeds in [10, 1_000, 10_000] {
        let articles = FeedsBaselines.articles(count, feeds: feeds)
        let article = { (i: Int) in (i &* 7_919) % count }

        /// The edit and the read of a feed's row.
        func editAndRead(_ state: inout BenchFeeds, _ i: Int) {
            let id = article(i)
            state.articles[id: id]?.isRead.toggle()
            let groups = state.computed.unreadByFeed
            blackHole(groups.count(of: id % feeds))
            blackHole(groups[id % feeds].first)
        }

        func editAndRead(_ array: inout [BenchArticle], _ i: Int) {
            let id = article(i)
            array[id].isRead.toggle()
            let groups = FeedsBaselines.unreadByFeed(array)
            blackHole(groups[id % feeds]?.count)
            blackHole(groups[id % feeds]?.first)
        }

        /// The edit and the read of a feed's unread count, as a total per key.
        func editAndReadCount(_ state: inout BenchFeeds, _ i: Int) {
            let id = article(i)
            state.articles[id: id]?.isRead.toggle()
            blackHole(state.computed.unreadCounts[id % feeds])
        }

        /// A warm state, edited in place across iterations (see measure 12).
        func warmState() -> FeedsBox {
            let box = FeedsBox(BenchFeeds(articles: IdentifiedList(articles)))
            blackHole(box.state.computed.unreadByFeed)
            blackHole(box.state.computed.unreadCounts)
            return box
        }

        measure("14 incremental \(feeds) groups: toggle an article + read its group", configuration(.kilo)) {
            warmState()
        } _: { benchmark, box in
            for i in benchmark.scaledIterations { editAndRead(&box.state, i) }
        }
        measure("14 full \(feeds) groups: toggle an article + group an array", configuration(.one, maxDuration: .seconds(3))) {
            articles
        } _: { benchmark, initial in
            var array = initial
            for i in benchmark.scaledIterations { editAndRead(&array, i) }
        }

        measure("14 incremental \(feeds) groups: toggle an article + read its feed's count (count(by:))", configuration(.kilo)) {
            warmState()
        } _: { benchmark, box in
            for i in benchmark.scaledIterations { editAndReadCount(&box.state, i) }
        }
        measure("14 full \(feeds) groups: toggle an article + count an array by feed", configuration(.one, maxDuration: .seconds(2))) {
            articles
        } _: { benchmark, initial in
            var array = initial
            for i in benchmark.scaledIterations {
                let id = article(i)
                array[id].isRead.toggle()
                blackHole(FeedsBaselines.unreadCounts(array)[id % feeds])
            }
        }

        disturbance.measureEdits("14 incremental \(feeds) groups, caches disturbed: toggle an article + read its group", setup: {
            warmState()
        }) { box, i in
            editAndRead(&box.state, i)
        }
        disturbance.measureEdits("14 full \(feeds) groups, caches disturbed: toggle an article + group an array", setup: {
            ArticlesBox(articles)
        }) { box, i in
            editAndRead(&box.articles, i)
        }
    }
}

/// A state edited in place across a benchmark's iterations.
final class FeedsBox: @unchecked Sendable {
    var state: BenchFeeds

    init(_ state: BenchFeeds) {
        self.state = state
    }
}

/// An array edited in place across a benchmark's iterations.
final class ArticlesBox: @unchecked Sendable {
    var articles: [BenchArticle]

    init(_ articles: [BenchArticle]) {
        self.articles = articles
    }
}

/// A full pass over a large array, to run between two measured edits: it evicts what the edit
/// before it left in the caches, as an app's rendering does between two taps.
final class Disturbance: @unchecked Sendable {
    // Safety: one benchmark runs at a time.
    var values: [Int]

    init(count: Int) {
        values = Array(repeating: 0, count: count)
    }

    func run() {
        values.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] &+= 1 }
        }
        blackHole(values[values.count / 2])
    }

    /// Registers a benchmark of one `edit` per iteration (given the iteration's number) with the
    /// caches disturbed between two: the edit, then this disturbance outside the measurement
    /// (after an explicit stop, the closure's end records nothing); each edit follows the previous
    /// iteration's, on what `setup` made.
    func measureEdits<Setup>(_ name: String, setup: @escaping () -> Setup, _ edit: @escaping (Setup, Int) -> Void) {
        measure(name, configuration(.one, maxDuration: .seconds(3))) {
            setup()
        } _: { benchmark, setup in
            for i in benchmark.scaledIterations {
                edit(setup, i &+ benchmark.currentIteration)
                benchmark.stopMeasurement()
                self.run()
            }
        }
    }
}
