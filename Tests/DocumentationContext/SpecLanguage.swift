// What Docs/SpecLanguage.md's Swift blocks (the specs in plain Swift beside its statespec blocks)
// assume but do not show. DocumentationSnippetTests compiles it with each of them.

/// A book of the library examples.
struct Book: Hashable, Sendable {
    var title = ""
    var author = ""
    var isLent = false
}
