import ConcurrencyTestSupport
import Foundation
import Observation
import Testing

@testable import ComputedRuntime

private struct Profile: Codable, Equatable, Sendable {
    var name = "default"
    var level = 0
}

private func json(_ name: String, _ level: Int) -> String {
    #"{"level": \#(level), "name": "\#(name)"}"#
}

/// `.fileStorage` follows changes made to its file by others (issue #16), as swift-sharing's
/// `FileStorageKey` does.
@Suite("Shared: file storage follows its file")
struct SharedFollowFileTests {
    @Test("an in-place write reaches every holder, through values and subscribe")
    func inPlaceWrite() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("profile.json")
        let first = Shared(wrappedValue: Profile(), .fileStorage(url))
        let second = Shared(wrappedValue: Profile(), .fileStorage(url))
        var values = first.values.makeAsyncIterator()
        #expect(await values.next() == Profile())

        try ExternalFile.writeInPlace(json("ada", 3), to: url)
        #expect(await waitForValue(second) { $0 == Profile(name: "ada", level: 3) } != nil)
        #expect(await values.next() == Profile(name: "ada", level: 3))
        #expect(first.loadError == nil)
    }

    @Test("an atomic replace reaches the holder")
    func atomicReplace() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("profile.json")
        try ExternalFile.replace(json("first", 1), at: url)
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url))
        #expect(shared.wrappedValue.name == "first")
        for level in 2...6 {
            try ExternalFile.replace(json("next", level), at: url)
            #expect(await waitForValue(shared) { $0.level == level } != nil, "replace \(level)")
        }
    }

    @Test("a delete brings back the default; a later local write creates the file again")
    func deleteThenWrite() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("profile.json")
        try ExternalFile.replace(json("stored", 5), at: url)
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url))
        #expect(shared.wrappedValue.level == 5)

        try FileManager.default.removeItem(at: url)
        #expect(await waitForValue(shared) { $0 == Profile() } != nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))  // the default is not written back

        shared.withLock { $0.level = 9 }
        try shared.save()
        let stored = try JSONDecoder().decode(Profile.self, from: Data(contentsOf: url))
        #expect(stored.level == 9)
        #expect(shared.wrappedValue.level == 9)
    }

    @Test("a move away brings back the default; moving the file back brings back its value")
    func moveAwayAndBack() async throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("profile.json")
        let elsewhere = try makeTemporaryDirectory().appendingPathComponent("moved.json")
        try ExternalFile.replace(json("kept", 7), at: url)
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url))

        try FileManager.default.moveItem(at: url, to: elsewhere)
        #expect(await waitForValue(shared) { $0 == Profile() } != nil)
        try FileManager.default.moveItem(at: elsewhere, to: url)
        #expect(await waitForValue(shared) { $0 == Profile(name: "kept", level: 7) } != nil)
    }

    @Test("a corrupt external write is moved aside and reported; the last good value stays")
    func corruptExternalWrite() async throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("profile.json")
        try ExternalFile.replace(json("good", 1), at: url)
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url))
        let recorded = Recorded(shared)

        let garbage = #"{"level": 2, "name": "#
        try ExternalFile.replace(garbage, at: url)
        #expect(await eventually { shared.loadError != nil })  // set just after the move aside
        guard case .unreadableFile(let reported, let backup?, let reason)? = shared.loadError else {
            Issue.record("expected an unreadable-file error with a backup, got \(String(describing: shared.loadError))")
            return
        }
        #expect(reported.lastPathComponent == "profile.json")
        #expect(!reason.isEmpty)
        #expect(ExternalFile.read(backup) == garbage)
        #expect(shared.wrappedValue == Profile(name: "good", level: 1))
        #expect(recorded.all.isEmpty)  // nobody was told of a change

        // Never overwritten: a local write creates a new file and leaves the backup alone.
        shared.withLock { $0.level = 3 }
        try shared.save()
        #expect(ExternalFile.read(backup) == garbage)
        #expect(try JSONDecoder().decode(Profile.self, from: Data(contentsOf: url)).level == 3)

        // A valid external write afterwards is followed again and clears the error.
        try ExternalFile.replace(json("fixed", 4), at: url)
        #expect(await waitForValue(shared) { $0.name == "fixed" } != nil)
        #expect(shared.loadError == nil)
    }

    @Test("a write that is not valid yet (a writer half-way through) is not mistaken for corruption")
    func halfWrittenFile() async throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("profile.json")
        let settle = Duration.seconds(1)
        let shared = Shared(
            wrappedValue: Profile(), .fileStorage(url, coalescing: .milliseconds(50), watching: FileWatchOptions(settleTime: settle)))
        let persistence = try #require(shared.box.persistence as? FilePersistence<Profile>)
        let full = json("slow", 8)
        // Truncated, as an in-place write begins: ignored however long it stays (a later wake of
        // this sleep only makes it stay longer).
        try ExternalFile.writeInPlace("", to: url)
        try await Task.sleep(for: settle + .milliseconds(100))
        persistence.check(.confirm)
        #expect(ExternalFile.backups(in: directory, ".corrupt-").isEmpty)
        #expect(shared.loadError == nil)
        try ExternalFile.writeInPlace(String(full.prefix(10)), to: url)
        // The settle time counts from the moment the watcher saw the half-written content. Wait
        // for that moment on this thread, then finish the write at once: a task that sleeps
        // between the two writes can be parked for seconds by a busy machine (CI runs this under
        // ThreadSanitizer, beside tests that hold the pool's threads), past any settle time.
        #expect(waitOnThisThread { persistence.state.withLock { $0.undecodable != nil } }, "the watcher never saw the half-written file")
        try ExternalFile.writeInPlace(full, to: url)
        #expect(await waitForValue(shared) { $0.name == "slow" } != nil)
        // Past the settle time, the look scheduled for the half-written content finds the valid
        // one. Looked at here too, so that it has happened however late the watcher's queue runs.
        try await Task.sleep(for: settle + .milliseconds(100))
        persistence.check(.confirm)
        #expect(ExternalFile.backups(in: directory, ".corrupt-").isEmpty)
        #expect(shared.loadError == nil)
        #expect(shared.wrappedValue == Profile(name: "slow", level: 8))
    }

    @Test("every spelling of one file, and a symlink to it, is one reference")
    func oneValuePerFile() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.path
        let plain = Shared(wrappedValue: 0, .fileStorage(URL(fileURLWithPath: path + "/x.json")))
        let doubled = Shared(wrappedValue: 0, .fileStorage(URL(fileURLWithPath: path + "//x.json")))
        let dotted = Shared(wrappedValue: 0, .fileStorage(URL(fileURLWithPath: path + "/./x.json")))
        let parent = Shared(wrappedValue: 0, .fileStorage(URL(fileURLWithPath: path + "/sub/../x.json")))
        let link = directory.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "x.json")
        let linked = Shared(wrappedValue: 0, .fileStorage(link))
        let folderLink = try makeTemporaryDirectory().appendingPathComponent("folder")
        try FileManager.default.createSymbolicLink(at: folderLink, withDestinationURL: directory)
        let throughFolder = Shared(wrappedValue: 0, .fileStorage(folderLink.appendingPathComponent("x.json")))
        for other in [doubled, dotted, parent, linked, throughFolder] {
            #expect(plain.isSameReference(as: other))
        }
        linked.wrappedValue = 4
        try linked.save()
        #expect(plain.wrappedValue == 4)
        // The write went to the file; the symlink is still a symlink.
        #expect(ExternalFile.read(directory.appendingPathComponent("x.json")) == "4")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == "x.json")
    }

    @Test("the value's own saves do not come back as external changes")
    func noEcho() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("counter.json")
        let shared = Shared(wrappedValue: 0, .fileStorage(url, coalescing: .milliseconds(1)))
        let recorded = Recorded(shared)
        for value in 1...20 {
            shared.wrappedValue = value
            if value.isMultiple(of: 4) { try shared.save() }
        }
        try shared.save()
        // An external write after the saves: once it arrives, every echo would have arrived.
        try ExternalFile.replace("100", at: url)
        // Subscribers hear of a change just after the value is set: wait for the recorder.
        #expect(await eventually { recorded.all.last == 100 })
        #expect(recorded.all == Array(1...20) + [100])
    }

    @Test("a local write waiting to be saved wins over an external one, which is moved aside")
    func pendingLocalWriteWins() async throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("profile.json")
        try ExternalFile.replace(json("start", 0), at: url)
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url, coalescing: .seconds(60)))
        shared.withLock { $0 = Profile(name: "local", level: 1) }  // pending for a minute
        try ExternalFile.replace(json("external", 2), at: url)
        try await Task.sleep(for: .milliseconds(300))  // the watcher has seen it by now
        #expect(shared.wrappedValue == Profile(name: "local", level: 1))

        try shared.save()
        #expect(try JSONDecoder().decode(Profile.self, from: Data(contentsOf: url)) == Profile(name: "local", level: 1))
        let backups = ExternalFile.backups(in: directory, ".conflict-")
        #expect(backups.count == 1)
        #expect(backups.first.flatMap(ExternalFile.read) == json("external", 2))
        guard case .overwroteExternalChange(_, let backup)? = shared.loadError else {
            Issue.record("expected overwroteExternalChange, got \(String(describing: shared.loadError))")
            return
        }
        #expect(backup.lastPathComponent == backups.first?.lastPathComponent)
    }

    @Test("an external write after the local one was saved simply wins")
    func externalAfterSaveWins() async throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("profile.json")
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url))
        shared.withLock { $0.level = 1 }
        try shared.save()
        try ExternalFile.replace(json("external", 2), at: url)
        #expect(await waitForValue(shared) { $0.level == 2 } != nil)
        shared.withLock { $0.level = 3 }
        try shared.save()
        #expect(ExternalFile.backups(in: directory, ".conflict-").isEmpty)
        #expect(shared.loadError == nil)
    }

    @Test("reload reads the file now; a corrupt file is thrown, moved aside and the value kept")
    func reload() throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("profile.json")
        let blind = FileWatchOptions(usesNotifications: false, pollInterval: .seconds(3_600))
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url, coalescing: .milliseconds(50), watching: blind))
        try ExternalFile.replace(json("reloaded", 5), at: url)
        #expect(shared.wrappedValue == Profile())  // the watcher is blind
        try shared.reload()
        #expect(shared.wrappedValue == Profile(name: "reloaded", level: 5))

        try ExternalFile.replace("nonsense", at: url)
        #expect(throws: SharedError.self) { try shared.reload() }
        #expect(shared.wrappedValue == Profile(name: "reloaded", level: 5))
        #expect(ExternalFile.backups(in: directory, ".corrupt-").count == 1)
    }

    @Test("without notifications, polling the signature follows writes, replaces and deletes")
    func pollingFallback() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("profile.json")
        let polling = FileWatchOptions(usesNotifications: false, pollInterval: .milliseconds(50))
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url, coalescing: .milliseconds(50), watching: polling))
        try ExternalFile.writeInPlace(json("polled", 1), to: url)
        #expect(await waitForValue(shared) { $0.level == 1 } != nil)
        try ExternalFile.replace(json("polled", 2), at: url)
        #expect(await waitForValue(shared) { $0.level == 2 } != nil)
        try FileManager.default.removeItem(at: url)
        #expect(await waitForValue(shared) { $0 == Profile() } != nil)
    }

    @Test("a folder that does not exist yet is watched once it does")
    func missingFolder() async throws {
        let folder = try makeTemporaryDirectory().appendingPathComponent("later/deeper")
        let url = folder.appendingPathComponent("profile.json")
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ExternalFile.replace(json("late", 1), at: url)
        #expect(await waitForValue(shared) { $0.level == 1 } != nil)
        try ExternalFile.writeInPlace(json("late", 2), to: url)
        #expect(await waitForValue(shared) { $0.level == 2 } != nil)
    }

    @Test("Observation tracks the value and hears external changes")
    func observation() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("profile.json")
        let shared = Shared(wrappedValue: Profile(), .fileStorage(url))
        let changed = Shared(value: false)
        withObservationTracking {
            _ = shared.wrappedValue
        } onChange: {
            changed.wrappedValue = true
        }
        try ExternalFile.replace(json("observed", 1), at: url)
        #expect(await waitForValue(changed) { $0 } != nil)
    }
}
