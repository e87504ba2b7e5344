// Types the Inbox fixture spec refers to. Compiled with the golden outputs in the GoldenStates target.

import Foundation

/// A mail message: `Identifiable` (an `IdentifiedList` element), `Sendable` (the incremental
/// operators' closures are `@Sendable`), `Hashable` (a `ListView` of it cuts off on equal edits).
public struct Message: Identifiable, Hashable, Sendable {
    public var id: Int
    public var subject: String
    public var date: Date
    public var isRead: Bool
    public var isFlagged: Bool

    public init(id: Int, subject: String, date: Date, isRead: Bool = false, isFlagged: Bool = false) {
        self.id = id
        self.subject = subject
        self.date = date
        self.isRead = isRead
        self.isFlagged = isFlagged
    }
}
