// The types of measure 16's join (JoinedReader.statespec) and its baselines on plain arrays.

/// A feed of the joined timeline: what an article refers to by `feedID`.
public struct BenchFeed: Identifiable, Hashable, Sendable {
    public var id: Int
    public var name: String
    public var folderID: Int

    public init(id: Int, name: String, folderID: Int) {
        self.id = id
        self.name = name
        self.folderID = folderID
    }
}

/// A timeline row: an article with its feed's name and folder (the sort key stored, read at its
/// offset by the sort).
public struct BenchRow: Identifiable, Hashable, Sendable {
    public var id: Int
    public var date: Int
    public var isRead: Bool
    public var feedName: String
    public var folderID: Int

    public init(article: BenchArticle, feed: BenchFeed) {
        id = article.id
        date = article.date
        isRead = article.isRead
        feedName = feed.name
        folderID = feed.folderID
    }
}

/// Measure 16's baselines: the join, sort and sections of arrays, made again after each edit.
public enum JoinedReaderBaselines {
    /// `count` feeds in `folders` folders (feed `f` in folder `f % folders`).
    public static func feeds(_ count: Int, folders: Int) -> [BenchFeed] {
        (0..<count).map { BenchFeed(id: $0, name: "feed \($0)", folderID: $0 % folders) }
    }

    /// Each article that has a feed, with its feed: a filter and a dictionary lookup per article.
    public static func rows(_ articles: [BenchArticle], _ feeds: [BenchFeed]) -> [BenchRow] {
        let byID = Dictionary(uniqueKeysWithValues: feeds.map { ($0.id, $0) })
        return articles.compactMap { article in byID[article.feedID].map { BenchRow(article: article, feed: $0) } }
    }

    /// The rows, newest first: the bulk load's baseline (a filter, a sort and a lookup per
    /// element).
    public static func timeline(_ articles: [BenchArticle], _ feeds: [BenchFeed]) -> [BenchRow] {
        rows(articles, feeds).sorted { $0.date > $1.date }
    }

    /// The rows in one section per folder, folders in order, newest first in each: the joined,
    /// sorted and sectioned view made again.
    public static func sections(_ articles: [BenchArticle], _ feeds: [BenchFeed]) -> (keys: [Int], sections: [Int: [BenchRow]]) {
        let sections = Dictionary(grouping: timeline(articles, feeds), by: \.folderID)
        return (sections.keys.sorted(), sections)
    }
}
