#!/usr/bin/env python3
"""Checks Editors/statespec.tmLanguage.json, the TextMate grammar of .statespec files.

Run by scripts/check-grammar.sh (which installs the engine into .build-grammar/), from .ci/run.

1. The grammar is JSON with the scope name and file type editors look for, every "#name" it
   includes is in its repository, and every regular expression compiles with Oniguruma (the
   regex engine of TextMate, VS Code and Sublime Text), through onigurumacffi.
2. A TextMate engine (textmate-grammar-python, a port of VS Code's vscode-textmate) tokenizes
   Editors/Tests/Sample.statespec, and the tokens listed in EXPECTED below carry their scopes.
3. It tokenizes every spec of the repository (the fixtures, the example, the end-to-end tests):
   each state's keyword and each computed value's and selector's keyword is colored as such
   (so no earlier construct ran on and swallowed it), and each file ends outside every region.

The engine runs an included grammar's root patterns as a parser of its own, which does not stop
at the end of the region that includes it; so the grammar's "source.swift" includes are replaced
here by a small stand-in for Swift (strings with interpolations, comments, numbers, a few
keywords) kept in the grammar's repository, which is how vscode-textmate applies an included
grammar's patterns.
"""

import json
import logging
import pathlib
import re
import sys

import onigurumacffi
from textmate_grammar.parsers.base import LanguageParser

# The engine logs every stretch of text no pattern matches (most of the Swift, for the stand-in).
logging.getLogger("textmate_grammar").setLevel(logging.ERROR)

ROOT = pathlib.Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "Editors" / "statespec.tmLanguage.json"
SAMPLE = ROOT / "Editors" / "Tests" / "Sample.statespec"
SPEC_FOLDERS = ["Fixtures/Specs", "Examples", "Tests/PluginEndToEndTests", "Editors/Tests"]

# (1-based line of Sample.statespec, token text, a scope the token must have)
EXPECTED = [
    (2, "@preconcurrency ", "storage.modifier.attribute.statespec"),
    (2, "import", "keyword.control.import.statespec"),
    (2, "Dispatch", "entity.name.type.module.statespec"),
    (5, "/**", "comment.block.documentation.statespec"),
    (8, "///", "comment.line.triple-slash.documentation.statespec"),
    (9, "public", "storage.modifier.access.statespec"),
    (9, "state", "keyword.other.state.statespec"),
    (9, "TodoState", "entity.name.type.state.statespec"),
    (9, "Codable", "entity.other.inherited-class.statespec"),
    (9, "{", "punctuation.section.members.begin.statespec"),
    (10, "var", "keyword.other.var.statespec"),
    (10, "todos", "variable.other.field.statespec"),
    (10, "=", "keyword.operator.assignment.statespec"),
    (12, '"small"', "meta.embedded.line.swift"),  # a default value over several lines
    (14, "]", "punctuation.section.brackets.end.swift"),
    (15, ";", "punctuation.terminator.statement.statespec"),
    (15, "age", "variable.other.field.statespec"),
    (16, "Edge", "storage.modifier.attribute.statespec"),
    (16, " Avatar? ", "meta.embedded.line.swift"),
    (17, "Edge", "storage.modifier.attribute.statespec"),
    (17, "{", "meta.embedded.line.swift"),  # the attribute's argument is Swift
    (17, "badge", "variable.other.field.statespec"),  # after the argument's ')'
    (18, "Shared", "storage.modifier.attribute.statespec"),
    (18, '"settings.json"', "string.quoted.double.swift"),
    (18, "settings", "variable.other.field.statespec"),
    (20, "///", "comment.line.triple-slash.documentation.statespec"),
    (21, "computed", "keyword.other.computed.statespec"),
    (21, "visibleTodos", "entity.name.function.computed.statespec"),
    (21, "[", "meta.embedded.line.swift"),  # the type is Swift
    (21, "{", "punctuation.section.body.begin.statespec"),
    (22, '"}"', "string.quoted.double.swift"),  # a brace in a string does not end the body
    (22, "}", "meta.embedded.block.swift"),  # the closure's brace is the body's Swift
    (23, "}", "punctuation.section.body.end.statespec"),
    (24, "from", "keyword.other.from.statespec"),
    (24, "todos", "variable.other.input.statespec"),
    (25, "NoCutoff", "storage.modifier.attribute.statespec"),
    (25, "\\(doneCount)", "meta.embedded.line.swift"),  # an interpolation inside the body's string
    (27, "selector", "keyword.other.selector.statespec"),
    (27, "todos", "entity.name.function.selector.statespec"),
    (27, "ownedBy owner: Int", "meta.embedded.line.swift"),
    (27, "->", "keyword.operator.function-result.statespec"),
    (27, "cache", "keyword.other.cache.statespec"),
    (27, "32", "constant.numeric.integer.statespec"),
    (28, "}", "punctuation.section.members.end.statespec"),
    (30, "Empty", "entity.name.type.state.statespec"),
]

