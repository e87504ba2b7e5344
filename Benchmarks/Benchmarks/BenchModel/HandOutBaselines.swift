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

/// ScoreState's layout written by hand: the same fields, the title a shared reference (as a
/// `@Shared` field holds one), and the derived array cached by `didSet`. ScoreState copies four
/// references (the list, the title, its memo table, the banner's cell); this copies three, and
/// `ScorePlainState` one.
public struct ScoreLayoutState: Sendable {
    public var homeScore = 0
    public var items: [Int] {
        didSet { evens = items.filter { $0 % 2 == 0 } }
    }
    public var unrelated = 0
    public var title: Shared<String>
    public private(set) var evens: [Int]

    public init(items: [Int]) {
        self.items = items
        evens = items.filter { $0 % 2 == 0 }
        title = Shared(value: "Match")
    }
}

/// ReCombine's memoization of the scoreboard selector: the last input compared with `==`.
public final class ScoreLastInputMemo: @unchecked Sendable {
    private var last: (homeScore: Int, output: String)?

    public init() {}

    public func callAsFunction(_ state: ScorePlainState) -> String {
        text(state.homeScore)
    }

    /// The same memo over a state of ScoreState's layout.
    public func callAsFunction(_ state: ScoreLayoutState) -> String {
        text(state.homeScore)
    }

    private func text(_ homeScore: Int) -> String {
        if let last, last.homeScore == homeScore {
            return last.output
        }
        let output = "Score is \(homeScore)"
        last = (homeScore, output)
        return output
    }
}

/// The hand-written parameterized selector: a last-input memo per argument.
public final class PagesArgumentMemo: @unchecked Sendable {
    private var last: [Int: (items: [Int], output: String)] = [:]

    public init() {}

    public func callAsFunction(_ pageSize: Int, _ state: ScorePlainState) -> String {
        text(pageSize, state.items)
    }

    /// The same memo over a state of ScoreState's layout.
    public func callAsFunction(_ pageSize: Int, _ state: ScoreLayoutState) -> String {
        text(pageSize, state.items)
    }

    private func text(_ pageSize: Int, _ items: [Int]) -> String {
        if let entry = last[pageSize], entry.items == items {
            return entry.output
        }
        let output = "\(items.count / pageSize) pages"
        last[pageSize] = (items, output)
        return output
    }
}
