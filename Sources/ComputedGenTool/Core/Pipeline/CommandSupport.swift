import Foundation

/// Parsed `<spec>... --option value` arguments.
struct Options {
    var specs: [String] = []
    var values: [String: String] = [:]
    /// The values of options that may be given several times, in order.
    var lists: [String: [String]] = [:]

    init(parsing arguments: [String], allowed: Set<String>, repeatable: Set<String> = []) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if repeatable.contains(argument) {
                guard let value = iterator.next() else {
                    throw Command.UsageError(message: "option '\(argument)' needs a value")
                }
                lists[argument, default: []].append(value)
            } else if argument.hasPrefix("-") {
                guard allowed.contains(argument) else {
                    throw Command.UsageError(message: "unknown option '\(argument)'")
                }
                guard let value = iterator.next() else {
                    throw Command.UsageError(message: "option '\(argument)' needs a value")
                }
                guard values[argument] == nil else {
                    throw Command.UsageError(message: "option '\(argument)' given twice")
                }
                values[argument] = value
            } else {
                specs.append(argument)
            }
        }
    }
}

/// File reading and change-only writing.
struct FileSystem: Sendable {
    /// An I/O failure with the path it concerns.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of the file at `path` (``SpecSource/decode(_:path:)`` checks they are UTF-8).
    func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read '\(path)': no such file, or it is not readable")
        }
        return [UInt8](data)
    }

    /// Writes `text` to `path` atomically, unless the file already holds exactly `text` (so its
    /// modification date, and therefore the build, is left alone).
    func writeIfChanged(_ text: String, to path: String) throws {
        let data = Data(text.utf8)
        if FileManager.default.contents(atPath: path) == data { return }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw Failure(description: "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}
