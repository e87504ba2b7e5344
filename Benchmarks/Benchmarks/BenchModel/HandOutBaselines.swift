// Measure 11 (values handed out): the selectors an app's model module declares over ScoreState,
// and the hand-written code of the same layout they are measured against.

import ComputedRuntime

/// ReCombine's scoreboard selector: `"Score is \(homeScore)"`.
public let scoreText = createSelector(ScoreState.Selectors.homeScore) { "Score is \($0)" }

/// A parameterized selector returning a String: the number of items per page, for a page size.
public let pagesText = createParameterizedSelector(ScoreState.Selectors.items) { (pageSize: Int, items: [Int]) in
    "\(items.count / pageSize) pages"
}

/// ScoreState's fields, stored by hand.
public struct ScorePlainState: Sendable {
    public var homeScore = 0
    public var items: [Int] = []
    public var unrelated = 0

    public init(items: [Int]) {
        self.items = items
    }
}

/// ReCombine's memoization of the scoreboard selector: the last input compared with `==`.
public final class ScoreLastInputMemo: @unchecked Sendable {
    private var last: (homeScore: Int, output: String)?

    public init() {}

    public func callAsFunction(_ state: ScorePlainState) -> String {
        if let last, last.homeScore == state.homeScore {
            return last.output
        }
        let output = "Score is \(state.homeScore)"
        last = (state.homeScore, output)
        return output
    }
}

/// The hand-written parameterized selector: a last-input memo per argument.
public final class PagesArgumentMemo: @unchecked Sendable {
    private var last: [Int: (items: [Int], output: String)] = [:]

    public init() {}

    public func callAsFunction(_ pageSize: Int, _ state: ScorePlainState) -> String {
        if let entry = last[pageSize], entry.items == state.items {
            return entry.output
        }
        let output = "\(state.items.count / pageSize) pages"
        last[pageSize] = (state.items, output)
        return output
    }
}
