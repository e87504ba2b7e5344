import ConcurrencyTestSupport
import Foundation
import Testing

@testable import ComputedGenCore

// The machinery behind FuzzTests: a seeded PRNG, a mutator over spec bytes, the invariants every
// run of the generator must keep, a watchdog for hangs, and the compile check for a sample of
// the specs that generate Swift.

/// SplitMix64: a small, fast, seedable generator, so every fuzz input can be rebuilt from
/// `(run seed, input number)` alone.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A number in `range`, with small values as likely as large ones by order of magnitude.
    mutating func logUniform(_ range: ClosedRange<Int>) -> Int {
        let low = log(Double(range.lowerBound))
        let high = log(Double(range.upperBound))
        let value = Int(exp(low + (high - low) * Double(next() >> 11) / Double(1 << 53)))
        return min(max(value, range.lowerBound), range.upperBound)
    }

    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}

/// The fuzz settings, from the environment (see FuzzTests for the variables).
struct FuzzConfiguration {
    /// 2,500 inputs in `swift test`; 10,000 with `COMPUTEDGEN_DEEP_TESTS=1`, as CI runs it.
    var iterations = TestDepth.size(quick: 2_500, deep: 10_000)
    var firstInput = 0
    var seed: UInt64 = 0xC0_4D_75_7E_D6_E4
    var compileSampleSize = 20
    /// A hang detector, not a speed test: the slowest input takes about 0.3 s in a debug build, and
    /// a busy machine or a sanitizer must not turn that into a failure.
    var timeoutSeconds = 30.0

    static func fromEnvironment() -> FuzzConfiguration {
        let environment = ProcessInfo.processInfo.environment
        var configuration = FuzzConfiguration()
        if let value = environment["COMPUTEDGEN_FUZZ_ITERATIONS"].flatMap({ Int($0) }) { configuration.iterations = value }
        if let value = environment["COMPUTEDGEN_FUZZ_START"].flatMap({ Int($0) }) { configuration.firstInput = value }
        if let value = environment["COMPUTEDGEN_FUZZ_SEED"].flatMap({ UInt64($0) }) { configuration.seed = value }
        if let value = environment["COMPUTEDGEN_FUZZ_COMPILE"].flatMap({ Int($0) }) { configuration.compileSampleSize = value }
        if let value = environment["COMPUTEDGEN_FUZZ_TIMEOUT"].flatMap({ Double($0) }) { configuration.timeoutSeconds = value }
        return configuration
    }
}

/// The fixture directories the fuzzer reads its seeds from.
enum FuzzFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The model types the fixture specs refer to (`Fixtures/Support/*.swift`), sorted by name.
    static var supportFiles: [URL] {
        let directory = root.appendingPathComponent("Support")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".swift") }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// The files of `folder` whose names end in `suffix` (`.statespec` files unless told),
    /// sorted by name, as `(name, text)`.
    static func specs(in folder: String, suffix: String = ".statespec") -> [(name: String, text: String)] {
        let directory = root.appendingPathComponent(folder)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(suffix) }
            .sorted()
        return names.compactMap { name in
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else { return nil }
            return (name, text)
        }
    }

    /// Every seed: the valid specs (first) and the bad-spec corpus. (The regression inputs of
    /// `Fixtures/Invalid/Fuzz` are replayed on their own: they are large, and would slow every
    /// input built from them.)
    static var seeds: (all: [[UInt8]], validCount: Int) {
        let valid = specs(in: "Specs")
        return ((valid + specs(in: "Invalid")).map { Array($0.text.utf8) }, valid.count)
    }

    /// The fixture specs in the Swift form (`Fixtures/SwiftForm`), all valid.
    static var swiftFormSeeds: (all: [[UInt8]], validCount: Int) {
        let valid = specs(in: "SwiftForm", suffix: ".state.swift")
        return (valid.map { Array($0.text.utf8) }, valid.count)
    }
}

/// Builds fuzz inputs by mutating seeds: line, token and byte edits, unbalanced brackets and
/// quotes, awkward Unicode, huge identifiers, deep nesting, nested interpolations, splices.
struct FuzzMutator {
    /// The seeds, valid specs first.
    let seeds: [[UInt8]]
    /// How many of the seeds are valid specs.
    let validSeedCount: Int
    let runSeed: UInt64

    /// The largest input the mutator builds; bigger ones are truncated.
    static let maximumSize = 300_000

