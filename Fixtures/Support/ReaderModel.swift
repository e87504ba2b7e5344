// Types the Reader fixture spec refers to. Compiled with the golden outputs in the GoldenStates
// target.

import Foundation

/// An article of a feed: `Identifiable` (an `IdentifiedList` element), `Sendable` (the incremental
/// operators' closures are `@Sendable`), `Hashable` (sections cut off on equal edits).
public struct Article: Identifiable, Hashable, Sendable {
    public var id: Int
    public var feedID: Int
    public var title: String
    public var date: Date
    public var isRead: Bool

    /// An article, unread unless told.
    public init(id: Int, feedID: Int, title: String, date: Date, isRead: Bool = false) {
        self.id = id
        self.feedID = feedID
        self.title = title
        self.date = date
        self.isRead = isRead
    }
}
