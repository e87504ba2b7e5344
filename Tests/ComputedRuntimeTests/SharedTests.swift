import Foundation
import Observation
import Testing

@testable import ComputedRuntime

/// A fresh temporary directory per test.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ComputedRuntimeTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private struct Settings: Codable, Equatable, Sendable {
    var theme = "light"
    var fontSize = 14
}

private enum Theme: String, Sendable {
    case light
    case dark
}

/// A unique key per test, so tests never share in-memory values.
private func uniqueKey(_ name: String = #function) -> String {
    "\(name)-\(UUID().uuidString)"
}

@Suite("Shared: in memory")
struct SharedInMemoryTests {
    @Test("two declarations of one key share the value; other keys do not")
    func sameKeyShares() {
        let key = uniqueKey()
        let first = Shared(wrappedValue: 0, .inMemory(key))
        let second = Shared(wrappedValue: 99, .inMemory(key))  // the existing value wins
        #expect(second.wrappedValue == 0)
        first.wrappedValue = 5
        #expect(second.wrappedValue == 5)
        #expect(first.isSameReference(as: second))
        let other = Shared(wrappedValue: 1, .inMemory(uniqueKey("other")))
        #expect(other.wrappedValue == 1)
    }

    @Test("an in-memory value outlives its holders for the life of the process")
    func processLifetime() {
        let key = uniqueKey()
        do {
            let shared = Shared(wrappedValue: 1, .inMemory(key))
            shared.wrappedValue = 42
        }
        #expect(Shared(wrappedValue: 0, .inMemory(key)).wrappedValue == 42)
    }

    @Test("withLock is an atomic read-modify-write across threads")
    func withLockIsAtomic() async {
        let shared = Shared(value: 0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 { shared.withLock { $0 += 1 } }
                }
            }
        }
        #expect(shared.wrappedValue == 4_000)
    }

    @Test("a child handed the parent's reference sees and makes the same writes")
    func parentToChild() {
        struct Parent {
            @Shared(.inMemory(uniqueKey("parent"))) var count = 0
        }
        struct Child {
            @Shared var count: Int
        }
        let parent = Parent()
        let child = Child(count: parent.$count)
        child.count = 3
        #expect(parent.count == 3)
        parent.$count.withLock { $0 += 1 }
        #expect(child.count == 4)
    }

    @Test("every write of another value takes a new version; an equal one is no write; == compares values")
    func versionsAndEquality() {
        let shared = Shared(value: 1)
        let heard = LockedBox(0)
        let subscription = shared.subscribe { _ in heard.withLock { $0 += 1 } }
        let version = shared.version
        shared.wrappedValue = 1
        shared.withLock { $0 = 1 }
        #expect(shared.version == version)
        #expect(heard.withLock { $0 } == 0)
        shared.wrappedValue = 2
        #expect(shared.version != version)
        #expect(heard.withLock { $0 } == 1)
        // A value that is not Equatable: every write is a change.
        let opaque = Shared(value: NotEquatable())
        let opaqueVersion = opaque.version
        opaque.wrappedValue = NotEquatable()
        #expect(opaque.version != opaqueVersion)
        withExtendedLifetime(subscription) {}
        shared.wrappedValue = 1
        #expect(Shared(value: 1) == shared)
        #expect(Shared(value: 2) != shared)
    }

    @Test("Observation hears a write of another value, after it is made, and not an equal one")
    func observationOfWrites() {
        let shared = Shared(value: 1)
        let seen = LockedBox<[Int]>([])
        withObservationTracking { _ = shared.wrappedValue } onChange: { seen.withLock { $0.append(shared.wrappedValue) } }
        shared.wrappedValue = 1
        #expect(seen.withLock { $0 }.isEmpty)
        shared.wrappedValue = 2
        #expect(seen.withLock { $0 } == [2])
    }

    @Test("values yields the current value and every change; subscribe sees writes")
    func changeStream() async {
        let shared = Shared(value: "a")
        var iterator = shared.values.makeAsyncIterator()
        #expect(await iterator.next() == "a")
        shared.wrappedValue = "b"
        #expect(await iterator.next() == "b")

        let seen = LockedBox<[String]>([])
        let subscription = shared.subscribe { value in seen.withLock { $0.append(value) } }
        shared.wrappedValue = "c"
        shared.withLock { $0 += "d" }
        #expect(seen.withLock { $0 } == ["c", "cd"])
        subscription.cancel()
    }

    @Test("a reader reads the same reference")
    func reader() {
        let shared = Shared(value: Settings())
        let reader = shared.reader
        shared.withLock { $0.theme = "dark" }
        #expect(reader.wrappedValue.theme == "dark")
        #expect(reader.theme == "dark")  // dynamic member lookup
        #expect(reader.version == shared.version)
    }

    @Test("one key with two value types is a reported error, not a crash")
    func typeMismatch() {
        let key = uniqueKey()
        let number = Shared(wrappedValue: 1, .inMemory(key))
        let text = Shared(wrappedValue: "one", .inMemory(key))
        #expect(text.wrappedValue == "one")
        guard case .typeMismatch(let reportedKey, let expected, let existing)? = text.loadError else {
            Issue.record("expected a type mismatch, got \(String(describing: text.loadError))")
            return
        }
        #expect(reportedKey == "inMemory:" + key)
        #expect(expected == "Swift.String")
        #expect(existing == "Swift.Int")
        text.wrappedValue = "two"
        #expect(number.wrappedValue == 1)  // the original is untouched
        #expect(number.loadError == nil)
    }
}