    /// Fragments inserted at random places: structure, quotes, comments, spec words, escapes.
    static let snippets: [String] = [
        "{", "}", "(", ")", "[", "]", "<", ">", "{}", "()", "[]", "}}", "{{", ")(", "][",
        "\"", "\"\"\"", "\"\"\"\n", "\n\"\"\"", "#\"", "\"#", "##\"", "\"##", "#", "\\", "\\(", "\\#(", ")\"", "\\u{", "\\u{1F600}",
        "/*", "*/", "//", "///", "/// doc\n", "`", "``", "`x`", "@", "@Edge", "@Edge(", "@Shared(", "@Edge(assert: { $0 > 0 })",
        "state ", "state S {\n", "public state P: Equatable {\n", "computed ", "computed c: Int { ", "selector ",
        "selector s(_ a: Int) -> Int { a }", "var ", "var v: Int = 0\n", "let ", "from ", "from a, b ", "cache ", "cache 0",
        "cache -1", "cache 99999999999999999999", "->", ":", ",", ";", "=", ".", "...", "?", "!", "$0", "$", "_", "_x", "$x",
        "import ", "import Foundation\n", "public ", "package ", "internal ", "#if DEBUG", "#endif", "#sourceLocation()",
        "\n", "\r\n", "\r", "\t", " ", "\u{0B}", "\u{0C}",
        "default", "`default`", "Self", "self", "computed", "Extended", "Selectors", "CodingKeys", "version", "Int", "String",
        "inout", "in", "true", "nil", "0", "1_000", "0x1F", "1e-5", "3.14",
    ]

    /// Awkward Unicode: combining marks, emoji and ZWJ sequences, right-to-left text and
    /// controls, a byte-order mark, NUL, line and paragraph separators, zero-width characters.
    static let unicode: [String] = [
        "\u{0301}", String(repeating: "\u{0301}", count: 64), "e\u{0301}", "é", "ß", "İ", "Ω", "ﬁ",
        "🙂", "👩‍👩‍👧‍👦", "🏳️‍🌈", "🇫🇷", "\u{1F3FB}", "\u{200D}", "\u{200B}", "\u{200C}", "\u{FEFF}",
        "\u{202E}", "\u{202D}", "\u{200F}", "\u{2067}", "שלום", "مرحبا", "\u{0000}", "\u{0007}", "\u{007F}",
        "\u{2028}", "\u{2029}", "\u{0085}", "\u{FFFD}", "\u{FFFF}", "𝔘𝔫𝔦", "\u{10FFFF}", "名前", "ｘ",
    ]

    /// The input numbered `number` of this run.
    func input(number: Int) -> [UInt8] {
        var random = SplitMix64(seed: runSeed ^ (UInt64(number) &* 0xD1B5_4A32_D192_ED03))
        // Half the inputs start from a valid spec, so that enough of them still generate Swift.
        var bytes = random.chance(50) ? seeds[random.below(validSeedCount)] : random.pick(seeds)
        let mutations = random.chance(50) ? 1 : random.logUniform(2...8)
        for _ in 0..<mutations {
            mutate(&bytes, &random)
            if bytes.count > Self.maximumSize { bytes.removeLast(bytes.count - Self.maximumSize) }
        }
        return bytes
    }

