import Foundation
import Testing

@testable import ComputedRuntime

/// Equatable: a new value `==` to the current one is no change.
private struct Level: Codable, Equatable, Sendable {
    var level = 0
}

/// Not Equatable: only the file's content tells that a change was already applied.
private struct Note: Codable, Sendable {
    var level = 0
}

/// Several readers of one file (its watcher, `reload()` on other threads) that find the same new
/// content deliver it once: one new version, one notification, per change of the file.
@Suite("Shared: file storage read by racing readers")
struct SharedFollowRaceTests {
    @Test("readers racing on the same new content deliver it once (not Equatable)")
    func racingReadersNotEquatable() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("note.json")
        let shared = Shared(wrappedValue: Note(), .fileStorage(url))
        try await deliversEachChangeOnce(shared, url: url, level: \.level)
    }

    @Test("readers racing on the same new content deliver it once (Equatable)")
    func racingReadersEquatable() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("level.json")
        let shared = Shared(wrappedValue: Level(), .fileStorage(url))
        try await deliversEachChangeOnce(shared, url: url, level: \.level)
    }

    @Test("a rewrite with other bytes but an equal value is no change: same version, nobody told")
    func equalValueFromStorage() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("level.json")
        try ExternalFile.replace(#"{"level": 1}"#, at: url)
        let shared = Shared(wrappedValue: Level(), .fileStorage(url))
        let recorded = Recorded(shared)
        let version = shared.version

        try ExternalFile.writeInPlace(#"{ "level" : 1 }"#, to: url)
        try shared.reload()
        try await Task.sleep(for: .milliseconds(100))  // the watcher's turn, too
        #expect(shared.version == version)
        #expect(recorded.all.isEmpty)

        try ExternalFile.writeInPlace(#"{"level": 2}"#, to: url)
        try shared.reload()
        #expect(shared.version != version)
        #expect(await eventually { recorded.all.map(\.level) == [2] })
    }

    /// Writes 40 new contents; after each, 4 threads reload at once while the watcher reacts.
    private func deliversEachChangeOnce<Value: Sendable>(
        _ shared: Shared<Value>,
        url: URL,
        level: @escaping @Sendable (Value) -> Int
    ) async throws {
        let recorded = Recorded(shared)
        let rounds = 40
        for round in 1...rounds {
            try ExternalFile.writeInPlace(#"{"level": \#(round)}"#, to: url)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in try? shared.reload() }
            #expect(level(shared.wrappedValue) == round)
        }
        try await Task.sleep(for: .milliseconds(100))  // the watcher's late events
        #expect(recorded.all.map(level) == Array(1...rounds))
        #expect(shared.loadError == nil)
    }
}
