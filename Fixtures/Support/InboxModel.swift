// Types the Inbox fixture spec refers to. Compiled with the golden outputs in the GoldenStates
// target; Docs/SpecLanguage.md shows `Message` (its snippet is compiled here).

import Foundation

/// A message: `Identifiable` (an `IdentifiedList` element), `Sendable` (the incremental operators'
/// closures are `@Sendable`), `Hashable` (a `ListView` of it cuts off on equal edits).
public struct Message: Identifiable, Hashable, Sendable {
    public var id: Int
    public var subject: String
    public var date: Date
    public var isRead = false
    public var isFlagged = false
}

extension Message {
    /// A message, unread and not flagged unless told.
    public init(id: Int, subject: String, date: Date, read: Bool = false, flagged: Bool = false) {
        self.id = id
        self.subject = subject
        self.date = date
        self.isRead = read
        self.isFlagged = flagged
    }
}
