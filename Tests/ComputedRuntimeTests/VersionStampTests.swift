import Testing
@testable import ComputedRuntime

@Suite("VersionStamp")
struct VersionStampTests {
    @Test("stamps taken one after another are increasing and never 0")
    func increasing() {
        var previous = VersionStamp.next()
        #expect(previous.rawValue != 0)
        for _ in 0..<1_000 {
            let stamp = VersionStamp.next()
            #expect(stamp > previous)
            previous = stamp
        }
    }

    @Test("stamps are unique across threads and increasing on each thread")
    func uniqueAcrossThreads() {
        let threads = 8
        let perThread = 5_000
        let results = Collected<[[UInt64]]>(Array(repeating: [], count: threads))
        runOnThreads(threads) { index in
            var stamps: [UInt64] = []
            stamps.reserveCapacity(perThread)
            for _ in 0..<perThread {
                stamps.append(VersionStamp.next().rawValue)
            }
            results.withLock { $0[index] = stamps }
        }
        let all = results.value
        for stamps in all {
            #expect(stamps.count == perThread)
            #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        }
        let flat = all.flatMap { $0 }
        #expect(Set(flat).count == threads * perThread)
    }

    @Test("comparison, hashing and description follow the raw value")
    func valueSemantics() {
        let a = VersionStamp(rawValue: 3)
        let b = VersionStamp(rawValue: 5)
        #expect(a < b)
        #expect(!(b < a))
        #expect(a == VersionStamp(rawValue: 3))
        #expect(a != b)
        #expect(Set([a, b, VersionStamp(rawValue: 3)]).count == 2)
        #expect(a.description == "v3")
    }
}
