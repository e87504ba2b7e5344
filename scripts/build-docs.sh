#!/usr/bin/env bash
# Builds the documentation of ComputedRuntime (the doc comments of Sources/Runtime plus the
# catalog Sources/Runtime/ComputedRuntime.docc) with the toolchain's `docc`, treating every
# warning as an error, so a broken symbol link, an undocumented parameter or a bad article fails
# CI. No swift-docc-plugin: the root package keeps zero dependencies, so the symbol graph comes
# from `swift build -emit-symbol-graph` in its own scratch path (its flags would otherwise
# invalidate the normal build) and goes to `docc convert`.
#
#   scripts/build-docs.sh [output.doccarchive]     default: .build-docs/ComputedRuntime.doccarchive
#
# Every run gives the same result, whatever the scratch path holds (issue 38;
# scripts/check-docs-twice.sh, which CI runs, checks it). The compiler writes the symbol graphs
# only when it emits the module, and an incremental build with nothing to compile emits nothing, so
# the graphs of this run must not depend on what the previous run compiled:
# - they go to a fresh folder (no graph of an extension that no longer exists is left behind), and
# - the script removes the built ComputedRuntime.swiftmodule first, so the build always reruns
#   the emit-module step (about 2 s), which writes every graph of the module, and only that step:
#   the object files stay, the rest of the build stays incremental.
# (Keeping the graphs of the last compile instead would need a rule for stale extension graphs and
# would break for good once the folder is lost while the build is up to date, as issue 38 did.)
#
# Preview while writing (CONTRIBUTING.md, "Previewing the documentation"): run this script once,
# then `docc preview Sources/Runtime/ComputedRuntime.docc --additional-symbol-graph-dir
# .build-docs/symbol-graphs`. On macOS, `DOCC="xcrun docc"`.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docs
symbols="$PWD/$scratch/symbol-graphs"
output="${1:-$scratch/ComputedRuntime.doccarchive}"
docc=${DOCC:-$(command -v docc || echo "xcrun docc")}

rm -rf "$symbols" "$output"
mkdir -p "$symbols"
# The module file wherever this toolchain's SwiftPM puts it (`<bin>/Modules/` since Swift 6,
# `<bin>/` before); none on the first run.
if [[ -d "$scratch" ]]; then
  find "$scratch" -name ComputedRuntime.swiftmodule -path '*/debug/*' -prune -exec rm -rf {} +
fi
swift build --scratch-path "$scratch" --target ComputedRuntime \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbols"
# Only the runtime's graphs (the module and its extensions of Swift's and Foundation's types).
find "$symbols" -name '*.symbols.json' ! -name 'ComputedRuntime.symbols.json' ! -name 'ComputedRuntime@*.symbols.json' -delete
if [[ ! -s "$symbols/ComputedRuntime.symbols.json" ]]; then
  echo "build-docs.sh: the build wrote no symbol graph for ComputedRuntime into $symbols" >&2
  exit 1
fi

$docc convert Sources/Runtime/ComputedRuntime.docc \
  --additional-symbol-graph-dir "$symbols" \
  --output-dir "$output" \
  --fallback-display-name ComputedRuntime \
  --fallback-bundle-identifier org.computedgen.ComputedRuntime \
  --warnings-as-errors
echo "Documentation: $output"
