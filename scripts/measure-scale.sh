#!/usr/bin/env bash
# Times `ComputedGenTool generate` (release build) on inputs that grow ten times at each step, and
# reports wall time, user time and peak memory (max RSS, from /usr/bin/time), so that linear
# growth (about x10 per step) and bounded memory can be checked by eye. The unit tests check the
# same shapes at small sizes with machine-independent measures (ScaleInputTests); this script
# measures them large.
#
# Shapes (each at sizes x1, x10, and x100 when FULL=1):
#   states  many states of 20 fields, 20 computeds and 5 selectors: 0.05 MB, 0.5 MB, 5 MB
#   wide    one state with F fields and F computeds: F = 1,000, 10,000 (0.06 MB, 0.7 MB)
#   body    one computed whose body has L lines: L = 1,000, 10,000, 100,000 (5 MB)
#   chain   computed on computed, D deep: D = 100, 1,000, 10,000
#   strings unterminated '"\(' on L lines (the lexer's worst case once): 1,000 .. 100,000
#
# Usage: scripts/measure-scale.sh [shape...]        (default: every shape)
# Environment: SCRATCH (default .build-scale), SKIP_BUILD=1 to reuse a build, FULL=1 for the
# largest size of each shape (minutes, not seconds, for 'wide').
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="${SCRATCH:-$ROOT/.build-scale}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/computedgen-scale.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
if (( $# )); then SHAPES=("$@"); else SHAPES=(states wide body chain strings); fi

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  (cd "$ROOT" && swift build -c release --product ComputedGenTool --scratch-path "$SCRATCH" 2>&1 | tail -1)
fi
TOOL="$SCRATCH/release/ComputedGenTool"
[[ -x "$TOOL" ]] || { echo "error: $TOOL not found; build first" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "error: /usr/bin/time is needed for peak memory" >&2; exit 1; }

states_spec() {  # $1 states
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
out = ["import Foundation"]
for s in range(n):
    out.append(f"\n/// State {s}.\npublic state S{s}: Equatable, Codable {{")
    out += [f"  var f{i}: Int = {i}" for i in range(20)]
    for i in range(20):
        other = f" + c{i - 1}" if i else ""
        out.append(f"  computed c{i}: Int {{ f{i} * 2 + f{(i * 7) % 20}{other} }}")
    out += [f"  selector s{i}(_ x: Int) -> Int {{ c{i * 4} + x }}" for i in range(5)]
    out.append("}")
print("\n".join(out))
PY
}

wide_spec() {  # $1 fields (and as many computeds)
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
out = ["public state Wide: Equatable {"]
out += [f"  var f{i}: Int = {i}" for i in range(n)]
for i in range(n):
    extra = f" + c{i // 2}" if i % 4 == 3 else ""
    out.append(f"  computed c{i}: Int {{ f{i} + f{(i * 7 + 3) % n}{extra} }}")
out.append("}")
print("\n".join(out))
PY
}

body_spec() {  # $1 lines
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
out = ["state Long {", "  var items: [Int] = []", "  computed total: Int {", "    var sum = 0"]
out += [f"    sum += items.count * {i}  // line {i}" for i in range(n)]
out += ["    return sum", "  }", "}"]
print("\n".join(out))
PY
}

chain_spec() {  # $1 depth
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
out = ["state Chain {", "  var seed: Int = 0", "  computed c0: Int { seed + 1 }"]
out += [f"  computed c{i}: Int {{ c{i - 1} + 1 }}" for i in range(1, n)]
out.append("}")
print("\n".join(out))
PY
}

strings_spec() {  # $1 lines
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
print("state Lines {\n  var name: String = \"\"\n  computed text: String {\n" + '    "\\(\n' * n + "  }\n}")
PY
}

measure() {  # $1 shape, $2 size
  local spec="$WORK/$1-$2.statespec" output="$WORK/$1-$2.swift" stats="$WORK/time.txt" status=0
  "$1_spec" "$2" > "$spec"
  rm -f "$output"
  /usr/bin/time -f '%e %U %M' -o "$stats" "$TOOL" generate "$spec" --output "$output" 2> "$WORK/stderr.txt" || status=$?
  read -r wall user rss < <(tail -n 1 "$stats")
  local out_bytes=0
  [[ -f "$output" ]] && out_bytes=$(wc -c < "$output")
  printf '%-8s %9s %11s %11s %8s s %8s s %9s MB %s\n' "$1" "$2" "$(wc -c < "$spec")" "$out_bytes" "$wall" "$user" \
    "$(awk "BEGIN { printf \"%.1f\", $rss / 1024 }")" "$([[ $status == 0 ]] && echo ok || echo "exit $status, $(wc -l < "$WORK/stderr.txt") diagnostics")"
}

printf '%-8s %9s %11s %11s %10s %10s %12s %s\n' shape size "spec bytes" "out bytes" wall user "peak RSS" result
for shape in "${SHAPES[@]}"; do
  case "$shape" in
    states) sizes=(34 340) ; [[ "${FULL:-0}" == 1 ]] && sizes+=(3400) ;;
    wide) sizes=(1000 10000) ; [[ "${FULL:-0}" == 1 ]] && sizes+=(100000) ;;
    body) sizes=(1000 10000) ; [[ "${FULL:-0}" == 1 ]] && sizes+=(100000) ;;
    chain) sizes=(100 1000) ; [[ "${FULL:-0}" == 1 ]] && sizes+=(10000) ;;
    strings) sizes=(1000 10000) ; [[ "${FULL:-0}" == 1 ]] && sizes+=(100000) ;;
    *) echo "error: unknown shape '$shape'" >&2; exit 2 ;;
  esac
  for size in "${sizes[@]}"; do measure "$shape" "$size"; done
done
