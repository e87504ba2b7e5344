#!/usr/bin/env bash
# Counts instructions per operation with callgrind for the cross-module scenarios of
# Profile/CrossModule/main.swift (the layout of measure 9: states and baselines in BenchModel,
# the measuring code in another module), each next to its baseline.
#
# Usage: Benchmarks/profile-cross-module.sh [OPERATIONS]   (default 10,000 per scenario)
# Needs valgrind. Builds the benchmark package in release first (for BenchModel's objects and
# module), then links Profile/CrossModule/main.swift against them with swiftc.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OPERATIONS="${1:-10000}"
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
WORK="$HERE/.build/profile-cross-module"
mkdir -p "$WORK"
swiftc -O -wmo -gnone -module-name CrossModuleProfile \
  -I "$BIN/Modules" -Xcc -fmodule-map-file="$BIN/CComputedAtomics.build/module.modulemap" \
  -Xcc -I"$(cd .. && pwd)/Sources/CComputedAtomics/include" \
  Profile/CrossModule/main.swift \
  "$BIN"/BenchModel.build/*.o "$BIN"/ComputedRuntime.build/*.o "$BIN"/CComputedAtomics.build/*.o \
  -o "$WORK/CrossModuleProfile"
objcopy --strip-debug "$WORK/CrossModuleProfile"  # the runtime's objects carry DWARF 5

printf '%-24s %14s\n' scenario "per operation"
for scenario in ${SCENARIOS:-cached-read cached-read-didset selector-hit memo-hit selector-hit-pair memo-hit-pair write-unrelated write-unrelated-plain \
    append-remove append-remove-plain commit-observed commit-subscribed \
    string-selector-hit string-memo-hit computed-selector-hit parameterized-hit shared-memo-hit copy-out copy-out-didset}; do
  out="$WORK/callgrind.$scenario.out"
  valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no --toggle-collect='*profiledRun*' \
    "$WORK/CrossModuleProfile" "$scenario" "$OPERATIONS" > /dev/null 2> "$WORK/valgrind.$scenario.log"
  total="$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')"
  awk -v s="$scenario" -v t="$total" -v n="$OPERATIONS" 'BEGIN { printf "%-24s %14.1f\n", s, t / n }'
done
echo "per-function detail: callgrind_annotate $WORK/callgrind.SCENARIO.out"
