// Views of views: a feed reader's timeline, its unread articles, and the first twenty of those.
// Each view follows the changes of the view it starts from, not the whole view: marking one
// article read costs O(log n) in each.
import Foundation
import ComputedRuntime

/// A feed reader's timeline.
public struct TimelineStateSpec: Sendable {
  var articles: IdentifiedList<Article> = []

  /// Every article, newest first.
  var timeline: ListView<Article> { articles.sorted(by: \.date, descending: true).evaluated() }
  /// The timeline's unread articles, in its order: follows the timeline's changes.
  var unread: ListView<Article> { timeline.filter { !$0.isRead }.evaluated() }
  /// The first twenty of those.
  var firstUnread: ListView<Article> { unread.prefix(20).evaluated() }
}