SWIFT_STAND_IN = {
    "patterns": [
        {"name": "comment.line.double-slash.swift", "match": r"//.*$"},
        {
            "name": "string.quoted.double.swift",
            "begin": '"',
            "end": '"',
            "patterns": [
                {"name": "constant.character.escape.swift", "match": r"\\[^(]"},
                {"name": "meta.embedded.line.swift", "begin": r"\\\(", "end": r"\)", "patterns": [{"include": "#swift-code"}]},
            ],
        },
        {"name": "keyword.other.swift", "match": r"\b(let|var|return|if|else|for|in|true|false|nil)\b"},
        {"name": "constant.numeric.swift", "match": r"\b[0-9][0-9_.]*\b"},
    ]
}

failures = []


def fail(message):
    failures.append(message)


def walk(node, visit):
    if isinstance(node, dict):
        visit(node)
        for value in node.values():
            walk(value, visit)
    elif isinstance(node, list):
        for value in node:
            walk(value, visit)


def check_static(grammar):
    if grammar.get("scopeName") != "source.statespec":
        fail(f"scopeName is {grammar.get('scopeName')!r}, not 'source.statespec'")
    if "statespec" not in grammar.get("fileTypes", []):
        fail("fileTypes does not list 'statespec'")
    repository = grammar.get("repository", {})
    count = 0

    def visit(node):
        nonlocal count
        include = node.get("include")
        if isinstance(include, str) and include.startswith("#") and include[1:] not in repository:
            fail(f"includes {include}, which the repository does not have")
        for key in ("match", "begin", "end", "while"):
            if isinstance(node.get(key), str):
                count += 1
                try:
                    onigurumacffi.compile(node[key])
                except Exception as error:  # onigurumacffi.OnigError, or a bad pattern type
                    fail(f"{key} {node[key]!r} does not compile with Oniguruma: {error}")

    walk(grammar, visit)
    return count


def with_swift_stand_in(grammar):
    def replace(node):
        if isinstance(node, dict):
            return {key: ("#swift-stand-in" if key == "include" and value == "source.swift" else replace(value)) for key, value in node.items()}
        if isinstance(node, list):
            return [replace(value) for value in node]
        return node

    grammar = replace(grammar)
    grammar["repository"]["swift-stand-in"] = SWIFT_STAND_IN
    return grammar


def tokens(parser, text):
    element = parser.parse_string(text)
    if element is None:
        return []
    # ((line, column), text, [scopes]), lines 0-based
    return [((line + 1, column), token, scopes) for (line, column), token, scopes in element.flatten()]


def check_sample(parser):
    found = tokens(parser, SAMPLE.read_text(encoding="utf-8"))
    for line, text, scope in EXPECTED:
        candidates = [scopes for (token_line, _), token, scopes in found if token_line == line and token == text]
        if not candidates:
            fail(f"{SAMPLE.relative_to(ROOT)}:{line}: no token {text!r}")
        elif not any(scope in scopes for scopes in candidates):
            fail(f"{SAMPLE.relative_to(ROOT)}:{line}: {text!r} has {candidates[0]}, not {scope}")


STATE = re.compile(r"^\s*(?:(?:public|package|internal)\s+)?state\s+[A-Za-z_]")
MEMBER = re.compile(r"^\s*(?:@[A-Za-z]+(?:\([^)]*\))?\s+)*(computed|selector)\s+[A-Za-z_`]")


def check_spec(parser, path):
    text = path.read_text(encoding="utf-8")
    found = tokens(parser, text)
    relative = path.relative_to(ROOT)
    if not found:
        fail(f"{relative}: the engine produced no tokens")
        return
    for number, line in enumerate(text.split("\n"), start=1):
        expected = None
        if STATE.match(line):
            expected = ("state", "keyword.other.state.statespec")
        elif match := MEMBER.match(line):
            expected = (match.group(1), f"keyword.other.{match.group(1)}.statespec")
        if expected is None:
            continue
        word, scope = expected
        if not any(token_line == number and token == word and scope in scopes for (token_line, _), token, scopes in found):
            fail(f"{relative}:{number}: '{word}' is not colored as {scope} (an earlier construct ran on?)")
    last = [scopes for _, token, scopes in found if token.strip()][-1]
    if any(scope.startswith("meta.embedded") or scope.startswith("meta.definition") for scope in last):
        fail(f"{relative}: the file ends inside {last}")


def main():
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    patterns = check_static(grammar)
    specs = sorted(path for folder in SPEC_FOLDERS for path in (ROOT / folder).rglob("*.statespec") if ".build" not in path.parts)
    if not failures:  # the engine cannot load a grammar whose patterns do not compile
        parser = LanguageParser(with_swift_stand_in(grammar))
        check_sample(parser)
        for path in specs:
            check_spec(parser, path)
    for message in failures:
        print(f"check-grammar: {message}", file=sys.stderr)
    if failures:
        print(f"check-grammar: {len(failures)} problem(s) in {GRAMMAR.relative_to(ROOT)}", file=sys.stderr)
        return 1
    print(
        f"check-grammar: {GRAMMAR.relative_to(ROOT)} passed ({patterns} regular expressions compiled with Oniguruma, "
        f"{len(EXPECTED)} scopes of the sample and {len(specs)} specs tokenized)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
