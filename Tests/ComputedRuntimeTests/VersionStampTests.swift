import ConcurrencyTestSupport
import Foundation
import Testing
@testable import ComputedRuntime

@Suite("VersionStamp")
struct VersionStampTests {
    @Test("stamps taken one after another on a thread are increasing and never 0")
    func increasing() {
        var previous = VersionStamp.next()
        #expect(previous.rawValue != 0)
        // More than one block (1,024 stamps), so a refill is crossed.
        for _ in 0..<3_000 {
            let stamp = VersionStamp.next()
            #expect(stamp.rawValue > previous.rawValue)
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
            #expect(!stamps.contains(0))
        }
        let flat = all.flatMap { $0 }
        #expect(Set(flat).count == threads * perThread)
    }

    /// What nothing may rely on: a thread still using an earlier block hands out a stamp smaller
    /// than one another thread took before it. (This is why stamps are compared with `==` only.)
    @Test("stamps are not ordered across threads")
    func notOrderedAcrossThreads() {
        let earlier = OnThread()
        let later = OnThread()
        defer {
            earlier.stop()
            later.stop()
        }
        let first = earlier.run { VersionStamp.next() }  // takes a block
        let other = later.run { VersionStamp.next() }  // takes a later block
        let second = earlier.run { VersionStamp.next() }  // still the earlier block
        #expect(first.rawValue < second.rawValue)
        #expect(second.rawValue < other.rawValue, "taken after `other`, yet smaller")
    }

    @Test("the testing block places stamps, then the thread takes a fresh block")
    func testingBlock() {
        let base: UInt64 = 1 << 62
        let placed = VersionStamp._withTestingBlock(startingAt: base, count: 2) {
            [VersionStamp.next(), VersionStamp.next(), VersionStamp.next()].map(\.rawValue)
        }
        #expect(placed[0] == base)
        #expect(placed[1] == base + 1)
        #expect(placed[2] < base, "the range ran out: a block from the global counter")
        #expect(VersionStamp.next().rawValue < base)
    }

    @Test("hashing and description follow the raw value")
    func valueSemantics() {
        let a = VersionStamp(rawValue: 3)
        let b = VersionStamp(rawValue: 5)
        #expect(a == VersionStamp(rawValue: 3))
        #expect(a != b)
        #expect(Set([a, b, VersionStamp(rawValue: 3)]).count == 2)
        #expect(a.description == "v3")
    }
}
