import Foundation
import Testing

import ComputedRuntime

private struct Numbers: Sendable {
    var value = 0
}

/// One selector shared by every test below, as a generated `Selectors.x` is: its global counter
/// sees the recomputations of all of them.
private let doubled = createSelector(StateSelector<Numbers, Int> { $0.value }, memoized: false) { $0 * 2 }
private let byFactor = createParameterizedSelector(StateSelector<Numbers, Int> { $0.value }) { (factor: Int, value: Int) in
    value * factor
}

/// Recomputes `doubled` `times` times, yielding between calls so parallel tests interleave.
private func recompute(_ times: Int) async {
    for index in 0..<times {
        _ = doubled(Numbers(value: index))
        if index % 16 == 0 { await Task.yield() }
    }
}

/// `RecomputationCounter.counting` counts per task, so these tests run in parallel (no
/// `.serialized`) on one shared selector and still assert exact counts.
@Suite("Recomputation counting scopes")
struct RecomputationCountingTests {
    @Test("parallel test A: exact counts while B recomputes the same selector", arguments: [0, 1, 2, 3])
    func parallelA(_ run: Int) async {
        await RecomputationCounter.counting { counts in
            await recompute(500 + run)
            #expect(counts[doubled] == 500 + run)
        }
    }

    @Test("parallel test B: exact counts while A recomputes the same selector", arguments: [0, 1, 2, 3])
    func parallelB(_ run: Int) async {
        await RecomputationCounter.counting { counts in
            await recompute(700 + run)
            #expect(counts[doubled] == 700 + run)
        }
    }

    @Test("two tasks racing on one global counter each see only their own count; the global count sees both")
    func racingTasks() async {
        let before = doubled.recomputations
        let counted = await withTaskGroup(of: Int.self) { group in
            for times in [3_000, 5_000] {
                group.addTask {
                    await RecomputationCounter.counting { counts in
                        await recompute(times)
                        #expect(counts[doubled] == times)
                        return counts[doubled]
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(counted == 8_000)
        // Other tests may recompute `doubled` at the same time: the global count is per process.
        #expect(doubled.recomputations >= before + 8_000)
    }

    @Test("a synchronous scope counts by selector, by counter and in total")
    func synchronousScope() {
        let counter = RecomputationCounter()
        let result = RecomputationCounter.counting { counts in
            counter.increment()
            counter.increment()
            _ = doubled(Numbers(value: 1))
            #expect(counts[counter] == 2)
            #expect(counts[doubled] == 1)
            #expect(counts.total == 3)
            return "done"
        }
        #expect(result == "done")
        #expect(counter.count == 2)
    }

    @Test("a parameterized selector counts over all arguments and per argument")
    func parameterized() {
        RecomputationCounter.counting { counts in
            let state = Numbers(value: 7)
            #expect(byFactor(2)(state) == 14)
            #expect(byFactor(2)(state) == 14)  // cached
            #expect(byFactor(3)(state) == 21)
            #expect(counts[byFactor] == 2)
            #expect(counts[byFactor(3)] == 1)
        }
    }

    @Test("scopes nest: the inner count is also in the outer one")
    func nesting() {
        RecomputationCounter.counting { outer in
            _ = doubled(Numbers())
            RecomputationCounter.counting { inner in
                _ = doubled(Numbers())
                _ = doubled(Numbers())
                #expect(inner[doubled] == 2)
            }
            #expect(outer[doubled] == 3)
        }
    }

    @Test("child tasks count in the scope; detached tasks and work after the scope do not")
    func childTasks() async {
        var late: Task<Void, Never>?
        let counts = await RecomputationCounter.counting { counts in
            async let child: Void = recompute(10)
            await child
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await recompute(5) }
                group.addTask { await recompute(5) }
            }
            await Task.detached { await recompute(100) }.value
            #expect(counts[doubled] == 20)
            late = Task {
                try? await Task.sleep(for: .milliseconds(20))
                await recompute(50)
            }
            return counts
        }
        await late?.value
        #expect(counts[doubled] == 20)
    }

    @Test("a throwing body rethrows and closes the scope")
    func throwingBody() {
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try RecomputationCounter.counting { _ in
                _ = doubled(Numbers())
                throw Failure()
            }
        }
    }
}
