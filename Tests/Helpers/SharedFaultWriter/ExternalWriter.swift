import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Changes a file as other programs do, one command per line of standard input, answering
/// "ok" on standard output when the change is made:
///
/// - `write N`: rewrites the file in place (truncate, write, close) with `Record.make(N)`;
/// - `replace N`: writes a temporary file and renames it over the file (an atomic replace);
/// - `delete`: removes the file;
/// - `garbage`: replaces the file with content that is not JSON.
enum ExternalWriter {
    static func run(url: URL) -> Never {
        let encoder = JSONEncoder()
        while let line = readLine() {
            let parts = line.split(separator: " ")
            switch (parts.first, parts.count) {
            case ("write", 2):
                let data = try! encoder.encode(Record.make(Int(parts[1])!))
                let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                guard descriptor >= 0 else { fail("cannot open \(url.path)", status: 5) }
                _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
            case ("replace", 2):
                let data = try! encoder.encode(Record.make(Int(parts[1])!))
                let temporary = url.deletingLastPathComponent().appendingPathComponent(".external-\(getpid())")
                try! data.write(to: temporary)
                guard rename(temporary.path, url.path) == 0 else { fail("cannot rename onto \(url.path)", status: 5) }
            case ("delete", 1):
                guard unlink(url.path) == 0 else { fail("cannot delete \(url.path)", status: 5) }
            case ("garbage", 1):
                try! Data("{ not json".utf8).write(to: url, options: .atomic)
            default:
                fail("unknown command: \(line)", status: 2)
            }
            FileHandle.standardOutput.write(Data("ok\n".utf8))
        }
        exit(0)
    }
}
