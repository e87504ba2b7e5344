#!/usr/bin/env bash
# Checks that a release is documented: CHANGELOG.md has a `## [X.Y.Z] - YYYY-MM-DD` heading for
# the version, and README.md's package snippet says `from: "X.Y.Z"`.
#
# The version is the one ComputedGenTool reports, read from Sources/ComputedGenTool/Core/Version.swift
# (the quoted string after `static let string = `), unless given as the argument.
#
# Usage: scripts/check-changelog.sh [X.Y.Z]
# Environment: VERSION_FILE overrides the path of Version.swift.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION_FILE="${VERSION_FILE:-$ROOT/Sources/ComputedGenTool/Core/Version.swift}"
CHANGELOG="$ROOT/CHANGELOG.md"
README="$ROOT/README.md"

fail() { echo "error: $*" >&2; exit 1; }

if (( $# > 1 )); then
  fail "usage: scripts/check-changelog.sh [X.Y.Z]"
elif (( $# == 1 )); then
  VERSION="$1"
  SOURCE="the argument"
else
  [[ -f "$VERSION_FILE" ]] || fail "no version file at $VERSION_FILE (give the version as an argument, or set VERSION_FILE)"
  VERSION="$(sed -n -E 's/^[[:space:]]*(public[[:space:]]+)?static let string = "([^"]*)".*/\2/p' "$VERSION_FILE" | head -1)"
  [[ -n "$VERSION" ]] || fail "$VERSION_FILE has no line 'static let string = \"X.Y.Z\"'"
  SOURCE="$VERSION_FILE"
fi
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "version '$VERSION' (from $SOURCE) is not of the form X.Y.Z"

[[ -f "$CHANGELOG" ]] || fail "$CHANGELOG is missing"
[[ -f "$README" ]] || fail "$README is missing"

# The version's dots are literal in the patterns below.
ESCAPED="${VERSION//./\\.}"
status=0
if ! grep -Eq "^## \[$ESCAPED\] - [0-9]{4}-[0-9]{2}-[0-9]{2}[[:space:]]*$" "$CHANGELOG"; then
  echo "error: CHANGELOG.md has no heading '## [$VERSION] - YYYY-MM-DD' for version $VERSION (from $SOURCE)" >&2
  status=1
fi
if ! grep -Eq "from: \"$ESCAPED\"" "$README"; then
  echo "error: README.md does not say 'from: \"$VERSION\"' for version $VERSION (from $SOURCE)" >&2
  status=1
fi
(( status == 0 )) || exit "$status"
echo "CHANGELOG.md and README.md document version $VERSION"
