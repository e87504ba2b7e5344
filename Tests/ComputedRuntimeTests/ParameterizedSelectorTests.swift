import ConcurrencyTestSupport
import Foundation
import Testing
@testable import ComputedRuntime

private struct Todo: Equatable, Sendable {
    var owner: Int
    var title: String
}

private struct TodoState: Sendable {
    var todos: [Todo] = [
        Todo(owner: 1, title: "a"), Todo(owner: 2, title: "b"), Todo(owner: 1, title: "c"),
    ]
    var query = ""
}

private let todosInput = StateSelector<TodoState, [Todo]> { $0.todos }

private func ownedBy(capacity: Int = 256) -> ParameterizedSelector<TodoState, Int, [String]> {
    createParameterizedSelector(todosInput, capacity: capacity) { (owner: Int, todos: [Todo]) in
        todos.filter { $0.owner == owner }.map(\.title)
    }
}

@Suite("ParameterizedSelector")
struct ParameterizedSelectorTests {
    @Test("default capacity is 256")
    func defaultCapacity() {
        #expect(ParameterizedSelector<TodoState, Int, [String]>.defaultCapacity == 256)
        let selector = createParameterizedSelector(todosInput) { (owner: Int, todos: [Todo]) in
            todos.count + owner
        }
        #expect(selector.capacity == 256)
        #expect(ownedBy(capacity: 3).capacity == 3)
    }

    @Test("memoizes per argument")
    func perArgument() {
        let selector = ownedBy()
        var state = TodoState()
        #expect(selector(1)(state) == ["a", "c"])
        #expect(selector(1)(state) == ["a", "c"])
        #expect(selector.recomputations == 1)
        #expect(selector(2)(state) == ["b"])
        #expect(selector.recomputations == 2)
        #expect(selector(1)(state) == ["a", "c"])
        #expect(selector(2)(state) == ["b"])
        #expect(selector.recomputations == 2)
        #expect(selector(1).recomputations == 1)
        #expect(selector.count == 2)
        state.todos.append(Todo(owner: 2, title: "d"))
        #expect(selector(2)(state) == ["b", "d"])
        #expect(selector(1)(state) == ["a", "c"])
        #expect(selector.recomputations == 4)
        #expect(selector(2).recomputations == 2)
        state.query = "unrelated"
        #expect(selector(2)(state) == ["b", "d"])
        #expect(selector.recomputations == 4)
        selector.resetRecomputations()
        #expect(selector.recomputations == 0)
    }

    @Test("several inputs and a versioned output")
    func severalInputs() {
        let selector = createParameterizedSelector(
            todosInput,
            StateSelector<TodoState, String> { $0.query }
        ) { (owner: Int, todos: [Todo], query: String) in
            todos.filter { $0.owner == owner && (query.isEmpty || $0.title == query) }.count
        }
        var state = TodoState()
        #expect(selector(1)(state) == 2)
        let version = selector(1).version(state)
        #expect(version != nil)
        #expect(selector(1).version(state) == version)
        state.query = "c"
        #expect(selector(1)(state) == 1)
        #expect(selector(1).version(state) != version)
        #expect(selector.recomputations == 2)
    }

    @Test("evicts the least recently used argument")
    func lruOrder() {
        let selector = ownedBy(capacity: 3)
        let state = TodoState()
        for owner in [1, 2, 3] {
            _ = selector(owner)(state)
        }
        #expect(selector._argumentsByRecency == [3, 2, 1])
        _ = selector(1)(state)  // hit: 1 becomes most recent
        #expect(selector._argumentsByRecency == [1, 3, 2])
        #expect(selector.recomputations == 3)
        _ = selector(4)(state)  // evicts 2
        #expect(selector._argumentsByRecency == [4, 1, 3])
        #expect(selector.recomputations == 4)
        _ = selector(1)(state)
        _ = selector(3)(state)
        #expect(selector.recomputations == 4)  // 1 and 3 still cached
        _ = selector(2)(state)  // was evicted: recomputes, evicts 4
        #expect(selector.recomputations == 5)
        #expect(selector._argumentsByRecency == [2, 3, 1])
        _ = selector(4)(state)
        #expect(selector.recomputations == 6)
        #expect(selector._argumentsByRecency == [4, 2, 3])
    }

    @Test("capacity 1 keeps only the last argument")
    func capacityOne() {
        let selector = ownedBy(capacity: 1)
        let state = TodoState()
        _ = selector(1)(state)
        _ = selector(1)(state)
        _ = selector(2)(state)
        _ = selector(1)(state)
        #expect(selector.recomputations == 3)
        #expect(selector._argumentsByRecency == [1])
    }

    @Test("the cache never grows beyond its capacity")
    func capacityBound() {
        let selector = ownedBy(capacity: 16)
        let state = TodoState()
        for owner in 0..<1_000 {
            _ = selector(owner)(state)
            #expect(selector.count <= 16)
        }
        #expect(selector.count == 16)
        #expect(selector._argumentsByRecency == Array((984..<1_000).reversed()))
        #expect(selector.recomputations == 1_000)
        selector.removeAll()
        #expect(selector.count == 0)
        _ = selector(999)(state)
        #expect(selector.recomputations == 1_001)
    }

    @Test("a selector obtained before eviction keeps working")
    func evictedSelectorStillWorks() {
        let selector = ownedBy(capacity: 1)
        let state = TodoState()
        let forOne = selector(1)
        _ = selector(2)  // evicts 1
        #expect(forOne(state) == ["a", "c"])
        #expect(forOne(state) == ["a", "c"])
        #expect(forOne.recomputations == 1)
    }

    @Test("concurrent use from many threads stays correct and bounded")
    func concurrency() {
        let selector = ownedBy(capacity: 4)
        let wrong = Collected(0)
        runOnThreads(8) { index in
            var state = TodoState()
            state.todos = (0..<8).map { Todo(owner: $0, title: "t\($0)") }
            for round in 0..<300 {
                let owner = (index * 7 + round) % 8
                if selector(owner)(state) != ["t\(owner)"] {
                    wrong.withLock { $0 += 1 }
                }
            }
        }
        #expect(wrong.value == 0)
        #expect(selector.count == 4)
        #expect(selector.recomputations >= 8)
    }

    @Test("concurrent first calls for one argument compute once")
    func concurrentSameArgument() {
        let computations = RecomputationCounter()
        let selector = createParameterizedSelector(todosInput) { (owner: Int, todos: [Todo]) -> Int in
            computations.increment()
            usleep(5_000)
            return todos.filter { $0.owner == owner }.count
        }
        let state = TodoState()
        runOnThreads(8) { _ in
            _ = selector(1)(state)
        }
        #expect(computations.count == 1)
        #expect(selector(1)(state) == 2)
    }
}
