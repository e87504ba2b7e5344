// A child process for the file-storage tests (ComputedRuntimeTests/SharedFaultTests and
// SharedFollowProcessTests).
//
// Usage:
//   SharedFaultWriter <file>                 writes a record to a `.fileStorage` Shared value and
//                                            saves it, forever, printing "flushed N" after each
//                                            save; the fault test kills it with SIGKILL.
//   SharedFaultWriter --external <file>      changes <file> as another program would, on command
//                                            from standard input (see ExternalWriter.swift).
//   SharedFaultWriter --fd-check <folder>    checks that watchers release their descriptors
//                                            (see DescriptorCheck.swift).

import ComputedRuntime
import Foundation

/// The record written; its payload is derived from its counter so a torn write would show.
struct Record: Codable, Sendable, Equatable {
    var counter: Int
    var payload: String

    static func make(_ counter: Int) -> Record {
        Record(counter: counter, payload: String(repeating: "x", count: 1_000 + counter % 3_000) + "#\(counter)")
    }
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments
if arguments.count == 3 && arguments[1] == "--external" {
    ExternalWriter.run(url: URL(fileURLWithPath: arguments[2]))
} else if arguments.count == 3 && arguments[1] == "--fd-check" {
    DescriptorCheck.run(directory: URL(fileURLWithPath: arguments[2]))
} else if arguments.count == 2 {
    runKilledWriter(url: URL(fileURLWithPath: arguments[1]))
} else {
    fail("usage: SharedFaultWriter <file> | --external <file> | --fd-check <folder>", status: 2)
}

func runKilledWriter(url: URL) -> Never {
    let shared = Shared(wrappedValue: Record.make(0), .fileStorage(url, coalescing: .milliseconds(1)))
    if let error = shared.loadError {
        fail("load error: \(error)", status: 3)
    }
    var counter = shared.wrappedValue.counter
    while true {
        counter += 1
        shared.withLock { $0 = Record.make(counter) }
        do {
            try shared.save()
        } catch {
            fail("save error: \(error)", status: 4)
        }
        FileHandle.standardOutput.write(Data("flushed \(counter)\n".utf8))
    }
}
