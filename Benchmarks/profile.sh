#!/usr/bin/env bash
# Counts instructions per operation with callgrind for the scenarios of Profile/main.swift, each
# next to its baseline. Instruction counts are reproducible (same binary, same input), whatever
# else the machine is doing, unlike wall-clock times.
#
# Usage: Benchmarks/profile.sh [OPERATIONS [SCENARIO...]]   (default 100,000 per scenario, all)
# Needs valgrind. Builds the benchmark package in release first (for the generated files and the
# ComputedRuntime objects), then links Profile/main.swift with swiftc and strips the debug info
# (valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 emits).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OPERATIONS="${1:-100000}"
shift || true
cd "$HERE"
command -v valgrind > /dev/null || { echo "error: valgrind not installed (apt-get install valgrind)" >&2; exit 1; }
# Quiet unless it fails (SwiftPM prints its errors on standard output).
mkdir -p .build
if ! swift build -c release --product ComputedGenBenchmarks > .build/profile-build.log 2>&1; then
  cat .build/profile-build.log >&2
  echo "error: the release build failed (log above)" >&2
  exit 1
fi
BIN="$(swift build -c release --show-bin-path)"
GENERATED="$(find .build/plugins/outputs -path '*ComputedGenBenchmarks*/ComputedGen/Generated' -type d | head -1)"
WORK="$HERE/.build/profile"
mkdir -p "$WORK"
# No function merging: it folds the specialized `profiledRun`s of similar scenarios into one
# function of another name, which callgrind's --toggle-collect then never sees.
swiftc -O -wmo -gnone -module-name ComputedGenProfile -Xfrontend -disable-llvm-merge-functions-pass \
  -I "$BIN/Modules" -Xcc -fmodule-map-file="$BIN/CComputedAtomics.build/module.modulemap" \
  -Xcc -I"$(cd .. && pwd)/Sources/CComputedAtomics/include" \
  Profile/main.swift Benchmarks/ComputedGenBenchmarks/Baselines.swift "$GENERATED"/*.swift \
  "$BIN"/ComputedRuntime.build/*.o "$BIN"/CComputedAtomics.build/*.o "$BIN"/BenchModel.build/*.o \
  -o "$WORK/ComputedGenProfile"
objcopy --strip-debug "$WORK/ComputedGenProfile"  # the runtime's objects carry DWARF 5

printf '%-30s %14s %14s\n' scenario "instructions" "per operation"
SCENARIOS=("$@")
if [[ ${#SCENARIOS[@]} -eq 0 ]]; then
  SCENARIOS=(read-cached read-stored write-input write-plain unrelated-write-read plain-unrelated-write-read
    selector-hit recombine-hit equal-generated equal-synthesized store-commit
    commit-no-listener commit-observed-other across-commit-no-listener across-commit-plain-state
    across-generated-write across-nslock-commit across-commit-observed-other)
fi
for scenario in "${SCENARIOS[@]}"; do
  out="$WORK/callgrind.$scenario.out"
  # Deterministic hashing: otherwise a dictionary's probe sequence, and so the instruction count
  # of a path that looks members up by name (a commit with observers), varies by ~5% per process.
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no --toggle-collect='*profiledRun*' \
    "$WORK/ComputedGenProfile" "$scenario" "$OPERATIONS" > /dev/null 2> "$WORK/valgrind.$scenario.log"
  total="$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')"
  awk -v s="$scenario" -v t="$total" -v n="$OPERATIONS" 'BEGIN { printf "%-30s %14.0f %14.1f\n", s, t, t / n }'
done
echo "per-function detail: callgrind_annotate $WORK/callgrind.SCENARIO.out"