    private func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let choice = random.below(100)
        switch choice {
        case 0..<6: truncate(&bytes, &random)
        case 6..<12: deleteRange(&bytes, &random)
        case 12..<26: lineEdit(&bytes, &random)
        case 26..<36: tokenEdit(&bytes, &random)
        case 36..<44: rename(&bytes, &random)
        case 44..<62: insert(Array(random.pick(Self.snippets).utf8), into: &bytes, &random)
        case 62..<70: insert(Array(random.pick(Self.unicode).utf8), into: &bytes, &random)
        case 70..<73: insert(hugeIdentifier(&random), into: &bytes, &random)
        case 73..<76: insert(deepNesting(&random), into: &bytes, &random)
        case 76..<79: insert(nestedInterpolations(&random), into: &bytes, &random)
        case 79..<85: splice(&bytes, &random)
        case 85..<92: flipBytes(&bytes, &random)
        default: repeatChunk(&bytes, &random)
        }
    }

    // MARK: Mutations

    private func truncate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        bytes.removeLast(bytes.count - random.below(bytes.count))
    }

    private func deleteRange(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        let start = random.below(bytes.count)
        let length = min(bytes.count - start, random.logUniform(1...64))
        bytes.removeSubrange(start..<(start + length))
    }

    /// Deletes, duplicates, swaps or moves whole lines.
    private func lineEdit(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        var lines = bytes.split(separator: .newlineByte, omittingEmptySubsequences: false).map(Array.init)
        guard !lines.isEmpty else { return }
        let first = random.below(lines.count)
        let second = random.below(lines.count)
        switch random.below(4) {
        case 0: lines.remove(at: first)
        case 1: lines.insert(lines[first], at: second)
        case 2: lines.swapAt(first, second)
        default:
            let line = lines.remove(at: first)
            lines.insert(line, at: min(second, lines.count))
        }
        bytes = Array(lines.joined(separator: [.newlineByte]))
    }

    /// Deletes, duplicates or swaps tokens (as the generator's own lexer splits them), or
    /// replaces one with a token of another seed.
    private func tokenEdit(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let ranges = Self.tokenRanges(bytes)
        guard !ranges.isEmpty else { return }
        let first = random.pick(ranges)
        switch random.below(4) {
        case 0:
            bytes.removeSubrange(first)
        case 1:
            bytes.insert(contentsOf: bytes[first], at: first.upperBound)
        case 2:
            let second = random.pick(ranges)
            guard first != second, !first.overlaps(second) else { return }
            let (low, high) = first.lowerBound < second.lowerBound ? (first, second) : (second, first)
            let replacement = Array(bytes[high]) + Array(bytes[low.upperBound..<high.lowerBound]) + Array(bytes[low])
            bytes.replaceSubrange(low.lowerBound..<high.upperBound, with: replacement)
        default:
            let donor = random.pick(seeds)
            let donorRanges = Self.tokenRanges(donor)
            guard !donorRanges.isEmpty else { return }
            bytes.replaceSubrange(first, with: donor[random.pick(donorRanges)])
        }
    }

    /// Names for ``rename(_:_:)``: keywords bare and escaped, reserved and generated names,
    /// names of runtime and standard types, Unicode names, and names that differ only in case.
    static let names: [String] = [
        "x", "X", "todos", "Todos", "count", "value", "version", "state", "computed", "selector", "from", "cache",
        "default", "`default`", "`class`", "`self`", "`Self`", "`init`", "`deinit`", "`inout`", "`var`", "`let`", "`_`",
        "`Type`", "`Protocol`", "`subscript`", "Type", "Protocol", "open", "consuming", "borrowing", "nonisolated", "some",
        "any", "get", "set", "willSet", "didSet", "async", "await", "throws", "super", "_x", "$x", "Extended",
        "Selectors", "CodingKeys", "Memo", "Edge", "Shared", "Store", "Selector", "StateSelector", "VersionStamp", "ComputedRuntime", "Sendable",
        "Equatable", "Hashable", "Codable", "Int", "String", "Bool", "Optional", "Array", "Swift", "ComputedRuntime",
        "Foundation", "_storage", "storage", "base", "lhs", "rhs", "hasher", "encoder", "decoder", "container",
        "newValue", "oldValue", "café", "naïve", "Ωmega", "名前", "ｘ", "𝔘", "e\u{0301}", "a\u{200D}b",
        "🙂", "x🙂", "a\u{202E}b", "a\u{FEFF}", "a\u{00A0}b", "A", "AA", "a1", "_1", "__", "$0", "`$0`",
    ]

    /// Replaces every occurrence of one identifier with another name, so that specs stay valid
    /// more often while their names get awkward.
    private func rename(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let identifiers = Self.tokens(bytes).filter { $0.kind == .identifier }
        guard !identifiers.isEmpty else { return }
        let target = random.pick(identifiers)
        let replacement = Array(random.pick(Self.names).utf8)
        var result: [UInt8] = []
        var copied = 0
        for token in identifiers where token.text == target.text && token.isEscaped == target.isEscaped {
            result += bytes[copied..<token.location.offset]
            result += replacement
            copied = token.endOffset
        }
        result += bytes[copied...]
        bytes = result
    }

    private static func tokenRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        tokens(bytes).compactMap { $0.location.offset < $0.endOffset ? $0.location.offset..<$0.endOffset : nil }
    }

    private static func tokens(_ bytes: [UInt8]) -> [Token] {
        var lexer = Lexer(bytes: bytes, startingAt: 0)
        var tokens: [Token] = []
        while true {
            let token = lexer.next()
            if token.kind == .end { break }
            tokens.append(token)
        }
        return tokens
    }

    private func insert(_ fragment: [UInt8], into bytes: inout [UInt8], _ random: inout SplitMix64) {
        bytes.insert(contentsOf: fragment, at: random.below(bytes.count + 1))
    }

    private func hugeIdentifier(_ random: inout SplitMix64) -> [UInt8] {
        let length = random.logUniform(200...100_000)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789".utf8)
        let letter = letters[random.below(52)]
        // Mostly one letter repeated (so two huge names are near misses of each other), sometimes varied.
        if random.chance(50) { return [letter] + Array(repeating: letter, count: length - 1) }
        return [letter] + (1..<length).map { _ in letters[random.below(letters.count)] }
    }

    private func deepNesting(_ random: inout SplitMix64) -> [UInt8] {
        let depth = random.logUniform(10...50_000)
        let (open, close): (String, String) = random.pick([("{", "}"), ("(", ")"), ("[", "]"), ("{(", ")}"), ("/*", "*/")])
        var text = String(repeating: open, count: depth)
        if random.chance(50) { text += "x" + String(repeating: close, count: random.chance(70) ? depth : random.below(depth + 1)) }
        return Array(text.utf8)
    }

    private func nestedInterpolations(_ random: inout SplitMix64) -> [UInt8] {
        let depth = random.logUniform(2...400)
        let open = random.pick(["\"\\(", "\"\"\"\n\\(", "#\"\\#(", "\"\\(\n"])
        let close = open.hasPrefix("#") ? ")\"#" : open.hasPrefix("\"\"\"") ? ")\n\"\"\"" : ")\""
        var text = String(repeating: open, count: depth) + "x"
        if random.chance(60) { text += String(repeating: close, count: random.chance(70) ? depth : random.below(depth + 1)) }
        return Array(text.utf8)
    }

    /// A prefix of this input followed by a suffix of another seed.
    private func splice(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let donor = random.pick(seeds)
        let cut = random.below(bytes.count + 1)
        let donorCut = random.below(donor.count + 1)
        bytes = Array(bytes[..<cut]) + Array(donor[donorCut...])
    }

    /// Overwrites a few bytes with random ones (invalid UTF-8 is repaired when the bytes are
    /// decoded, as reading a spec file would refuse it).
    private func flipBytes(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        for _ in 0..<random.logUniform(1...8) {
            bytes[random.below(bytes.count)] = random.chance(70) ? UInt8(32 + random.below(95)) : UInt8(random.below(256))
        }
    }

    /// Repeats a stretch of the input many times: many members, many errors, long lines.
    private func repeatChunk(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        let start = random.below(bytes.count)
        let length = min(bytes.count - start, random.logUniform(1...400))
        let chunk = bytes[start..<(start + length)]
        let times = random.logUniform(2...2_000)
        var repeated: [UInt8] = []
        repeated.reserveCapacity(chunk.count * times)
        for _ in 0..<times { repeated += chunk }
        bytes.replaceSubrange(start..<(start + length), with: repeated)
    }
}

