import ComputedRuntime
import GoldenStates
import Testing

/// A state's memo table (one allocation for all its computed values) shared by copies of the
/// state: a copy that writes takes a copy of the table, with every value, version and recorded
/// input, so that neither copy recomputes what the write does not reach.
extension CutoffStateTests {
    @Test("a copy that writes takes its own table: values the write does not reach stay cached in both copies")
    func tableCopyKeepsUnreachedValues() {
        let original = warmState(items: [100, 400, 500])
        var copy = original
        let before = Counts.now
        copy.name = "Ada"
        // Only `greeting` reads `name`: it is recomputed in the copy, nothing else anywhere.
        #expect(recomputations(of: copy, since: before) == Counts(
            filteredArray: 0, filteredCount: 0, summary: 0, uncutArray: 0, uncutCount: 0, greeting: 1, tokenID: 0
        ))
        #expect(recomputations(of: original, since: Counts.now) == Self.none)
        #expect(copy.computed.greeting == "Hello, Ada")
        #expect(original.computed.greeting == "Hello, ")
        #expect(S.summary.version(copy) == S.summary.version(original))
        #expect(S.greeting.version(copy) != S.greeting.version(original))
    }

    @Test("a stale value keeps its cached value and inputs through the copy: verified, and cut off, not recomputed")
    func tableCopyKeepsStaleSlots() {
        var original = warmState(items: [100, 400, 500])
        let summaryVersion = S.summary.version(original)
        // A new item under the threshold: `filteredArray` is stale (its input moved) but will
        // compute an equal value; nobody reads it before the copy.
        original.items = [100, 400, 500, 200]
        var copy = original
        let before = Counts.now
        copy.name = "Ada"
        // The copy's `filteredArray` recomputes (its input moved) to an equal array: the cutoff
        // needs the cached value, and `filteredCount` and `summary` need their recorded inputs,
        // which the copy of the table kept although those slots were stale.
        _ = copy.computed.summary
        let delta = Counts.now
        #expect(delta.filteredArray - before.filteredArray == 1)
        #expect(delta.filteredCount - before.filteredCount == 0)
        #expect(delta.summary - before.summary == 0)
        #expect(S.summary.version(copy) == summaryVersion)
        // The original was left stale and untouched: it verifies the same way.
        #expect(original.computed.summary == "2 over 300")
        #expect(S.summary.version(original) == summaryVersion)
    }

    @Test("copies write and read on many threads while others bring the shared table up to date")
    func tableCopiesRace() async {
        var shared = warmState(items: Array(0..<200))
        shared.items.append(1_000)  // stale values in the shared table, refreshed by the readers
        let state = shared
        let expected = (0..<200).filter { $0 > 300 }.count + 1
        await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var ok = true
                    for round in 0..<200 {
                        if task.isMultiple(of: 2) {
                            // Readers of the shared table: they race to bring its stale slots up to date.
                            ok = ok && state.computed.filteredCount == expected
                            ok = ok && state.computed.summary == "\(expected) over 300"
                        } else {
                            // Writers: each copy takes a copy of the table (waiting for slots
                            // being refreshed) and must see its own write only.
                            var copy = state
                            copy.threshold = round % 7 + 990
                            ok = ok && copy.computed.filteredCount == 1
                            ok = ok && state.computed.filteredArray.last == 1_000
                        }
                    }
                    return ok
                }
            }
            for await ok in group {
                #expect(ok)
            }
        }
    }
}
