#!/usr/bin/env bash
# What the user's build pays for generated code: compiles the code generated for a state of N Int
# fields and N computed Ints (each computed reads two fields, or the previous computed and a
# field) with `swiftc -c`, beside the hand-written struct of the same shape (N stored properties,
# N computed properties), at -Onone and -O, against the release-built runtime. Prints, per N:
# generated lines (and per member), compile time (median of RUNS), peak memory, machine code
# (.text bytes at -O) and the ratios generated / hand-written, all measured in the same run.
#
# Usage: scripts/measure-compile.sh [N...]           (default: 10 30 100 300 1000)
# Environment: RUNS (default 3; 1 for N >= 300), SCRATCH (default .build-rel), SKIP_BUILD=1 to
# reuse a release build, KEEP=dir to keep the generated and hand-written sources there.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="${SCRATCH:-$ROOT/.build-rel}"
WORK="${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/computedgen-compile.XXXXXX")}"
mkdir -p "$WORK"
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$WORK"' EXIT
if (( $# )); then SIZES=("$@"); else SIZES=(10 30 100 300 1000); fi

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  (cd "$ROOT" && swift build -c release --product ComputedGenTool --scratch-path "$SCRATCH" 2>&1 | tail -1)
  (cd "$ROOT" && swift build -c release --target ComputedRuntime --scratch-path "$SCRATCH" 2>&1 | tail -1)
fi
TOOL="$SCRATCH/release/ComputedGenTool"
MODULES="$SCRATCH/release/Modules"
ATOMICS_MAP="$(find "$SCRATCH" -path '*release/CComputedAtomics.build/module.modulemap' | head -1)"
[[ -x "$TOOL" && -d "$MODULES" ]] || { echo "error: no release build in $SCRATCH" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "error: /usr/bin/time is needed for peak memory" >&2; exit 1; }

# The shape, as a spec and as hand-written Swift.
write_sources() {  # $1 N, $2 directory
  python3 - "$1" "$2" <<'PY'
import sys
n, out = int(sys.argv[1]), sys.argv[2]
def body(i, prefix):
    if i % 2 == 1:
        return f"{prefix}c{i - 1} + {prefix}f{i}"
    return f"{prefix}f{i} + {prefix}f{(i + 1) % n}"
spec = ["public state Wide {"]
spec += [f"  var f{i}: Int = {i}" for i in range(n)]
spec += [f"  computed c{i}: Int {{ {body(i, '')} }}" for i in range(n)]
spec.append("}")
open(f"{out}/Wide.statespec", "w").write("\n".join(spec) + "\n")
hand = ["public struct Wide {"]
hand += [f"    public var f{i}: Int = {i}" for i in range(n)]
hand += [f"    public var c{i}: Int {{ {body(i, '')} }}" for i in range(n)]
hand += ["    public init() {}", "}"]
open(f"{out}/Hand.swift", "w").write("\n".join(hand) + "\n")
PY
}

# Median seconds, peak MB of the slowest-memory run, for RUNS compiles; sets T, MEM.
compile() {  # $1 source, $2 optimization, $3 object
  local times=() mem=0 i
  for ((i = 0; i < RUNS_N; i++)); do
    /usr/bin/time -f '%e %M' -o "$WORK/time" \
      swiftc -c -parse-as-library -swift-version 6 "$2" -module-name Bench -I "$MODULES" \
        -Xcc -fmodule-map-file="$ATOMICS_MAP" -Xcc -I"$ROOT/Sources/CComputedAtomics/include" "$1" -o "$3" 2> "$WORK/err" \
      || { cat "$WORK/err" >&2; echo "error: compiling $1 failed" >&2; exit 1; }
    read -r t m < "$WORK/time"
    times+=("$t")
    (( m > mem )) && mem=$m
  done
  T=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  MEM=$((mem / 1024))
}

text_bytes() { size -A "$1" | awk '$1 ~ /^\.text/ {s += $2} END {print s}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }

printf '| N fields + N computeds | generated lines (per member) | -Onone gen / hand | -O gen / hand | peak MB -O gen / hand | .text -O gen / hand |\n'
printf '|---|---|---|---|---|---|\n'
for n in "${SIZES[@]}"; do
  dir="$WORK/n$n"; mkdir -p "$dir"
  write_sources "$n" "$dir"
  "$TOOL" generate "$dir/Wide.statespec" --output "$dir/Wide.swift" --display-name Wide.statespec
  lines=$(wc -l < "$dir/Wide.swift")
  RUNS_N="${RUNS:-$(( n >= 300 ? 1 : 3 ))}"
  compile "$dir/Wide.swift" -Onone "$dir/gen0.o"; g0=$T
  compile "$dir/Hand.swift" -Onone "$dir/hand0.o"; h0=$T
  compile "$dir/Wide.swift" -O "$dir/gen.o"; g=$T; gm=$MEM
  compile "$dir/Hand.swift" -O "$dir/hand.o"; h=$T; hm=$MEM
  gt=$(text_bytes "$dir/gen.o"); ht=$(text_bytes "$dir/hand.o")
  printf '| %s | %s (%s) | %ss / %ss (%sx) | %ss / %ss (%sx) | %s / %s | %s / %s (%sx) |\n' \
    "$n" "$lines" "$(ratio "$lines" $((2 * n)))" "$g0" "$h0" "$(ratio "$g0" "$h0")" \
    "$g" "$h" "$(ratio "$g" "$h")" "$gm" "$hm" "$gt" "$ht" "$(ratio "$gt" "$ht")"
done
