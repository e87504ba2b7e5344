// Joins: a feed reader whose rows show related data. Each article's row shows its feed's name;
// the timeline sorts the rows by date, and sections them by folder. Renaming a feed updates the
// rows of its articles only (and the views follow those rows); marking an article read updates
// its row.
import Foundation
import ComputedRuntime

/// A feed reader whose timeline rows show each article's feed.
public struct FeedReaderStateSpec: Sendable {
  var articles: IdentifiedList<Article> = []
  var feeds: IdentifiedList<Feed> = []
  /// Each folder's display name, by folder id.
  var folderNames: [Int: String] = [:]
  var selectedFeedID: Int? = nil

  /// Each article with its feed: an inner join (an article whose feed is missing has no row).
  var rows: IdentifiedList<TimelineRow> {
    articles.join(feeds, on: \.feedID) { article, feed in TimelineRow(article: article, feed: feed) }.evaluated()
  }
  /// Every article, with its feed's name when it has one: a left join.
  var allRows: IdentifiedList<ArticleRow> {
    articles.leftJoin(feeds, on: \.feedID) { article, feed in ArticleRow(article: article, feedName: feed?.name) }.evaluated()
  }
  /// The rows with their folder's name, looked up in a dictionary: a join of a join.
  var filedRows: IdentifiedList<FiledRow> {
    rows.leftJoin(folderNames, on: \.folderID) { row, folder in FiledRow(row: row, folderName: folder) }.evaluated()
  }
  /// The rows whose folder has a name: an inner join on a dictionary.
  var namedRows: IdentifiedList<FiledRow> {
    rows.join(folderNames, on: \.folderID) { row, folder in FiledRow(row: row, folderName: folder) }.evaluated()
  }
  /// The unread articles with their feed: a key that may be nil (a read article refers to none).
  var unreadRows: IdentifiedList<TimelineRow> {
    articles.join(feeds, on: { $0.isRead ? nil : $0.feedID }) { article, feed in TimelineRow(article: article, feed: feed) }.evaluated()
  }
  /// Every article, with its feed's name when it is unread and has one: a left join on such a key.
  var unreadNames: IdentifiedList<ArticleRow> {
    articles.leftJoin(feeds, on: { $0.isRead ? nil : $0.feedID }) { article, feed in ArticleRow(article: article, feedName: feed?.name) }.evaluated()
  }
  /// The rows, newest first: follows the rows' changes.
  var timeline: ListView<TimelineRow> { rows.sorted(by: \.date, descending: true).evaluated() }
  /// The rows in one section per folder, folders A→Z by name, newest first in each.
  var byFolder: ListSections<Int, TimelineRow> {
    rows.sorted(by: \.date, descending: true).grouped(by: \.folderID)
      .sortedKeys { folderNames[$0, default: ""] < folderNames[$1, default: ""] }.evaluated()
  }
  /// How many rows are unread: a fold of the rows.
  var unreadCount: Int { rows.count(where: { !$0.isRead }).evaluated() }
  /// The selected feed: a lookup of one element by id, recomputed in O(1) after `feeds` changes
  /// and cut off when the feed is as it was.
  var selectedFeed: Feed? { selectedFeedID.flatMap { feeds[id: $0] } }
}
