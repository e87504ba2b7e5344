// What Docs/Migrating.md's Swift snippets assume but do not show, beside the code generated from
// its specs. DocumentationSnippetTests compiles it with every snippet, where their own
// declarations hide these.
import ComputedRuntime

/// An item with a score, which the `didSet` example filters.
struct Item: Sendable {
    var score: Int
}

/// What the `didSet` example makes of an item.
struct Processed: Sendable {
    init(_ item: Item) {}
}

/// Verge's `@Edge` field type, not `Equatable`.
struct Profile: Sendable {}

struct User: Sendable {
    var id: Int
}

struct Book: Equatable, Sendable {
    var userId: Int
    var author: String
}

/// ReCombine's projected values: both slices present, or nothing.
struct ProjectedValues: Equatable, Sendable {
    init?(foo: Int?, bar: Int?) {
        guard foo != nil, bar != nil else { return nil }
    }
}

let item = Item(score: 12)
let state = BooksState()
let store = Store(BooksState())
let store1 = Store(CounterState())
let store2 = Store(CounterState())