@Suite("Shared: file storage")
struct SharedFileStorageTests {
    @Test("a missing file yields the default; save writes JSON now")
    func missingFileAndSave() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("settings.json")
        let shared = Shared(wrappedValue: Settings(), .fileStorage(url, coalescing: .seconds(60)))
        #expect(shared.loadError == nil)
        #expect(shared.wrappedValue == Settings())
        #expect(!FileManager.default.fileExists(atPath: url.path))  // nothing written yet
        shared.withLock { $0.fontSize = 20 }
        try shared.save()
        let stored = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
        #expect(stored.fontSize == 20)
    }

    @Test("two holders of one file see each other's writes")
    func sharedBetweenHolders() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("shared.json")
        let first = Shared(wrappedValue: Settings(), .fileStorage(url))
        let second = Shared(wrappedValue: Settings(), .fileStorage(url))
        first.withLock { $0.theme = "dark" }
        #expect(second.wrappedValue.theme == "dark")
        #expect(first.isSameReference(as: second))
    }

    @Test("rapid writes are coalesced and the last one reaches the file")
    func coalescedWrites() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("counter.json")
        let shared = Shared(wrappedValue: 0, .fileStorage(url, coalescing: .milliseconds(20)))
        for value in 1...500 {
            shared.wrappedValue = value
        }
        var stored: Int?
        for _ in 0..<200 where stored != 500 {
            try await Task.sleep(for: .milliseconds(10))
            stored = try? JSONDecoder().decode(Int.self, from: Data(contentsOf: url))
        }
        #expect(stored == 500)
    }

    @Test("releasing the last holder flushes a pending write; the next holder loads it")
    func deinitFlushes() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("flush.json")
        do {
            let shared = Shared(wrappedValue: Settings(), .fileStorage(url, coalescing: .seconds(60)))
            shared.withLock { $0.theme = "solarized" }
        }
        let stored = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
        #expect(stored.theme == "solarized")
        let reloaded = Shared(wrappedValue: Settings(), .fileStorage(url))
        #expect(reloaded.wrappedValue.theme == "solarized")
    }

    @Test("a corrupt file is reported, kept as a backup and never overwritten")
    func corruptFile() throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("settings.json")
        let garbage = Data(#"{"theme": "dark", "fontSize": "#.utf8)
        try garbage.write(to: url)

        let shared = Shared(wrappedValue: Settings(), .fileStorage(url))
        #expect(shared.wrappedValue == Settings())
        guard case .unreadableFile(let reportedURL, let backup?, let reason)? = shared.loadError else {
            Issue.record("expected an unreadable-file error with a backup, got \(String(describing: shared.loadError))")
            return
        }
        #expect(reportedURL == url.standardizedFileURL)
        #expect(backup.lastPathComponent.hasPrefix("settings.json.corrupt-"))
        #expect(!reason.isEmpty)
        #expect(try Data(contentsOf: backup) == garbage)

        shared.withLock { $0.theme = "new" }
        try shared.save()
        #expect(try Data(contentsOf: backup) == garbage)  // the backup is untouched
        #expect(try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url)).theme == "new")
    }

    @Test("a file of the wrong shape is reported with its coding path")
    func wrongShape() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("shape.json")
        try Data(#"{"theme": 3, "fontSize": 12}"#.utf8).write(to: url)
        let shared = Shared(wrappedValue: Settings(), .fileStorage(url))
        guard case .unreadableFile(_, _?, let reason)? = shared.loadError else {
            Issue.record("expected an unreadable-file error, got \(String(describing: shared.loadError))")
            return
        }
        #expect(reason.contains("theme"))
    }

    @Test("a path that cannot be read as a file is moved aside too")
    func unreadablePath() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("folder.json")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let shared = Shared(wrappedValue: 7, .fileStorage(url))
        #expect(shared.wrappedValue == 7)
        guard case .unreadableFile(_, let backup?, _)? = shared.loadError else {
            Issue.record("expected an unreadable-file error, got \(String(describing: shared.loadError))")
            return
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: backup.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("a relative path resolves against the default directory")
    func relativePath() throws {
        let directory = try makeTemporaryDirectory()
        let previous = SharedFileStorage.defaultDirectory
        SharedFileStorage.defaultDirectory = directory
        defer { SharedFileStorage.defaultDirectory = previous }
        let name = "relative-\(UUID().uuidString).json"
        let shared = Shared(wrappedValue: 1, .fileStorage(name))
        shared.wrappedValue = 2
        try shared.save()
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path))
    }

    @Test("temporary files left by killed writers are cleaned up on load")
    func staleTemporaryFiles() throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("data.json")
        let stale = directory.appendingPathComponent(".data.json.tmp-999999999-1")
        try Data("partial".utf8).write(to: stale)
        _ = Shared(wrappedValue: 0, .fileStorage(url))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }
}

