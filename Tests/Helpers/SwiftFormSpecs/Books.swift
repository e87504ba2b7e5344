// The model types of the Swift-form specs beside this file: `package`, so that the state generated
// from them in another target of the package (PluginEndToEndTests) reads them too.

import ComputedRuntime

/// A book on a shelf.
package struct Book: Identifiable, Hashable, Codable, Sendable {
    package var id: Int
    package var title: String
    package var isRead: Bool

    package init(id: Int, title: String, isRead: Bool = false) {
        self.id = id
        self.title = title
        self.isRead = isRead
    }
}

// The plain types' memberwise initializers are internal; the tests in another target start from
// these.
extension ShelfSpec {
    /// An empty shelf.
    package static var empty: ShelfSpec { ShelfSpec() }
}