extension UInt8 {
    fileprivate static let newlineByte = UInt8(ascii: "\n")
}

/// The invariants every run of the generator keeps, whatever the input.
enum FuzzInvariants {
    /// What is wrong with `output`, the generator's result for `source` at `path`; empty when
    /// nothing is.
    static func violations(source: String, path: String, output: Generator.Output) -> [String] {
        var problems: [String] = []
        let lineStarts = Self.lineStarts(source)
        let lineCount = lineStarts.count
        let utf8Count = source.utf8.count

        if output.hasErrors {
            if output.swift != nil { problems.append("Swift was generated although there are errors") }
        } else if let swift = output.swift {
            problems += swiftViolations(swift, specLineCount: lineCount)
        } else {
            problems.append("no Swift and no error diagnostic")
        }

        var previous: Diagnostic?
        for diagnostic in output.diagnostics {
            let location = diagnostic.location
            let where_ = "diagnostic \(diagnostic.location) '\(diagnostic.message.prefix(120))'"
            if diagnostic.path != path { problems.append("\(where_): path is '\(diagnostic.path)'") }
            if diagnostic.message.isEmpty { problems.append("\(where_): empty message") }
            if diagnostic.message.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                problems.append("\(where_): message spans lines")
            }
            guard (1...(lineCount + 1)).contains(location.line) else {
                problems.append("\(where_): line \(location.line) outside 1...\(lineCount + 1)")
                continue
            }
            let lineLength = location.line <= lineCount ? Self.length(ofLine: location.line, lineStarts: lineStarts, utf8Count: utf8Count) : 0
            if !(1...(lineLength + 1)).contains(location.column) {
                problems.append("\(where_): column \(location.column) outside 1...\(lineLength + 1) of line \(location.line)")
            }
            if location.line <= lineCount, location.offset != lineStarts[location.line - 1] + location.column - 1 {
                problems.append("\(where_): offset \(location.offset) does not match line and column")
            }
            if let previous, previous.location.offset > location.offset {
                problems.append("\(where_): diagnostics are not in source order")
            }
            previous = diagnostic
        }
        return problems
    }

    /// Checks on generated Swift: it imports the runtime, its `#sourceLocation` directives pair
    /// up and point at lines of the spec.
    private static func swiftViolations(_ swift: String, specLineCount: Int) -> [String] {
        var problems: [String] = []
        if !swift.contains("import ComputedRuntime\n") { problems.append("the generated Swift does not import ComputedRuntime") }
        var open = false
        for line in swift.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.drop { $0 == " " || $0 == "\t" }
            guard isSourceLocationDirective(code) else { continue }
            if code.count != line.count {
                problems.append("a '#sourceLocation' directive that the generator did not write: '\(line.prefix(60))'")
            } else if code.dropFirst("#sourceLocation".count).drop(while: { $0 == " " }).hasPrefix("()") {
                if !open { problems.append("'#sourceLocation()' without an opening directive") }
                open = false
            } else {
                if open { problems.append("nested '#sourceLocation(file:…)'") }
                open = true
                let number = line.split(separator: " ").last.flatMap { Int($0.dropLast()) } ?? -1
                if !(1...max(1, specLineCount)).contains(number) {
                    problems.append("'\(line.suffix(40))' points outside the spec's \(specLineCount) lines")
                }
            }
        }
        if open { problems.append("a '#sourceLocation(file:…)' is never closed") }
        return problems
    }

    /// Whether `line` holds a `#sourceLocation` directive (not, say, `#sourceLocationX`).
    private static func isSourceLocationDirective(_ code: Substring) -> Bool {
        guard code.hasPrefix("#sourceLocation") else { return false }
        guard let next = code.dropFirst("#sourceLocation".count).unicodeScalars.first else { return true }
        return !(next.properties.isAlphabetic || next == "_" || ("0"..."9").contains(next) || next.value >= 0x80)
    }

    /// The UTF-8 offsets where the lines of `source` start, as the lexer counts lines (at `\n`).
    static func lineStarts(_ source: String) -> [Int] {
        var starts = [0]
        var offset = 0
        for byte in source.utf8 {
            offset += 1
            if byte == UInt8(ascii: "\n") { starts.append(offset) }
        }
        return starts
    }

    private static func length(ofLine line: Int, lineStarts: [Int], utf8Count: Int) -> Int {
        let end = line < lineStarts.count ? lineStarts[line] - 1 : utf8Count
        return end - lineStarts[line - 1]
    }
}

