// Measure 14's model and baseline, beside the generated `BenchFeeds`: the article type, the
// articles of a given count over a given number of feeds, and the full recomputation of the
// groups.

import Foundation

/// An article of a feed reader: an id, its feed, a date and a read flag (issue 34's measurement).
public struct BenchArticle: Identifiable, Hashable, Sendable {
    public var id: Int
    public var feedID: Int
    public var date: Int
    public var isRead: Bool

    public init(id: Int, feedID: Int, date: Int, isRead: Bool) {
        self.id = id
        self.feedID = feedID
        self.date = date
        self.isRead = isRead
    }
}

/// The full recomputation of `BenchFeeds`'s groups, on a plain array.
public enum FeedsBaselines {
    /// `count` articles spread evenly over `feeds` feeds, dated in a shuffled order, a third of
    /// them read.
    public static func articles(_ count: Int, feeds: Int) -> [BenchArticle] {
        var generator = SystemRandomNumberGenerator()
        let dates = (0..<count).shuffled(using: &generator)
        return (0..<count).map { id in
            BenchArticle(id: id, feedID: id % feeds, date: dates[id], isRead: id % 3 == 0)
        }
    }

    /// The unread articles by feed, oldest first in each feed.
    public static func unreadByFeed(_ articles: [BenchArticle]) -> [Int: [BenchArticle]] {
        Dictionary(grouping: articles.filter { !$0.isRead }.sorted { $0.date < $1.date }, by: \.feedID)
    }

    /// The number of unread articles of each feed.
    public static func unreadCounts(_ articles: [BenchArticle]) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for article in articles where !article.isRead { counts[article.feedID, default: 0] += 1 }
        return counts
    }

    /// A distinct display name for each of `feeds` feeds, in another order than their ids.
    public static func names(feeds: Int) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: (0..<feeds).map { ($0, "feed \(($0 &* 7_919) % feeds)") })
    }

    /// The unread articles by feed, oldest first in each feed, the feeds in the order of their
    /// names.
    public static func sidebar(_ articles: [BenchArticle], names: [Int: String]) -> (keys: [Int], groups: [Int: [BenchArticle]]) {
        let groups = unreadByFeed(articles)
        return (groups.keys.sorted { names[$0, default: ""] < names[$1, default: ""] }, groups)
    }
}

/// The full recomputation of `BenchFeedReader`'s values, on a plain array (issue 34's composite
/// target).
public enum FeedReaderBaselines {
    /// The unread articles, newest first.
    public static func timeline(_ articles: [BenchArticle]) -> [BenchArticle] {
        articles.filter { !$0.isRead }.sorted { $0.date > $1.date }
    }
}
