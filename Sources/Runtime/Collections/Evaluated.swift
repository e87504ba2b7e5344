extension IncrementalListQuery {
    /// The query's result, evaluated in full: what lets a spec written as plain Swift declare
    /// `ListView`, `ListGroups`, `ListSections`, `KeyedTotals` and folds of an `IdentifiedList` as
    /// ordinary computed properties.
    ///
    /// A derived collection's body builds a query (`articles.sorted(by: \.date)` describes a view;
    /// it is not the view). The generated state evaluates the query incrementally, following the
    /// list's changes; a plain type ends the body with `.evaluated()`, which evaluates it in full on
    /// every read:
    ///
    /// ```swift
    /// struct TimelineStateSpec {
    ///   var articles: IdentifiedList<Article> = []
    ///
    ///   var timeline: ListView<Article> { articles.sorted(by: \.date, descending: true).evaluated() }
    ///   var unread: ListView<Article> { timeline.filter { !$0.isRead }.evaluated() }
    ///   var unreadCount: Int { articles.count(where: { !$0.isRead }).evaluated() }
    /// }
    /// ```
    ///
    /// The generator reads the body without its `.evaluated()`. The property's type picks the
    /// query (`messages.count { … }` is a count for an `Int`, counts per key for a `KeyedTotals`).
    ///
    /// - Complexity: O(n log n) for a sorted view of n elements; O(n) for filters and folds.
    @inlinable
    public func evaluated() -> Output {
        var state: State?
        return evaluate(updating: &state, changes: nil).output
    }
}
