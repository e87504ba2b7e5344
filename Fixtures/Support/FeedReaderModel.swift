// Types the FeedReader fixture spec refers to (`Article` is the Reader fixture's). Compiled with
// the golden outputs in the GoldenStates target.

import Foundation

/// A feed: what an article refers to by `feedID`.
public struct Feed: Identifiable, Hashable, Sendable {
    public var id: Int
    public var name: String
    public var folderID: Int

    public init(id: Int, name: String, folderID: Int) {
        self.id = id
        self.name = name
        self.folderID = folderID
    }
}

/// A timeline row: an article with its feed's name and folder. Its id is the article's, as a
/// join's rows must have.
public struct TimelineRow: Identifiable, Hashable, Sendable {
    public var article: Article
    public var feedName: String
    public var folderID: Int

    public init(article: Article, feed: Feed) {
        self.article = article
        self.feedName = feed.name
        self.folderID = feed.folderID
    }

    public var id: Int { article.id }
    public var date: Date { article.date }
    public var isRead: Bool { article.isRead }
}

/// An article with its feed's name, if its feed is known.
public struct ArticleRow: Identifiable, Hashable, Sendable {
    public var article: Article
    public var feedName: String?

    public init(article: Article, feedName: String?) {
        self.article = article
        self.feedName = feedName
    }

    public var id: Int { article.id }
}

/// A timeline row with its folder's name, if the folder has one.
public struct FiledRow: Identifiable, Hashable, Sendable {
    public var row: TimelineRow
    public var folderName: String?

    public init(row: TimelineRow, folderName: String?) {
        self.row = row
        self.folderName = folderName
    }

    public var id: Int { row.id }
}
