"""computedgen-lsp driven by an independent client: pytest-lsp, whose lsprotocol types check
every message against the LSP 3.17 schema (a response of the wrong shape fails to convert and
fails the test) and whose spec checks compare results with the client's capabilities.

The server is $COMPUTEDGEN_LSP; the build's diagnostics, for comparison, come from
$COMPUTEDGEN_TOOL (`ComputedGenTool check`). scripts/lsp-client-check.sh sets both.
"""

import os
import pathlib
import re
import subprocess
import sys
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = os.environ.get("COMPUTEDGEN_LSP", str(ROOT / ".build/debug/computedgen-lsp"))
TOOL = os.environ.get("COMPUTEDGEN_TOOL", str(ROOT / ".build/debug/ComputedGenTool"))
TODO = (ROOT / "Fixtures/Specs/Todo.statespec").read_text()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[SERVER, "--stdio", "--no-forward-swift"]))
async def client(lsp_client: LanguageClient):
    capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(
                    snippet_support=True, documentation_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]
                )
            ),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]),
            document_symbol=types.DocumentSymbolClientCapabilities(
                hierarchical_document_symbol_support=True
            ),
            rename=types.RenameClientCapabilities(prepare_support=True),
        )
    )
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    lsp_client.server_capabilities = result.capabilities
    yield
    await lsp_client.shutdown_session()


async def open_spec(client: LanguageClient, text: str, name: str = "Todo.statespec", version: int = 1) -> str:
    uri = (ROOT / ".build-lsp-venv" / name).as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="statespec", version=version, text=text)
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


def at(text: str, needle: str, delta: int = 0) -> types.Position:
    for number, line in enumerate(text.split("\n")):
        if needle in line:
            prefix = line[: line.index(needle)]
            return types.Position(line=number, character=len(prefix.encode("utf-16-le")) // 2 + delta)
    raise AssertionError(f"{needle!r} not in the text")


def build_diagnostics(text: str, tmp_path: pathlib.Path) -> list[tuple[int, int, str]]:
    """(line, UTF-16 character, message) of each diagnostic `ComputedGenTool check` prints."""
    spec = tmp_path / "Spec.statespec"
    spec.write_text(text)
    run = subprocess.run([TOOL, "check", str(spec)], capture_output=True, text=True)
    lines = text.split("\n")
    found = []
    for match in re.finditer(r"^.*?:(\d+):(\d+): error: (.*)$", run.stderr, re.MULTILINE):
        line, column, message = int(match[1]), int(match[2]), match[3]
        prefix = lines[line - 1].encode()[: column - 1].decode()
        found.append((line - 1, len(prefix.encode("utf-16-le")) // 2, message))
    return found


async def test_diagnostics_are_the_builds(client: LanguageClient, tmp_path: pathlib.Path):
    text = "state S {\n  var é: Int = 0\n  computed 😀b: Int from nothing { é }\n  @Bogus var c: Int = 0\n}\n"
    uri = await open_spec(client, text, "Broken.statespec")
    published = [(d.range.start.line, d.range.start.character, d.message) for d in client.diagnostics[uri]]
    assert published == build_diagnostics(text, tmp_path)
    assert len(published) >= 2
    assert all(d.severity == types.DiagnosticSeverity.Error and d.source == "computedgen" for d in client.diagnostics[uri])

    # Mended by an incremental change: the diagnostics go away.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=2, character=2), end=types.Position(line=4, character=0)),
                text="computed b: Int from é { é }\n",
            )],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []


async def test_completion(client: LanguageClient):
    uri = await open_spec(client, TODO)
    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at(TODO, "visibleTodos.count"))
    )
    labels = [item.label for item in items]
    assert labels[:3] == ["todos", "filter", "query"] and "visibleCount" not in labels
    todos = next(item for item in items if item.label == "todos")
    assert todos.detail == "[Todo]" and "Every todo" in todos.documentation.value

    attributes = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at(TODO, "@Edge var", 1))
    )
    assert "@Shared(.fileStorage)" in [item.label for item in attributes]


