import Foundation
import Testing

/// A temporary directory for one test, removed when the test is done with it.
final class TemporaryDirectory {
    /// The directory's URL.
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ComputedGenTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `text` to `name` (creating intermediate directories) and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// The text of `path`, or `nil` when it cannot be read.
    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
    }
}

/// Where the build products of the running tests are: the tool, the runtime module, swiftc.
enum BuildProducts {
    /// The directory holding the running test bundle (on Linux `ComputedGenPackageTests.xctest` is
    /// an executable in the build directory; on macOS it is a bundle there).
    static var directory: URL? {
        if let override = ProcessInfo.processInfo.environment["COMPUTEDGEN_BUILD_DIR"] {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        var candidates: [URL] = Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        if let executable = Bundle.main.executableURL { candidates.append(executable) }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]))
        for candidate in candidates {
            var directory = candidate.resolvingSymlinksInPath()
            // Walk up out of an .xctest bundle (macOS: .../debug/X.xctest/Contents/MacOS/X).
            for _ in 0..<4 {
                directory.deleteLastPathComponent()
                if FileManager.default.fileExists(atPath: directory.appendingPathComponent("ComputedGenTool").path)
                    || FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules").path) {
                    return directory
                }
            }
        }
        return nil
    }

    /// The `ComputedGenTool` executable built next to the tests.
    static var tool: URL? {
        if let override = ProcessInfo.processInfo.environment["COMPUTEDGEN_TOOL"] {
            return URL(fileURLWithPath: override)
        }
        guard let tool = directory?.appendingPathComponent("ComputedGenTool"),
              FileManager.default.isExecutableFile(atPath: tool.path) else { return nil }
        return tool
    }

    /// The directory that holds `ComputedRuntime.swiftmodule` (`Modules/` in current SwiftPM,
    /// the build directory itself in older ones).
    static var runtimeModuleDirectory: URL? {
        guard let directory else { return nil }
        return [directory.appendingPathComponent("Modules"), directory].first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("ComputedRuntime.swiftmodule").path)
        }
    }

    /// The module map SwiftPM generated for the runtime's C target, which clients of the runtime
    /// module need to load it.
    static var atomicsModuleMap: URL? {
        guard let directory else { return nil }
        let map = directory.appendingPathComponent("CComputedAtomics.build/module.modulemap")
        return FileManager.default.fileExists(atPath: map.path) ? map : nil
    }

    /// What `run` observed.
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `executable` with `arguments`, in `directory` when given. Output goes through
    /// temporary files rather than pipes, so a chatty process can never block on a full pipe.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> Run {
        let scratch = try TemporaryDirectory()
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            standardOutput: scratch.read(outputURL.path) ?? "",
            standardError: scratch.read(errorURL.path) ?? ""
        )
    }

    /// `swiftc` with the arguments that precede a caller's: `xcrun swiftc` on Apple platforms.
    static var swiftc: (executable: URL, arguments: [String]) {
        #if canImport(Darwin)
        return (URL(fileURLWithPath: "/usr/bin/xcrun"), ["swiftc"])
        #else
        return (URL(fileURLWithPath: "/usr/bin/env"), ["swiftc"])
        #endif
    }

    /// Runs `swiftc -typecheck` over `files` as module `moduleName`, against the ComputedRuntime
    /// module of this build (and the modules of the test helpers beside it), with `extraArguments`;
    /// returns swiftc's exit status and diagnostics.
    static func typecheck(_ files: [String], moduleName: String, extraArguments: [String] = []) throws -> Run {
        try compile(files, moduleName: moduleName, mode: ["-typecheck"], extraArguments: extraArguments)
    }

    /// Runs `swiftc` in `mode` (`-typecheck`, `-emit-sil -O -o path`, …) over `files` as module
    /// `moduleName`, against the ComputedRuntime module of this build, with `extraArguments`.
    static func compile(_ files: [String], moduleName: String, mode: [String], extraArguments: [String] = []) throws -> Run {
        let modules = try #require(
            runtimeModuleDirectory,
            "ComputedRuntime.swiftmodule was not found under \(directory?.path ?? "the build directory"); set COMPUTEDGEN_BUILD_DIR"
        )
        let moduleMap = try #require(atomicsModuleMap, "CComputedAtomics.build/module.modulemap was not found")
        var arguments = swiftc.arguments + mode + [
            "-swift-version", "6", "-module-name", moduleName, "-package-name", moduleName,
            "-I", modules.path,
            "-Xcc", "-fmodule-map-file=\(moduleMap.path)",
        ]
        #if os(macOS)
        #if arch(arm64)
        arguments += ["-target", "arm64-apple-macosx14.0"]
        #else
        arguments += ["-target", "x86_64-apple-macosx14.0"]
        #endif
        #endif
        return try run(swiftc.executable, arguments + extraArguments + files)
    }

    /// The folder of the toolchain's `PackageDescription` module, which package manifests are
    /// compiled against (`<toolchain>/usr/lib/swift/pm/ManifestAPI`).
    static var manifestAPIDirectory: URL? {
        guard let info = try? run(swiftc.executable, swiftc.arguments + ["-print-target-info"]),
              let json = try? JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any],
              let paths = json["paths"] as? [String: Any],
              let resources = paths["runtimeResourcePath"] as? String else { return nil }
        let directory = URL(fileURLWithPath: resources).appendingPathComponent("pm/ManifestAPI")
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent("PackageDescription.swiftmodule").path)
            ? directory : nil
    }
}
