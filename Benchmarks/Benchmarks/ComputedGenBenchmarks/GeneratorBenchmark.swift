// 6. The generator on a 1,000-field / 1,000-computed spec: the release ComputedGenTool runs as a
// subprocess (as the build plugin runs it), and each run's peak resident memory is recorded.

import Benchmark
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The child's peak resident set size, in bytes.
let generatorPeakMemory = BenchmarkMetric.custom("Peak resident memory (generator)", polarity: .prefersSmaller)

func registerGeneratorBenchmarks() {
    measure(
        "6 generator: 1,000 fields + 1,000 computeds, generate",
        configuration(.one, metrics: timeMetrics + [generatorPeakMemory], maxDuration: .seconds(5))
    ) {
        try GeneratorRun.prepare(fields: 1_000, computeds: 1_000)
    } _: { benchmark, run in
        for _ in benchmark.scaledIterations {
            let peak = run.generate()
            benchmark.measurement(generatorPeakMemory, peak)
        }
    }
}

/// A large spec in a temporary folder and the tool to run on it.
struct GeneratorRun: Sendable {
    let tool: String
    let spec: String
    let output: String

    /// Writes the spec of scripts/measure-generator.sh (same shape) and finds the tool.
    static func prepare(fields: Int, computeds: Int) throws -> GeneratorRun {
        let tool = try locateTool()
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("computedgen-bench-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let spec = folder.appendingPathComponent("Large.statespec")
        try largeSpec(fields: fields, computeds: computeds).write(to: spec, atomically: true, encoding: .utf8)
        let run = GeneratorRun(tool: tool, spec: spec.path, output: folder.appendingPathComponent("Large.statespec.swift").path)
        _ = run.generate()
        guard FileManager.default.fileExists(atPath: run.output) else {
            throw GeneratorError("\(tool) generate wrote no \(run.output)")
        }
        return run
    }

    /// Removes the previous output (so the write is measured too, as in measure-generator.sh),
    /// runs `ComputedGenTool generate`, and returns the child's peak resident memory in bytes.
    func generate() -> Int {
        unlink(output)
        let arguments = [tool, "generate", spec, "--output", output]
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tool, nil, nil, cArguments, environ)
        precondition(spawned == 0, "posix_spawn \(tool) failed: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            precondition(errno == EINTR, "wait4 failed: \(errno)")
        }
        precondition(status == 0, "\(tool) generate failed with status \(status)")
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        return Int(usage.ru_maxrss) * 1_024  // kilobytes on Linux
        #endif
    }

    /// `COMPUTEDGEN_TOOL`, or the ComputedGenTool built next to this benchmark executable
    /// (Benchmarks/run.sh builds it with `swift build -c release --product ComputedGenTool`; a
    /// release `swift build` of this package also leaves the plugin's `ComputedGenTool-tool` there).
    static func locateTool() throws -> String {
        if let path = ProcessInfo.processInfo.environment["COMPUTEDGEN_TOOL"], !path.isEmpty {
            return path
        }
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = ["ComputedGenTool", "ComputedGenTool-tool"].map { folder.appendingPathComponent($0).path }
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw GeneratorError("ComputedGenTool not found in \(folder.path); set COMPUTEDGEN_TOOL")
        }
        return tool
    }
}

struct GeneratorError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The spec of scripts/measure-generator.sh: computed i reads two or three fields, every fourth
/// also an earlier computed (so invalidation lists are transitive), every tenth has a multi-line
/// body, and one parameterized selector.
func largeSpec(fields: Int, computeds: Int) -> String {
    var lines = [
        "// \(fields) fields, \(computeds) computed values; the shape of scripts/measure-generator.sh.",
        "import Foundation",
        "",
        "public state LargeState: Equatable, Codable {",
    ]
    for i in 0..<fields {
        lines.append("  var field\(i): Int = \(i)")
    }
    for i in 0..<computeds {
        let a = i % fields
        let b = (i * 7 + 3) % fields
        let c = (i * 13 + 5) % fields
        var body = i % 3 == 0 ? "field\(a) + field\(b) + field\(c)" : "field\(a) * field\(b)"
        if i % 4 == 3 {
            body += " + computed\(i / 2)"
        }
        if i % 10 == 9 {
            lines.append("  computed computed\(i): Int {")
            lines.append("    let value = \(body)")
            lines.append("    return value")
            lines.append("  }")
        } else {
            lines.append("  computed computed\(i): Int { \(body) }")
        }
    }
    lines.append("  selector above(_ limit: Int) -> Bool { computed0 > limit }")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
}
