#!/usr/bin/env bash
# Checks the TextMate grammar of .statespec files (Editors/statespec.tmLanguage.json) with a real
# TextMate engine: its regular expressions compiled by Oniguruma, a sample spec and every spec of
# the repository tokenized (scripts/check-grammar.py says what is asserted). The engine,
# textmate-grammar-python (with onigurumacffi), is installed from PyPI into .build-grammar/ on the
# first run; later runs take about a second.
#
#   scripts/check-grammar.sh
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build-grammar
if ! "$venv/bin/python" -c 'import textmate_grammar, onigurumacffi' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check textmate-grammar-python==0.6.1 onigurumacffi==1.5.0
fi
"$venv/bin/python" scripts/check-grammar.py
