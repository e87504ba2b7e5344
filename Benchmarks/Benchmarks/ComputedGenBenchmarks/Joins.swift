// Measure 16: joins maintained per change (JoinedReader.statespec, in the BenchModel library). A
// feed reader's timeline of 50,000 articles over 300 feeds in 30 folders: each row shows its
// feed's name, sorted by date and sectioned by folder. With caches disturbed between two edits
// (a full pass over a 32 MB array, not timed, see Groups.swift):
// - a feed renamed (its 167 rows), then the sections read, against the same timeline written
//   without a join (each article's feed looked up in a closure: the view is evaluated again), and
//   against the joined, sorted and sectioned arrays made again;
// - one article marked read or unread, then the sections read, against the same edit on a plain
//   view of the articles (no join, as many sections) in a generated state;
// - a bulk load: a state made from the arrays and its timeline read, against a filter, a sort and
//   a dictionary lookup per element of the arrays.

import BenchModel
import Benchmark
import ComputedRuntime

func registerJoinBenchmarks() {
    let count = 50_000
    let feedCount = 300
    let disturbance = Disturbance(count: 1 << 22)
    let articles = FeedsBaselines.articles(count, feeds: feedCount)
    let feeds = JoinedReaderBaselines.feeds(feedCount, folders: 30)
    let article = { (i: Int) in (i &* 7_919) % count }

    /// What a timeline window shows of the sections: how many, and the first rows of the first.
    func read(_ sections: ListSections<Int, BenchRow>) {
        blackHole(sections.count)
        if let first = sections.first { blackHole(first.elements.first) }
    }

    func warmJoined() -> JoinedReaderBox {
        let box = JoinedReaderBox(BenchJoinedReader(articles: IdentifiedList(articles), feeds: IdentifiedList(feeds)))
        read(box.state.computed.byFolder)
        return box
    }

    disturbance.measureEdits("16 join, caches disturbed: rename a feed + read the sections", setup: {
        warmJoined()
    }) { box, i in
        box.state.feeds[id: i % feedCount]?.name = "feed \(i)"
        read(box.state.computed.byFolder)
    }
    disturbance.measureEdits("16 lookup view, caches disturbed: rename a feed + read the sections, evaluated again", setup: { () -> LookupReaderBox in
        let box = LookupReaderBox(BenchLookupReader(articles: IdentifiedList(articles), feeds: IdentifiedList(feeds)))
        read(box.state.computed.byFolder)
        return box
    }) { box, i in
        box.state.feeds[id: i % feedCount]?.name = "feed \(i)"
        read(box.state.computed.byFolder)
    }
    disturbance.measureEdits("16 full join, caches disturbed: rename a feed + join, sort and section arrays", setup: {
        JoinedArraysBox(articles, feeds)
    }) { box, i in
        box.feeds[i % feedCount].name = "feed \(i)"
        let sections = JoinedReaderBaselines.sections(box.articles, box.feeds)
        blackHole(sections.keys.count)
        blackHole(sections.sections[sections.keys[0]]?.first)
    }
    disturbance.measureEdits("16 join, caches disturbed: mark an article read + read the sections", setup: {
        warmJoined()
    }) { box, i in
        box.state.articles[id: article(i)]?.isRead.toggle()
        read(box.state.computed.byFolder)
    }
    disturbance.measureEdits("16 plain view, caches disturbed: mark an article read + read the sections", setup: { () -> PlainReaderBox in
        let box = PlainReaderBox(BenchPlainReader(articles: IdentifiedList(articles)))
        blackHole(box.state.computed.byFolder.count)
        return box
    }) { box, i in
        box.state.articles[id: article(i)]?.isRead.toggle()
        let sections = box.state.computed.byFolder
        blackHole(sections.count)
        if let first = sections.first { blackHole(first.elements.first) }
    }
    measure("16 join bulk: load 50,000 articles and 300 feeds + read the timeline", configuration(.one, maxDuration: .seconds(3))) {
        ()
    } _: { benchmark, _ in
        for _ in benchmark.scaledIterations {
            let state = BenchJoinedReader(articles: IdentifiedList(articles), feeds: IdentifiedList(feeds))
            blackHole(state.computed.timeline.first)
        }
    }
    measure("16 bulk baseline: filter, sort and look up feeds on arrays", configuration(.one, maxDuration: .seconds(3))) {
        ()
    } _: { benchmark, _ in
        for _ in benchmark.scaledIterations {
            blackHole(JoinedReaderBaselines.timeline(articles, feeds).first)
        }
    }
}

/// A joined reader's state edited in place across a benchmark's iterations.
final class JoinedReaderBox: @unchecked Sendable {
    var state: BenchJoinedReader

    init(_ state: BenchJoinedReader) {
        self.state = state
    }
}

/// A lookup reader's state edited in place across a benchmark's iterations.
final class LookupReaderBox: @unchecked Sendable {
    var state: BenchLookupReader

    init(_ state: BenchLookupReader) {
        self.state = state
    }
}

/// A plain reader's state edited in place across a benchmark's iterations.
final class PlainReaderBox: @unchecked Sendable {
    var state: BenchPlainReader

    init(_ state: BenchPlainReader) {
        self.state = state
    }
}

/// The arrays of the join's baseline, edited in place across a benchmark's iterations.
final class JoinedArraysBox: @unchecked Sendable {
    var articles: [BenchArticle]
    var feeds: [BenchFeed]

    init(_ articles: [BenchArticle], _ feeds: [BenchFeed]) {
        self.articles = articles
        self.feeds = feeds
    }
}
