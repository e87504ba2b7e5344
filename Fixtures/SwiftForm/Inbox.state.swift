// Derived collections: a mail client's views of its messages, maintained incrementally. An edit
// of one message updates each view in O(log n); a new search query re-evaluates the one view
// that reads it.
import Foundation
import ComputedRuntime

/// A mailbox.
public struct InboxStateSpec: Sendable {
  var messages: IdentifiedList<Message> = []
  var query: String = ""

  /// The unread messages, oldest first.
  var unread: ListView<Message> {
    messages.filter { !$0.isRead }.sorted(by: \.date).evaluated()
  }
  /// How many: O(1) on the view, recomputed only when the view changed.
  var unreadCount: Int { unread.count }
  /// The ten most recent messages.
  var latest: ListView<Message> {
    messages.sorted(by: \.date, descending: true).prefix(10).evaluated()
  }
  /// The messages whose subject contains the query, newest first: a new query evaluates it in
  /// full, an edited message is followed.
  var matching: ListView<Message> {
    messages.filter { query.isEmpty || $0.subject.localizedCaseInsensitiveContains(query) }
      .sorted(by: \.date, descending: true).evaluated()
  }
  /// The subjects of the flagged messages, in list order.
  var flaggedSubjects: ListView<String> {
    messages.filter(\.isFlagged).map(\.subject).evaluated()
  }
  /// The messages grouped by whether they are flagged, newest first in each group.
  var byFlag: ListGroups<Bool, Message> {
    messages.sorted(by: \.date, descending: true).grouped(by: \.isFlagged).evaluated()
  }
  /// How many messages are unread, as a fold of the list: an edit of one message updates it in
  /// O(1), without bringing the sorted `unread` view up to date.
  var unreadTotal: Int { messages.count(where: { !$0.isRead }).evaluated() }
  /// A count after a filter: a fold too.
  var flaggedCount: Int { messages.filter(\.isFlagged).count.evaluated() }
  /// The length of the unread subjects, summed: a fold too.
  var unreadSubjectLength: Int { messages.filter { !$0.isRead }.sum(of: \.subject.count).evaluated() }
  /// Reads `query` too: a new query counts in full, an edited message is followed.
  var matchingCount: Int {
    messages.count { query.isEmpty || $0.subject.localizedCaseInsensitiveContains(query) }.evaluated()
  }
  /// The messages dated like the last one. Its closure reads `messages` too, so each change of
  /// the list evaluates it in full: following the edited messages only would keep those of the
  /// previous last date.
  var lastDated: ListView<Message> {
    messages.filter { $0.date == messages.last?.date }.evaluated()
  }
}
