#!/usr/bin/env bash
# Runs ComputedGen's benchmarks in release, prints ONE table of ratios (ours / baseline, medians,
# with the absolute medians) and writes it into Docs/Performance.md (between its results markers).
#
# Usage: Benchmarks/run.sh [extra `swift package benchmark` options, e.g. --filter "^1 .*"]
# Environment: NO_DOCS=1 prints the table without touching Docs/Performance.md. RUNS=N (default 1)
# runs the benchmarks in N processes one after another and reports, per row, the median of the N
# processes' medians and ratios, with the ratios' range: a measure whose time depends on where
# its memory lands (the rows with caches disturbed) varies more between processes than within one.
# A filtered run updates the rows of the measures it ran and keeps the others' rows from the table
# already in Docs/Performance.md (saying which), so it never wipes them.
#
# Every measure runs next to its baselines in the same run, so ratios are comparable even on a
# loaded machine; absolute numbers are not. For reproducible instruction counts use callgrind
# (see Docs/Performance.md).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
OUT="$HERE/.benchmark-out"
rm -rf "$OUT"
mkdir -p "$OUT"

cd "$HERE"
# Measure 6 runs the release generator as a subprocess. `swift package benchmark` builds the
# plugin's copy of it in debug, so build the release one here and point the benchmark at it.
echo "building ComputedGenTool in release..."
swift build -c release --product ComputedGenTool > "$OUT/build-tool.log" 2>&1 || { tail -20 "$OUT/build-tool.log" >&2; exit 1; }
export COMPUTEDGEN_TOOL
COMPUTEDGEN_TOOL="$(swift build -c release --show-bin-path)/ComputedGenTool"

RUNS="${RUNS:-1}"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "error: RUNS must be a positive integer, not '$RUNS'" >&2; exit 1; }
JMH=()
for ((run = 1; run <= RUNS; run++)); do
  DIR="$OUT"
  (( RUNS > 1 )) && DIR="$OUT/run-$run" && mkdir -p "$DIR"
  echo "building and running the benchmarks in release (process $run of $RUNS; log: $DIR/benchmark.log)..."
  if ! swift package --allow-writing-to-package-directory benchmark \
      --format jmh --path "$DIR" --no-progress "$@" > "$DIR/benchmark.log" 2>&1; then
    tail -40 "$DIR/benchmark.log" >&2
    echo "error: the benchmarks failed; see $DIR/benchmark.log" >&2
    exit 1
  fi
  FILE="$(ls "$DIR"/*.jmh.json 2> /dev/null | head -1 || true)"
  [[ -n "$FILE" ]] || { echo "error: no JMH export in $DIR" >&2; exit 1; }
  JMH+=("$FILE")
done

# The command as one would type it again: arguments with spaces or patterns in double quotes.
COMMAND="Benchmarks/run.sh"
for argument in "$@"; do
  if [[ "$argument" =~ ^[A-Za-z0-9_./=-]+$ ]]; then COMMAND+=" $argument"; else COMMAND+=" \"$argument\""; fi
done
(( RUNS > 1 )) && COMMAND="RUNS=$RUNS $COMMAND"
if [[ "${NO_DOCS:-0}" == 1 ]]; then
  python3 "$HERE/report.py" "${JMH[@]}" --command "$COMMAND"
else
  python3 "$HERE/report.py" "${JMH[@]}" --command "$COMMAND" --markdown "$ROOT/Docs/Performance.md"
fi