@Suite("Shared: app storage")
struct SharedAppStorageTests {
    static func makeDefaults() -> UserDefaults {
        let suite = "ComputedRuntimeTests.\(UUID().uuidString)"
        return UserDefaults(suiteName: suite)!
    }

    @Test("values are read from and written to UserDefaults")
    func readWrite() {
        let defaults = Self.makeDefaults()
        defaults.set(3, forKey: "launchCount")
        let count = Shared(wrappedValue: 0, .appStorage("launchCount", store: defaults))
        #expect(count.wrappedValue == 3)
        count.withLock { $0 += 1 }
        #expect(defaults.integer(forKey: "launchCount") == 4)

        let name = Shared(wrappedValue: "anonymous", .appStorage("name", store: defaults))
        #expect(name.wrappedValue == "anonymous")
        name.wrappedValue = "Ada"
        #expect(defaults.string(forKey: "name") == "Ada")
    }

    @Test("every supported type round-trips through UserDefaults")
    func supportedTypes() {
        let defaults = Self.makeDefaults()
        let date = Date(timeIntervalSince1970: 1_000)
        let url = URL(string: "https://example.com/a")!
        Shared(wrappedValue: false, .appStorage("bool", store: defaults)).wrappedValue = true
        Shared(wrappedValue: 0.5, .appStorage("double", store: defaults)).wrappedValue = 2.5
        Shared(wrappedValue: Data(), .appStorage("data", store: defaults)).wrappedValue = Data([1, 2])
        Shared(wrappedValue: Date.distantPast, .appStorage("date", store: defaults)).wrappedValue = date
        Shared(wrappedValue: [String](), .appStorage("strings", store: defaults)).wrappedValue = ["a", "b"]
        Shared(wrappedValue: URL(string: "https://x")!, .appStorage("url", store: defaults)).wrappedValue = url
        #expect(defaults.bool(forKey: "bool"))
        #expect(defaults.double(forKey: "double") == 2.5)
        #expect(defaults.data(forKey: "data") == Data([1, 2]))
        #expect(defaults.object(forKey: "date") as? Date == date)
        #expect(defaults.stringArray(forKey: "strings") == ["a", "b"])
        #expect(defaults.string(forKey: "url") == url.absoluteString)
    }

    @Test("raw-representable values are stored by raw value")
    func rawRepresentable() {
        let defaults = Self.makeDefaults()
        let theme = Shared(wrappedValue: Theme.light, .appStorage("theme", store: defaults))
        theme.wrappedValue = .dark
        #expect(defaults.string(forKey: "theme") == "dark")
        #expect(Shared(wrappedValue: Theme.light, .appStorage("theme", store: defaults)).wrappedValue == .dark)
    }

    @Test("a stored value of another type is reported and the default used")
    func unexpectedStoredValue() {
        let defaults = Self.makeDefaults()
        defaults.set("not a number", forKey: "count")
        let count = Shared(wrappedValue: 5, .appStorage("count", store: defaults))
        #expect(count.wrappedValue == 5)
        guard case .unexpectedStoredValue(let key, _)? = count.loadError else {
            Issue.record("expected unexpectedStoredValue, got \(String(describing: count.loadError))")
            return
        }
        #expect(key == "count")
    }
}

/// A value without `==`.
private struct NotEquatable: Sendable {}
