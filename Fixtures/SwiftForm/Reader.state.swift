// Sections and counts per key: a feed reader's sidebar. The unread articles in one section per
// feed, ordered A→Z by the feed's display name (a table in another field), with an unread count
// per feed. Marking an article read updates the one section and the one count it touches; a
// renamed feed sorts the sections again without grouping the articles again.
import Foundation
import ComputedRuntime

/// A feed reader.
public struct ReaderStateSpec: Sendable {
  var articles: IdentifiedList<Article> = []
  /// Each feed's display name, by feed id.
  var feedNames: [Int: String] = [:]

  /// The unread articles, one section per feed, feeds A→Z by name, newest first in each.
  var sidebar: ListSections<Int, Article> {
    articles.filter { !$0.isRead }.sorted(by: \.date, descending: true).grouped(by: \.feedID)
      .sortedKeys { feedNames[$0, default: ""] < feedNames[$1, default: ""] }.evaluated()
  }
  /// Each feed's unread count: a fold per key, one lookup to read.
  var unreadByFeed: KeyedTotals<Int, Int> {
    articles.filter { !$0.isRead }.count(by: \.feedID).evaluated()
  }
  /// Every unread article.
  var unreadTotal: Int { articles.count(where: { !$0.isRead }).evaluated() }
}
