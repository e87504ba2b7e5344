// Measure 10's model and baselines, beside the generated `BenchInbox`: the message type, the
// messages of a given count, and the full recomputations the incremental views replace.

import Foundation

/// A mail message: an id, a subject, a date and a read flag (issue 28's measurement).
public struct BenchMessage: Identifiable, Hashable, Sendable {
    public var id: Int
    public var subject: String
    public var date: Date
    public var isRead: Bool

    public init(id: Int, subject: String, date: Date, isRead: Bool) {
        self.id = id
        self.subject = subject
        self.date = date
        self.isRead = isRead
    }
}

/// The full recomputations of `BenchInbox`'s views, on a plain array.
public enum InboxBaselines {
    /// `count` messages, dated in a shuffled order, a third of them read.
    public static func messages(_ count: Int) -> [BenchMessage] {
        var generator = SystemRandomNumberGenerator()
        let dates = (0..<count).shuffled(using: &generator)
        return (0..<count).map { id in
            BenchMessage(id: id, subject: "Subject \(id)", date: Date(timeIntervalSince1970: Double(dates[id])), isRead: id % 3 == 0)
        }
    }

    /// The unread messages, oldest first.
    public static func unread(_ messages: [BenchMessage]) -> [BenchMessage] {
        messages.filter { !$0.isRead }.sorted { $0.date < $1.date }
    }

    /// The number of unread messages.
    public static func unreadCount(_ messages: [BenchMessage]) -> Int {
        messages.count { !$0.isRead }
    }

    /// The ten most recent messages.
    public static func latest(_ messages: [BenchMessage]) -> [BenchMessage] {
        Array(messages.sorted { $0.date > $1.date }.prefix(10))
    }
}
