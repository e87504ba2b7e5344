#!/usr/bin/env bash
# Runs scripts/build-docs.sh twice in a row and fails unless both runs succeed and build the same
# documentation (issue 38: the second run, which finds nothing to compile, used to lose the symbol
# graphs). .ci/run runs this instead of a single build-docs.sh; the second run is incremental (no
# compilation), so it costs the `docc convert` of the archive, a few seconds.
#
#   scripts/check-docs-twice.sh
set -euo pipefail
cd "$(dirname "$0")/.."

first="$(mktemp -d)"
trap 'rm -rf "$first"' EXIT

echo "check-docs-twice: first run"
scripts/build-docs.sh
cp -R .build-docs/ComputedRuntime.doccarchive "$first/"

echo "check-docs-twice: second run"
if ! scripts/build-docs.sh; then
  echo "check-docs-twice: the second run of scripts/build-docs.sh failed (the first succeeded)" >&2
  exit 1
fi
# The same documentation: the same pages (every article, symbol and extension of the first run's
# archive, and no other). Not the same bytes: docc writes some JSON members (a reference's
# conformance note, the search index) in an order that differs from run to run for the same input.
pages() { (cd "$1" && find data documentation -type f | LC_ALL=C sort); }
if ! diff <(pages "$first/ComputedRuntime.doccarchive") <(pages .build-docs/ComputedRuntime.doccarchive) >&2; then
  echo "check-docs-twice: the second run built other pages than the first (< first run, > second run)" >&2
  exit 1
fi
echo "check-docs-twice: both runs succeeded and built the same documentation"
