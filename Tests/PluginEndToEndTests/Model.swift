// Types the specs of this target refer to.

import Foundation

struct Todo: Hashable, Codable, Sendable {
    var title: String
    var done: Bool = false
    var owner: Int = 0
}

enum Filter: String, Hashable, Codable, Sendable {
    case all, active, done

    func includes(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.done
        case .done: todo.done
        }
    }
}

/// Deliberately not `Equatable`: `@Edge` compares it by version only.
struct Avatar: Sendable {
    var url: String
}

/// A mail of `Mailbox.statespec`.
struct Mail: Identifiable, Hashable, Sendable {
    var id: Int
    var sender: String
    var subject: String
    var received: Date
    var isArchived = false
}
