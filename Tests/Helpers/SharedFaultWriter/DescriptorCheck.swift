import ComputedRuntime
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Checks, in a process of its own (so that no other test opens descriptors meanwhile), that the
/// watchers of `.fileStorage` and `.appStorage` values release every file descriptor when the
/// last holder goes away. Prints `baseline=B peak=P after=A cycles=C` and exits with 0 when
/// `A == B` and the values followed external writes while held, 6 otherwise.
enum DescriptorCheck {
    static func openDescriptors() -> Int {
        (0..<4_096).count(where: { fcntl(Int32($0), F_GETFD) != -1 })
    }

    /// Holds 10 files in 2 folders and 2 `UserDefaults` keys, proves that they follow external
    /// changes, then lets them go. Returns the descriptors open while they were held.
    static func cycle(directory: URL, round: Int, defaults: UserDefaults) -> Int {
        let folders = [directory.appendingPathComponent("a"), directory.appendingPathComponent("b")]
        var files: [Shared<Int>] = []
        for index in 0..<10 {
            let url = folders[index % 2].appendingPathComponent("value-\(index).json")
            let shared = Shared(wrappedValue: 0, .fileStorage(url))
            shared.wrappedValue = round
            try! shared.save()
            files.append(shared)
        }
        let keys = (0..<2).map { Shared(wrappedValue: 0, .appStorage("key-\($0)", store: defaults)) }
        // Someone else writes: every holder must follow.
        let external = folders[1].appendingPathComponent("value-9.json")
        try! Data("\(round * 1_000)".utf8).write(to: external, options: .atomic)
        defaults.set(round * 1_000, forKey: "key-1")
        let deadline = Date().addingTimeInterval(2)
        while files[9].wrappedValue != round * 1_000 || keys[1].wrappedValue != round * 1_000 {
            if Date() > deadline { fail("round \(round): the values did not follow external writes", status: 6) }
            usleep(5_000)
        }
        return openDescriptors()
    }

    static func run(directory: URL) -> Never {
        let defaults = UserDefaults(suiteName: "SharedFaultWriter.fd-check.\(getpid())")!
        // Warm-up: Dispatch and Foundation open descriptors of their own on first use, for good.
        _ = cycle(directory: directory, round: 1, defaults: defaults)
        usleep(200_000)
        let baseline = openDescriptors()
        var peak = baseline
        let cycles = 8
        for round in 2...(cycles + 1) {
            peak = max(peak, cycle(directory: directory, round: round, defaults: defaults))
        }
        // Sources close their descriptors asynchronously, once cancelled.
        var after = openDescriptors()
        let deadline = Date().addingTimeInterval(3)
        while after != baseline && Date() < deadline {
            usleep(10_000)
            after = openDescriptors()
        }
        print("baseline=\(baseline) peak=\(peak) after=\(after) cycles=\(cycles)")
        exit(after == baseline && peak > baseline ? 0 : 6)
    }
}