/// Fails a fuzz run whose input takes too long: a thread that watches the input being run.
///
/// An input running longer than `limit` is saved to a file and reported when it finishes (the
/// test records an issue); one still running after `hardLimit` would never let the test end, so
/// the watchdog then prints where the input is and exits the test process with a failure.
final class FuzzWatchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (number: Int, bytes: [UInt8], start: ContinuousClock.Instant)?
    private var overran: Set<Int> = []
    private var savedPaths: [Int: String] = [:]
    private var isStopped = false
    let limit: Duration
    let hardLimit: Duration

    init(limitSeconds: Double) {
        limit = .milliseconds(Int(limitSeconds * 1_000))
        hardLimit = .milliseconds(Int(max(limitSeconds * 12, 60) * 1_000))
        let thread = Thread { [weak self] in
            while let self, self.check() {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        stop()
    }

    func stop() {
        lock.withLock { isStopped = true }
    }

    func begin(_ number: Int, _ bytes: [UInt8]) {
        lock.withLock { current = (number, bytes, .now) }
    }

    /// Ends the current input; returns the path of its saved copy when it overran.
    func end() -> String? {
        lock.withLock {
            defer { current = nil }
            guard let number = current?.number, overran.contains(number) else { return nil }
            return savedPaths[number]
        }
    }

    /// One look at the running input; `false` once stopped.
    private func check() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return false }
        guard let current else { return true }
        let elapsed = ContinuousClock.now - current.start
        if elapsed > limit, !overran.contains(current.number) {
            overran.insert(current.number)
            let path = Self.save(current.bytes, name: "computedgen-fuzz-slow-\(current.number).statespec")
            savedPaths[current.number] = path
            FileHandle.standardError.write(Data("fuzz: input \(current.number) has run for over \(limit); saved to \(path)\n".utf8))
        }
        if elapsed > hardLimit {
            FileHandle.standardError.write(Data("fuzz: input \(current.number) hangs (over \(hardLimit)); it is saved at \(savedPaths[current.number] ?? "?"). Failing the run.\n".utf8))
            exit(EXIT_FAILURE)
        }
        return true
    }

    /// Writes `bytes` to `name` in the temporary directory; returns the path.
    static func save(_ bytes: [UInt8], name: String) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try? Data(bytes).write(to: url)
        return url.path
    }
}
