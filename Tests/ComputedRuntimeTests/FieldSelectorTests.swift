import Testing
@testable import ComputedRuntime

/// A state laid out as generated states are, with fields of several sizes before and after the
/// ones selected, so that a stamp read at a wrong offset would read another field's bytes.
private struct Form: Sendable {
    struct Storage: Sendable {
        var flag = StoredField(wrappedValue: false)
        var title = StoredField(wrappedValue: "")
        var count = StoredField(wrappedValue: 0)
        var tags = StoredField(wrappedValue: [String]())
        var ratio = StoredField(wrappedValue: 0.5)
    }

    var note = "not a field"
    var computed = Storage()

    /// A computed property: a key path through it has no offset, so the key path is used.
    var viaComputedProperty: Storage { computed }

    static let count = StateSelector<Form, Int>(field: \Form.computed.count) { $0.computed.count.wrappedValue }
    static let tags = StateSelector<Form, [String]>(field: \Form.computed.tags) { $0.computed.tags.wrappedValue }
    static let countThroughProperty = StateSelector<Form, Int>(field: \Form.viaComputedProperty.count) {
        $0.computed.count.wrappedValue
    }
}

/// A parent holding two forms behind other fields: a child's stamp read at the child's own offset,
/// not the parent's, would read the other form's or the header's bytes.
private struct Page: Sendable {
    var header = "header"
    var draft = Form()
    var published = Form()
}

@Suite("StateSelector(field:)")
struct FieldSelectorTests {
    @Test("the version is the field's stamp, the value is select's")
    func versionAndValue() {
        var form = Form()
        form.computed.count.wrappedValue = 3
        #expect(Form.count(form) == 3)
        #expect(Form.count.version(form) == form.computed.count.version)
        #expect(Form.tags.version(form) == form.computed.tags.version)
        #expect(Form.count.isVersioned)
        // Through a computed property the key path has no offset: the stamp is read through it.
        #expect(Form.countThroughProperty.version(form) == form.computed.count.version)
    }

    @Test("a memoized selector over field selectors recomputes exactly when a selected field is written",
          arguments: [false, true])
    func memoizedHits(throughProperty: Bool) {
        let count = throughProperty ? Form.countThroughProperty : Form.count
        let summary = createSelector(count, Form.tags) { count, tags in "\(count) \(tags.joined())" }
        var form = Form()
        #expect(summary(form) == "0 ")
        #expect(summary.recomputations == 1)

        // Writes to every other field, before and after the selected ones in memory: hits.
        form.computed.flag.wrappedValue = true
        form.computed.title.wrappedValue = "title"
        form.computed.ratio.wrappedValue = 2
        form.note = "changed"
        #expect(summary(form) == "0 ")
        #expect(summary.recomputations == 1)

        form.computed.count.wrappedValue = 7
        #expect(summary(form) == "7 ")
        #expect(summary.recomputations == 2)
        form.computed.tags.wrappedValue.append("a")
        #expect(summary(form) == "7 a")
        #expect(summary.recomputations == 3)

        // A copy with the same stamps hits; an older state misses and recomputes.
        let copy = form
        #expect(summary(copy) == "7 a")
        #expect(summary.recomputations == 3)
        #expect(summary(Form()) == "0 ")
        #expect(summary.recomputations == 4)
    }

    @Test("through a parent, a field selector still reads the child's stamp: hits and misses stay exact")
    func throughAParent() {
        let publishedCount = Form.count.through(\Page.published)
        let draftCount = Form.count.through(\Page.draft)
        #expect(publishedCount._storage.versionOffset >= 0)
        let both = createSelector(publishedCount, draftCount) { published, draft in published * 100 + draft }
        var page = Page()
        #expect(both(page) == 0)
        #expect(both.recomputations == 1)

        page.header = "changed"
        page.draft.computed.title.wrappedValue = "draft"
        page.published.computed.tags.wrappedValue = ["x"]
        #expect(both(page) == 0)
        #expect(both.recomputations == 1)

        page.draft.computed.count.wrappedValue = 2
        #expect(both(page) == 2)
        #expect(both.recomputations == 2)
        page.published.computed.count.wrappedValue = 3
        #expect(both(page) == 302)
        #expect(both.recomputations == 3)
        #expect(publishedCount.version(page) == page.published.computed.count.version)
    }
}
