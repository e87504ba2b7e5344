// Measure 14 (issue 34), sections: a ListSections computed value of a generated state in the
// BenchModel library (50,000 articles, the unread ones in one section per feed, the feeds in the
// order of their names, a table in another field). After one article is marked read or unread,
// the sidebar is read as a UI does (the number of sections, the first section, the edited feed's
// section and count); after a feed is renamed, the same read. Each against the full
// recomputation of the same expression on an array (filter + sort + `Dictionary(grouping:)` +
// the keys sorted by name) in the same run, at 10, 1,000 and 10,000 feeds; the edit also with
// caches disturbed between two edits (see Groups.swift).

import BenchModel
import Benchmark
import ComputedRuntime
import Foundation

func registerSectionBenchmarks() {
    let count = 50_000
    let disturbance = Disturbance(count: 1 << 22)

    for feeds in [10, 1_000, 10_000] {
        let articles = FeedsBaselines.articles(count, feeds: feeds)
        let names = FeedsBaselines.names(feeds: feeds)
        let article = { (i: Int) in (i &* 7_919) % count }

        /// The sidebar as a UI reads it after an edit of `feed`.
        func read(_ state: inout BenchFeeds, feed: Int) {
            let sidebar = state.computed.sidebar
            blackHole(sidebar.count)
            blackHole(sidebar[0].count)
            blackHole(sidebar[key: feed].first)
            blackHole(sidebar.count(of: feed))
        }

        func read(_ array: [BenchArticle], names: [Int: String], feed: Int) {
            let sidebar = FeedsBaselines.sidebar(array, names: names)
            blackHole(sidebar.keys.count)
            blackHole(sidebar.groups[sidebar.keys[0]]?.count)
            blackHole(sidebar.groups[feed]?.first)
            blackHole(sidebar.groups[feed]?.count)
        }

        func editAndRead(_ state: inout BenchFeeds, _ i: Int) {
            let id = article(i)
            state.articles[id: id]?.isRead.toggle()
            read(&state, feed: id % feeds)
        }

        func editAndRead(_ array: inout [BenchArticle], _ i: Int) {
            let id = article(i)
            array[id].isRead.toggle()
            read(array, names: names, feed: id % feeds)
        }

        /// A feed's name swapped with another's: the sections move, the groups do not change.
        func renameAndRead(_ state: inout BenchFeeds, _ i: Int) {
            let (feed, other) = (i % feeds, (i &* 31 &+ 1) % feeds)
            let name = state.feedNames[feed]
            state.feedNames[feed] = state.feedNames[other]
            state.feedNames[other] = name
            read(&state, feed: feed)
        }

        func warmState() -> FeedsBox {
            let box = FeedsBox(BenchFeeds(articles: IdentifiedList(articles), feedNames: names))
            blackHole(box.state.computed.sidebar)
            return box
        }

        measure("14 incremental \(feeds) groups: toggle an article + read the sections", configuration(.kilo)) {
            warmState()
        } _: { benchmark, box in
            for i in benchmark.scaledIterations { editAndRead(&box.state, i) }
        }
        measure("14 full \(feeds) groups: toggle an article + section an array", configuration(.one, maxDuration: .seconds(3))) {
            articles
        } _: { benchmark, initial in
            var array = initial
            for i in benchmark.scaledIterations { editAndRead(&array, i) }
        }
        measure("14 incremental \(feeds) groups: rename a feed + read the sections", configuration(.one, maxDuration: .seconds(2))) {
            warmState()
        } _: { benchmark, box in
            for i in benchmark.scaledIterations { renameAndRead(&box.state, i) }
        }
        measure("14 full \(feeds) groups: rename a feed + section an array", configuration(.one, maxDuration: .seconds(3))) {
            articles
        } _: { benchmark, array in
            var names = names
            for i in benchmark.scaledIterations {
                let (feed, other) = (i % feeds, (i &* 31 &+ 1) % feeds)
                (names[feed], names[other]) = (names[other], names[feed])
                read(array, names: names, feed: feed)
            }
        }
        disturbance.measureEdits("14 incremental \(feeds) groups, caches disturbed: toggle an article + read the sections", setup: {
            warmState()
        }) { box, i in
            editAndRead(&box.state, i)
        }
        disturbance.measureEdits("14 full \(feeds) groups, caches disturbed: toggle an article + section an array", setup: {
            ArticlesBox(articles)
        }) { box, i in
            editAndRead(&box.articles, i)
        }
    }
}
