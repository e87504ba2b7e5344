#!/usr/bin/env bash
# Coverage-guided fuzzing of the generator with libFuzzer (-sanitize=fuzzer) and AddressSanitizer,
# by hand. The deterministic fuzzer in Tests/ComputedGenCoreTests/FuzzTests.swift runs in CI; this
# one learns from coverage and can run for hours. It compiles the generator's Core sources with a
# small entry point into one binary (no SwiftPM needed: -sanitize=fuzzer works with swiftc on Linux;
# the ld.gold "Cannot export local symbol '__asan_…'" warnings are harmless).
#
# The entry point checks that errors and generated Swift exclude each other; crashes, ASan reports
# and inputs slower than TIMEOUT seconds are failures. libFuzzer writes a failing input to
# crash-*/timeout-* in WORK; replay it with `$WORK/fuzzer <file>`. A crash becomes a regression
# input in Fixtures/Invalid/Fuzz (see FuzzTests).
#
# Usage: scripts/libfuzzer.sh [seconds]     (default 600)
# Environment: WORK (default .build-libfuzzer: the binary and the growing corpus), TIMEOUT (5),
# JOBS (1; libFuzzer's -jobs/-workers).
set -euo pipefail

SECONDS_TO_RUN="${1:-600}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${WORK:-$ROOT/.build-libfuzzer}"
TIMEOUT="${TIMEOUT:-5}"
JOBS="${JOBS:-1}"
mkdir -p "$WORK/corpus"

cat > "$WORK/Entry.swift" <<'SWIFT'
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let output = Generator.generate(source: source, path: "fuzz.statespec")
    precondition(output.hasErrors == (output.swift == nil), "errors and generated Swift must exclude each other")
    return 0
}
SWIFT

SOURCES=()
while IFS= read -r -d '' file; do SOURCES+=("$file"); done < <(find "$ROOT/Sources/ComputedGenTool/Core" -name '*.swift' -print0 | sort -z)
echo "building $WORK/fuzzer from ${#SOURCES[@]} Core sources"
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name ComputedGenCore \
  "${SOURCES[@]}" "$WORK/Entry.swift" -o "$WORK/fuzzer" 2>&1 | grep -v "Cannot export local symbol '__asan" || true

# Seeds: the valid specs and the bad-spec corpus (the corpus folder keeps what libFuzzer learns).
cp "$ROOT"/Fixtures/Specs/*.statespec "$ROOT"/Fixtures/Invalid/*.statespec "$WORK/corpus/"
cd "$WORK"
PARALLEL=()
if (( JOBS > 1 )); then PARALLEL=(-jobs="$JOBS" -workers="$JOBS"); fi
exec ./fuzzer corpus -max_total_time="$SECONDS_TO_RUN" -timeout="$TIMEOUT" -max_len=65536 \
  -print_final_stats=1 "${PARALLEL[@]}"
