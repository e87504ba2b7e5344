"""A spec written as plain Swift (a .state.swift file) in sourcekit-lsp alone, before any build:
nothing of ComputedGen's runs (no plugin, no computedgen-lsp), as in Xcode, whose editor is the same
SourceKit. Completion after `$0.` inside a body lists the element's members, and a misspelled
member is a diagnostic at the line and column where it was written.

Runs only when $COMPUTEDGEN_SWIFT_FORM_PACKAGE names an unbuilt copy of Examples/TodoListSwiftForm
(scripts/lsp-client-check.sh --forwarding makes one): sourcekit-lsp prepares the package (builds
the modules the spec imports, as it does for any package a user opens), which takes a debug
build's time, so the default run skips it.
"""

import asyncio
import os
import pathlib
import shutil
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from test_server import at

PACKAGE = os.environ.get("COMPUTEDGEN_SWIFT_FORM_PACKAGE")
SOURCEKIT_LSP = shutil.which("sourcekit-lsp") or "sourcekit-lsp"
pytestmark = pytest.mark.skipif(not PACKAGE, reason="set COMPUTEDGEN_SWIFT_FORM_PACKAGE (scripts/lsp-client-check.sh --forwarding)")

SPEC = "Sources/TodoSpecs/Todo.state.swift"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[SOURCEKIT_LSP]))
async def client(lsp_client: LanguageClient):
    root = pathlib.Path(PACKAGE)
    capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(snippet_support=False)
            ),
            diagnostic=types.DiagnosticClientCapabilities(),
        ),
    )
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        )
    )
    yield
    await lsp_client.shutdown_session()


async def pull_diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    report = await asyncio.wait_for(
        client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))),
        120,
    )
    return list(getattr(report, "items", []) or [])


async def until(probe, limit: float = 600):
    """Asks `probe` again until it answers (sourcekit-lsp first prepares the package: it builds
    ComputedRuntime, which the spec imports, as for any package a user opens)."""
    start = time.perf_counter()
    while True:
        answer = await probe()
        if answer:
            return answer, time.perf_counter() - start
        if time.perf_counter() - start > limit:
            raise AssertionError(f"no answer after {limit} s")
        await asyncio.sleep(1)


async def test_swift_form_before_any_build(client: LanguageClient):
    package = pathlib.Path(PACKAGE)
    assert not (package / ".build/debug").exists(), "the package must not have been built"
    spec = package / SPEC
    uri = spec.as_uri()
    text = spec.read_text()
    broken = text.replace("$0.title.contains(query)", "$0.titl.contains(query)")
    assert broken != text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="swift", version=1, text=broken)
        )
    )

    # A misspelled member inside a body: a diagnostic at its line and column, from the compiler.
    async def misspelled():
        return [d for d in await pull_diagnostics(client, uri) if "titl" in d.message]

    found, waited = await until(misspelled)
    print(f"\nsourcekit-lsp's diagnostic in a body after {waited:.1f} s: {found[0].message!r} at {found[0].range.start}")
    assert len(found) == 1, found  # once
    assert found[0].range.start == at(broken, "$0.titl", 3)
    assert found[0].severity == types.DiagnosticSeverity.Error

    # Fixed: completion after `$0.` in the same body lists Todo's members.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )

    async def members():
        result = await client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at(text, "$0.title", 3))
        )
        items = result.items if isinstance(result, types.CompletionList) else (result or [])
        labels = {item.filter_text or item.label for item in items}
        return labels if {"title", "owner", "done"} <= labels else None

    labels, waited = await until(members, limit=60)
    print(f"completion after `$0.`: {sorted(labels)[:8]} ({waited:.1f} s)")
    assert await pull_diagnostics(client, uri) == []
