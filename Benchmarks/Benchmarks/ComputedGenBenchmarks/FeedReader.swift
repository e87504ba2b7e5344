// Measure 14 (issue 34), the composite target: a feed reader of 50,000 articles over 300 feeds in
// 30 folders (`BenchFeedReader` in the BenchModel library). One article is marked read or unread,
// then what its main window shows is read: the unread timeline's count and first article, every
// feed's unread count, each folder's sum of its feeds' counts, and the total. Against sorting and
// counting the array again in the same run, with caches disturbed between two edits (a full pass
// over a 32 MB array, not timed, see Groups.swift), and warm.

import BenchModel
import Benchmark
import ComputedRuntime
import Foundation

func registerFeedReaderBenchmarks() {
    let count = 50_000
    let feeds = 300
    let folders = 30
    let disturbance = Disturbance(count: 1 << 22)
    let articles = FeedsBaselines.articles(count, feeds: feeds)
    let article = { (i: Int) in (i &* 7_919) % count }

    /// The main window's read: the timeline's count and first article, each feed's count, each
    /// folder's (feed `f` is in folder `f % folders`), the total.
    func read(_ state: inout BenchFeedReader) {
        let timeline = state.computed.timeline
        blackHole(timeline.count)
        blackHole(timeline.first)
        let counts = state.computed.unreadCounts
        var folderCounts = [Int](repeating: 0, count: folders)
        for feed in 0..<feeds {
            let unread = counts[feed]
            blackHole(unread)
            folderCounts[feed % folders] += unread
        }
        blackHole(folderCounts)
        blackHole(state.computed.unreadTotal)
    }

    func read(_ array: [BenchArticle]) {
        let timeline = FeedReaderBaselines.timeline(array)
        blackHole(timeline.count)
        blackHole(timeline.first)
        let counts = FeedsBaselines.unreadCounts(array)
        var folderCounts = [Int](repeating: 0, count: folders)
        for feed in 0..<feeds {
            let unread = counts[feed, default: 0]
            blackHole(unread)
            folderCounts[feed % folders] += unread
        }
        blackHole(folderCounts)
        blackHole(timeline.count)
    }

    func editAndRead(_ state: inout BenchFeedReader, _ i: Int) {
        state.articles[id: article(i)]?.isRead.toggle()
        read(&state)
    }

    func editAndRead(_ array: inout [BenchArticle], _ i: Int) {
        array[article(i)].isRead.toggle()
        read(array)
    }

    /// A warm state, edited in place across iterations (see measure 12).
    func warmState() -> FeedReaderBox {
        let box = FeedReaderBox(BenchFeedReader(articles: IdentifiedList(articles)))
        read(&box.state)
        return box
    }

    measure("14 feed reader: mark an article read + read the timeline and counts", configuration(.kilo)) {
        warmState()
    } _: { benchmark, box in
        for i in benchmark.scaledIterations { editAndRead(&box.state, i) }
    }
    measure("14 full feed reader: mark an article read + sort and count an array", configuration(.one, maxDuration: .seconds(3))) {
        ArticlesBox(articles)
    } _: { benchmark, box in
        for i in benchmark.scaledIterations { editAndRead(&box.articles, i) }
    }
    disturbance.measureEdits("14 feed reader, caches disturbed: mark an article read + read the timeline and counts", setup: {
        warmState()
    }) { box, i in
        editAndRead(&box.state, i)
    }
    disturbance.measureEdits("14 full feed reader, caches disturbed: mark an article read + sort and count an array", setup: {
        ArticlesBox(articles)
    }) { box, i in
        editAndRead(&box.articles, i)
    }
}

/// A feed reader's state edited in place across a benchmark's iterations.
final class FeedReaderBox: @unchecked Sendable {
    var state: BenchFeedReader

    init(_ state: BenchFeedReader) {
        self.state = state
    }
}
