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
# Preview the archive with `docc preview Sources/Runtime/ComputedRuntime.docc
# --additional-symbol-graph-dir .build-docs/symbol-graphs`. On macOS, `DOCC="xcrun docc"`.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docs
symbols="$PWD/$scratch/symbol-graphs"
output="${1:-$scratch/ComputedRuntime.doccarchive}"
docc=${DOCC:-$(command -v docc || echo "xcrun docc")}

rm -rf "$symbols" "$output"
mkdir -p "$symbols"
swift build --scratch-path "$scratch" --target ComputedRuntime \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbols"
# Only the runtime's graphs (the module and its extensions of Swift's and Foundation's types).
find "$symbols" -name '*.symbols.json' ! -name 'ComputedRuntime.symbols.json' ! -name 'ComputedRuntime@*.symbols.json' -delete

$docc convert Sources/Runtime/ComputedRuntime.docc \
  --additional-symbol-graph-dir "$symbols" \
  --output-dir "$output" \
  --fallback-display-name ComputedRuntime \
  --fallback-bundle-identifier org.computedgen.ComputedRuntime \
  --warnings-as-errors
echo "Documentation: $output"