async def test_hover(client: LanguageClient):
    uri = await open_spec(client, TODO)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at(TODO, "visibleTodos: [Todo]", 3))
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "Recomputed when `todos`, `filter` or `query` changes; read by `visibleCount`." in hover.contents.value
    assert "Recomputed in full" in hover.contents.value


async def test_definition_references_rename(client: LanguageClient):
    uri = await open_spec(client, TODO)
    document = types.TextDocumentIdentifier(uri=uri)
    definition = await client.text_document_definition_async(
        types.DefinitionParams(text_document=document, position=at(TODO, "visibleTodos.count", 2))
    )
    assert definition.range.start == at(TODO, "visibleTodos: [Todo]")
    references = await client.text_document_references_async(
        types.ReferenceParams(text_document=document, position=at(TODO, "var todos", 5),
                              context=types.ReferenceContext(include_declaration=True))
    )
    assert len(references) == 5
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=document, position=at(TODO, "var todos", 5))
    )
    assert prepared.placeholder == "todos"
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=document, position=at(TODO, "var todos", 5), new_name="items")
    )
    assert len(edit.changes[uri]) == 5


async def test_document_symbols(client: LanguageClient):
    uri = await open_spec(client, TODO)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [s.name for s in symbols] == ["TodoState"]
    children = symbols[0].children
    assert [c.name for c in children][-2:] == ["doneCount", "todos(ownedBy:)"]
    assert children[0].kind == types.SymbolKind.Field and children[-1].kind == types.SymbolKind.Method


async def test_semantic_tokens(client: LanguageClient):
    uri = await open_spec(client, TODO)
    legend = client.server_capabilities.semantic_tokens_provider.legend
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    lines = TODO.split("\n")
    decoded, line, character = [], 0, 0
    for index in range(0, len(tokens.data), 5):
        delta_line, delta_start, length, kind, _ = tokens.data[index : index + 5]
        line += delta_line
        character = character + delta_start if delta_line == 0 else delta_start
        utf16 = lines[line].encode("utf-16-le")
        decoded.append((utf16[2 * character : 2 * (character + length)].decode("utf-16-le"), legend.token_types[kind]))
    assert ("state", "keyword") in decoded and ("TodoState", "struct") in decoded
    assert ("visibleTodos", "property") in decoded and ("@Edge", "decorator") in decoded
    assert ("Todo", "type") in decoded and ("owner", "parameter") in decoded


def large_spec(members: int) -> str:
    third = max(1, members // 3)
    lines = ["state Large {"]
    lines += [f"  var field{i}: Int = {i}" for i in range(third)]
    lines += [f"  computed double{i}: Int {{ field{i} * 2 }}" for i in range(third)]
    lines += [f"  computed sum{i}: Int {{ double{i % third} + field{(i + 1) % third} }}" for i in range(members - 2 * third)]
    return "\n".join(lines + ["}", ""])


@pytest.mark.parametrize("members", [10, 1000])
async def test_diagnostics_latency(client: LanguageClient, members: int):
    """From sending a full-text didChange to receiving its diagnostics, through both JSON layers."""
    text = large_spec(members)
    uri = await open_spec(client, text, f"Large{members}.statespec")
    times = []
    for version in range(2, 23):
        start = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + f"// edit {version}\n")],
            )
        )
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        times.append(time.perf_counter() - start)
    median = sorted(times)[len(times) // 2]
    print(f"\ndiagnostics latency, {members} members: median {median * 1000:.1f} ms over {len(times)} changes", file=sys.stderr)
    assert list(client.diagnostics[uri]) == []
    # A figure to read, not a test: a check that times itself fails whenever the machine is busy.
    # `scripts/lsp-client-check.sh --release` holds the release build to the 50 ms target, on a
    # machine the caller keeps quiet.
    limit = os.environ.get("COMPUTEDGEN_LSP_LATENCY_LIMIT")
    if limit:
        assert median < float(limit)
