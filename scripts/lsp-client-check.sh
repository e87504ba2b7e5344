#!/usr/bin/env bash
# The language server (computedgen-lsp) driven by an independent LSP client: pytest-lsp, built on
# lsprotocol, whose types check every message against the LSP 3.17 schema, and whose spec checks
# compare results with the capabilities the client declared (Tests/LSPClientTests). Installs
# what it needs into .build-lsp-venv (from PyPI) on first use. About 10 s after `swift test`.
#
#   scripts/lsp-client-check.sh             the debug build, as `swift test` left it (the
#       diagnostics latency is reported, never asserted: CI's machine may be busy)
#   scripts/lsp-client-check.sh --release   a release build, held to the 50 ms latency target
#       (run it on a quiet machine)
#   scripts/lsp-client-check.sh --forwarding  also Swift inside bodies (diagnostics, completion,
#       hover, definition) forwarded to the toolchain's sourcekit-lsp, over Examples/TodoList built
#       in .build-lsp-consumer (the package is built, then prepared by sourcekit-lsp: about 20 s
#       more when built already); and a Swift-form spec (Examples/TodoListSwiftForm, copied to
#       .build-lsp-swift-form and never built) in sourcekit-lsp alone: completion and a diagnostic
#       in a body before any build (sourcekit-lsp prepares the package: a debug build's time)
#
# Other arguments go to pytest (e.g. -k hover, -s to see the latency figures).
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=debug
latency_limit=
if [[ "${1:-}" == "--release" ]]; then
  configuration=release
  latency_limit=0.05
  shift
fi
if [[ "${1:-}" == "--forwarding" ]]; then
  shift
  consumer="$PWD/.build-lsp-consumer"
  mkdir -p "$consumer"
  cp -R Examples/TodoList/Sources "$consumer/"
  sed "s#path: \"../..\"#path: \"$PWD\"#" Examples/TodoList/Package.swift > "$consumer/Package.swift"
  swift build --package-path "$consumer"
  export COMPUTEDGEN_LSP_FORWARDING_PACKAGE="$consumer"
  # A Swift-form spec in sourcekit-lsp alone, before any build (Tests/LSPClientTests/
  # test_swift_form.py): a new copy of Examples/TodoListSwiftForm every run, never built.
  swift_form="$PWD/.build-lsp-swift-form"
  rm -rf "$swift_form"
  mkdir -p "$swift_form"
  cp -R Examples/TodoListSwiftForm/Sources "$swift_form/"
  sed "s#path: \"../..\"#path: \"$PWD\"#" Examples/TodoListSwiftForm/Package.swift > "$swift_form/Package.swift"
  export COMPUTEDGEN_SWIFT_FORM_PACKAGE="$swift_form"
fi
venv=.build-lsp-venv
if ! "$venv/bin/python" -c "import pytest_lsp" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    pytest-lsp==1.0.1 pygls==2.1.1 lsprotocol==2025.0.0 pytest==9.2.0 pytest-asyncio==1.5.0
fi
swift build -c "$configuration" --product computedgen-lsp
swift build -c "$configuration" --product ComputedGenTool
bin="$(swift build -c "$configuration" --show-bin-path)"
COMPUTEDGEN_LSP="$bin/computedgen-lsp" COMPUTEDGEN_TOOL="$bin/ComputedGenTool" \
  COMPUTEDGEN_LSP_LATENCY_LIMIT="$latency_limit" \
  "$venv/bin/python" -m pytest Tests/LSPClientTests -q -p no:cacheprovider "$@"
