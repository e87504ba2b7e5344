import ConcurrencyTestSupport
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Kills a process writing a `.fileStorage` value with SIGKILL at random moments and checks,
/// after every kill, that the file decodes to a record the writer had saved (or was saving).
@Suite("Shared: file storage under SIGKILL", .serialized)
struct SharedFaultTests {
    /// The record `SharedFaultWriter` writes (same shape and payload rule).
    struct Record: Codable, Equatable {
        var counter: Int
        var payload: String

        static func make(_ counter: Int) -> Record {
            Record(counter: counter, payload: String(repeating: "x", count: 1_000 + counter % 3_000) + "#\(counter)")
        }
    }

    /// `SharedFaultWriter`, built next to the test bundle.
    static func writerExecutable() throws -> URL {
        // The test binary is `<build>/<Tests>.xctest` on Linux and
        // `<build>/<Tests>.xctest/Contents/MacOS/<Tests>` on macOS: search upwards from it.
        let starts = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])].compactMap { $0 }
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("SharedFaultWriter")
                if FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        struct Missing: Error, CustomStringConvertible {
            var description = "SharedFaultWriter was not built next to the tests; run `swift build` first"
        }
        throw Missing()
    }

    @Test("200 kills at random moments never leave a torn or older-than-acknowledged file")
    func killedWriter() throws {
        let writer = try Self.writerExecutable()
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("record.json")
        var generator = SeededGenerator(seed: 0xC0FFEE)
        var lastSeen = 0
        var acknowledgedTotal = 0

        for run in 1...200 {
            let process = Process()
            process.executableURL = writer
            process.arguments = [url.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()

            // Wait for the first acknowledged save, then kill after a random 0–3 ms, which lands
            // before, during or after the following writes.
            var text = ""
            while !text.contains("flushed") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            usleep(UInt32.random(in: 0...3_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

            let acknowledged = text.split(separator: "\n")
                .compactMap { $0.hasPrefix("flushed ") ? Int($0.dropFirst(8)) : nil }
            let lastAcknowledged = try #require(acknowledged.last, "run \(run): the writer acknowledged nothing: \(text)")
            acknowledgedTotal += acknowledged.count

            let record = try JSONDecoder().decode(Record.self, from: Data(contentsOf: url))
            #expect(record == Record.make(record.counter), "run \(run): a torn record")
            // The file holds the last acknowledged save, or the one being saved when killed.
            #expect(
                record.counter == lastAcknowledged || record.counter == lastAcknowledged + 1,
                "run \(run): file has \(record.counter), last acknowledged \(lastAcknowledged)"
            )
            #expect(record.counter > lastSeen, "run \(run): the writer resumed from an older value")
            lastSeen = record.counter
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!leftovers.contains { $0.contains(".corrupt-") }, "no file was ever found corrupt")
        print("SharedFaultTests: 200 kills, \(acknowledgedTotal) acknowledged saves, final counter \(lastSeen)")
    }
}
