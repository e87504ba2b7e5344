// 6. The generator on a 1,000-field / 1,000-computed spec: the release ComputedGenTool runs as a
// subprocess (as the build plugin runs it); its peak resident memory is measured once, by /usr/bin/time.

import Benchmark
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tool's peak resident set size, in bytes (see `GeneratorRun.peakMemory`).
let generatorPeakMemory = BenchmarkMetric.custom("Peak resident memory (generator)", polarity: .prefersSmaller)

func registerGeneratorBenchmarks() {
    measure(
        "6 generator: 1,000 fields + 1,000 computeds, generate",
        configuration(.one, metrics: timeMetrics + [generatorPeakMemory], maxDuration: .seconds(5))
    ) {
        try GeneratorRun.prepare(fields: 1_000, computeds: 1_000)
    } _: { benchmark, run in
        for _ in benchmark.scaledIterations {
            run.generate()
            benchmark.measurement(generatorPeakMemory, run.peakMemory)
        }
    }
}

/// A large spec in a temporary folder and the tool to run on it.
struct GeneratorRun: Sendable {
    let tool: String
    let spec: String
    let output: String
    /// The tool's peak resident memory on the spec, in bytes, measured once by `/usr/bin/time`
    /// (0 where it is missing). Not from the timed runs' `wait4` usage: the tool is spawned with
    /// `posix_spawn`, which shares this process's memory until `exec`, and Linux then reports this
    /// process's peak (the benchmark's own hundreds of MiB) as the child's.
    var peakMemory = 0

    /// Writes the spec of scripts/measure-generator.sh (same shape) and finds the tool.
    static func prepare(fields: Int, computeds: Int) throws -> GeneratorRun {
        let tool = try locateTool()
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("computedgen-bench-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let spec = folder.appendingPathComponent("Large.statespec")
        try largeSpec(fields: fields, computeds: computeds).write(to: spec, atomically: true, encoding: .utf8)
        var run = GeneratorRun(tool: tool, spec: spec.path, output: folder.appendingPathComponent("Large.statespec.swift").path)
        run.generate()
        guard FileManager.default.fileExists(atPath: run.output) else {
            throw GeneratorError("\(tool) generate wrote no \(run.output)")
        }
        // `/usr/bin/time` forks from its own small process, so the peak it reports is the tool's.
        let report = folder.appendingPathComponent("peak.txt").path
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
            run.spawn(["/usr/bin/time", "-f", "%M", "-o", report, tool, "generate", spec.path, "--output", run.output])
            let kilobytes = (try? String(contentsOfFile: report, encoding: .utf8))?
                .split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            run.peakMemory = (kilobytes ?? 0) * 1_024
        }
        return run
    }

    /// Removes the previous output (so the write is measured too, as in measure-generator.sh) and
    /// runs `ComputedGenTool generate`.
    func generate() {
        unlink(output)
        spawn([tool, "generate", spec, "--output", output])
    }

    /// Runs `arguments` (an executable and its arguments) and waits for it to succeed.
    func spawn(_ arguments: [String]) {
        let tool = arguments[0]
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tool, nil, nil, cArguments, environ)
        precondition(spawned == 0, "posix_spawn \(tool) failed: \(spawned)")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            precondition(errno == EINTR, "waitpid failed: \(errno)")
        }
        precondition(status == 0, "\(arguments.joined(separator: " ")) failed with status \(status)")
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
