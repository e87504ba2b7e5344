import Testing

import ComputedRuntime

@Suite("_splitMemberPath")
struct MemberPathTests {
    @Test("splits at the first dot; a path without one is all head")
    func split() {
        #expect(_splitMemberPath("computed.total") == ("computed", "total"))
        #expect(_splitMemberPath("shelf.computed.total") == ("shelf", "computed.total"))
        #expect(_splitMemberPath("items") == ("items", ""))
        #expect(_splitMemberPath("") == ("", ""))
        #expect(_splitMemberPath("café.naïve") == ("café", "naïve"))
        let path: Substring = "x.shelf.books".dropFirst(2)
        #expect(_splitMemberPath(path) == ("shelf", "books"))
    }
}
