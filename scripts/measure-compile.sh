#!/usr/bin/env bash
# What the user's build pays for generated code: compiles the code generated for a state of N Int
# fields and N computed Ints (each computed reads two fields, or the previous computed and a
# field) with `swiftc -c`, beside two baselines of the same shape: the `@Observable` class a
# SwiftUI developer would write (N stored properties, N computed properties that recompute on
# every read; `import Observation`) and the plain hand-written struct, at -Onone and -O, against
# the release-built runtime. The Swift form of the same spec (a plain struct `WideSpec`, compiled on
# its own as the specs target compiles it, plus the state generated from it) is measured beside
# them. Prints, per N: generated lines (and per member), compile time, peak
# memory, machine code (.text bytes at -O) and the ratios generated / @Observable and generated /
# hand-written, all measured in the same run. The three variants are compiled in turn, RUNS
# rounds, and each keeps its fastest compile: the first of several compiles in a row is often
# much slower here, so compiling one variant several times before the next would bias the ratios.
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
plain = ["import ComputedRuntime", "", "public struct WideSpec {"]
plain += [f"  var f{i}: Int = {i}" for i in range(n)]
plain += [f"  var c{i}: Int {{ {body(i, '')} }}" for i in range(n)]
plain.append("}")
open(f"{out}/Wide.state.swift", "w").write("\n".join(plain) + "\n")
open(f"{out}/Empty.swift", "w").write("import ComputedRuntime\n")
observed = ["import Observation", "", "@Observable", "public final class Wide {"]
observed += [f"    public var f{i}: Int = {i}" for i in range(n)]
observed += [f"    public var c{i}: Int {{ {body(i, '')} }}" for i in range(n)]
observed += ["    public init() {}", "}"]
open(f"{out}/Observed.swift", "w").write("\n".join(observed) + "\n")
PY
}

# One compile of $1 at $2 into $3; sets T (seconds) and M (peak KB).
compile_once() {
  /usr/bin/time -f '%e %M' -o "$WORK/time" \
    swiftc -c -parse-as-library -swift-version 6 "$2" -module-name Bench -I "$MODULES" \
      -Xcc -fmodule-map-file="$ATOMICS_MAP" -Xcc -I"$ROOT/Sources/CComputedAtomics/include" "$1" -o "$3" 2> "$WORK/err" \
    || { cat "$WORK/err" >&2; echo "error: compiling $1 failed" >&2; exit 1; }
  read -r T M < "$WORK/time"
}

# The generated file, the @Observable class and the hand-written struct in $1 at $2, in turn,
# RUNS_N rounds; sets BEST[variant] (fastest seconds) and MEM[variant] (largest peak, MB).
declare -A BEST MEM
# The Swift form is two compiles in the user's build: the plain type (`plain`, in the specs
# target) and the state generated from it (`twin`, in the target that applies the plugin). `empty`
# (a file that only imports ComputedRuntime) is what a compile of the specs target costs before
# its first spec: plain − empty is what one more spec adds to a target that has specs already.
declare -A SOURCE=([gen]=Wide.swift [obs]=Observed.swift [hand]=Hand.swift [plain]=Wide.state.swift [twin]=WideTwin.swift [empty]=Empty.swift)
VARIANTS=(gen obs hand plain twin empty)
compile_variants() {  # $1 directory, $2 optimization, $3 object suffix
  local variant round
  for variant in "${VARIANTS[@]}"; do BEST[$variant]=999999; MEM[$variant]=0; done
  for ((round = 0; round < RUNS_N; round++)); do
    for variant in "${VARIANTS[@]}"; do
      compile_once "$1/${SOURCE[$variant]}" "$2" "$1/$variant$3.o"
      BEST[$variant]=$(awk -v a="${BEST[$variant]}" -v b="$T" 'BEGIN { print (b < a ? b : a) }')
      (( M / 1024 > MEM[$variant] )) && MEM[$variant]=$(( M / 1024 ))
    done
  done
  return 0
}

text_bytes() { size -A "$1" | awk '$1 ~ /^\.text/ {s += $2} END {print s}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
ratio2() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a + b }'; }
difference() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a > b ? a - b : 0) }'; }
# One cell of the Swift form's table: plain + twin = total (ratios), and per spec once the specs
# target exists (plain − empty + twin). Uses BEST; $1 the .statespec form's time, $2 @Observable's.
swift_form_cell() {
  local total marginal
  total=$(sum "${BEST[plain]}" "${BEST[twin]}")
  marginal=$(sum "$(difference "${BEST[plain]}" "${BEST[empty]}")" "${BEST[twin]}")
  printf '%ss + %ss = %ss (%sx .statespec, %sx @Observable); per spec %ss (%sx, %sx)' \
    "${BEST[plain]}" "${BEST[twin]}" "$total" "$(ratio2 "$total" "$1")" "$(ratio2 "$total" "$2")" \
    "$marginal" "$(ratio2 "$marginal" "$1")" "$(ratio2 "$marginal" "$2")"
}

printf '| N fields + N computeds | generated lines (per member) | -Onone gen / @Observable / hand | -O gen / @Observable / hand | peak MB -O gen / @Observable / hand | .text -O gen / @Observable / hand |\n'
printf '|---|---|---|---|---|---|\n'
SWIFT_FORM_ROWS=()
for n in "${SIZES[@]}"; do
  dir="$WORK/n$n"; mkdir -p "$dir"
  write_sources "$n" "$dir"
  "$TOOL" generate "$dir/Wide.statespec" --output "$dir/Wide.swift" --display-name Wide.statespec
  "$TOOL" generate "$dir/Wide.state.swift" --output "$dir/WideTwin.swift" --display-name Wide.state.swift
  lines=$(wc -l < "$dir/Wide.swift")
  RUNS_N="${RUNS:-$(( n >= 300 ? 1 : 3 ))}"
  compile_variants "$dir" -Onone 0
  g0=${BEST[gen]}; o0=${BEST[obs]}; h0=${BEST[hand]}
  swift_onone=$(swift_form_cell "$g0" "$o0")
  compile_variants "$dir" -O ""
  g=${BEST[gen]}; o=${BEST[obs]}; h=${BEST[hand]}
  SWIFT_FORM_ROWS+=("| $n | $swift_onone | $(swift_form_cell "$g" "$o") |")
  gt=$(text_bytes "$dir/gen.o"); ot=$(text_bytes "$dir/obs.o"); ht=$(text_bytes "$dir/hand.o")
  printf '| %s | %s (%s) | %ss / %ss / %ss (%sx, %sx) | %ss / %ss / %ss (%sx, %sx) | %s / %s / %s | %s / %s / %s (%sx, %sx) |\n' \
    "$n" "$lines" "$(ratio "$lines" $((2 * n)))" \
    "$g0" "$o0" "$h0" "$(ratio "$g0" "$o0")" "$(ratio "$g0" "$h0")" \
    "$g" "$o" "$h" "$(ratio "$g" "$o")" "$(ratio "$g" "$h")" \
    "${MEM[gen]}" "${MEM[obs]}" "${MEM[hand]}" "$gt" "$ot" "$ht" "$(ratio "$gt" "$ot")" "$(ratio "$gt" "$ht")"
done
echo
echo 'The Swift form: the plain type (specs target) + the state generated from it, against the .statespec form and @Observable'
echo
printf '| N fields + N computeds | -Onone plain + twin = Swift form | -O plain + twin = Swift form |\n'
printf '|---|---|---|\n'
printf '%s\n' "${SWIFT_FORM_ROWS[@]}"
