// Writes a record to a `.fileStorage` Shared value and saves it, forever, printing
// "flushed N" after each save returns. SharedFaultTests kills it with SIGKILL at random moments
// and checks that the file always holds a record the writer had saved (or was saving).
//
// Usage: SharedFaultWriter <file>

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

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: SharedFaultWriter <file>\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: CommandLine.arguments[1])
let shared = Shared(wrappedValue: Record.make(0), .fileStorage(url, coalescing: .milliseconds(1)))
if let error = shared.loadError {
    FileHandle.standardError.write(Data("load error: \(error)\n".utf8))
    exit(3)
}
var counter = shared.wrappedValue.counter
while true {
    counter += 1
    shared.withLock { $0 = Record.make(counter) }
    do {
        try shared.save()
    } catch {
        FileHandle.standardError.write(Data("save error: \(error)\n".utf8))
        exit(4)
    }
    FileHandle.standardOutput.write(Data("flushed \(counter)\n".utf8))
}
