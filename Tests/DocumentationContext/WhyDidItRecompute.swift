// What Docs/WhyDidItRecompute.md's Swift snippets assume but do not show, beside the code
// generated from its specs. DocumentationSnippetTests compiles it with every snippet.
import Foundation
import Observation

/// Evaluates a view body as SwiftUI does: inside `withObservationTracking`, so that what it reads
/// through a store is observed until the next change.
func render(_ body: () -> Void) {
    withObservationTracking(body, onChange: {})
}

/// The mail client's message, as the app declares it.
struct Message: Identifiable, Hashable, Sendable {
    var id: Int
    var subject: String
    var date: Date
    var isRead: Bool
    var isFlagged = false

    init(id: Int, subject: String, date: Date, read: Bool) {
        self.id = id
        self.subject = subject
        self.date = date
        self.isRead = read
    }
}
