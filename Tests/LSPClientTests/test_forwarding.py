"""Swift completion inside a spec's bodies, forwarded by computedgen-lsp (--forward-swift) to the
toolchain's sourcekit-lsp on the generated file, over a package built here.

Runs only when $COMPUTEDGEN_LSP_FORWARDING_PACKAGE names a built package with a spec
(scripts/lsp-client-check.sh --forwarding makes one from Examples/TodoList): sourcekit-lsp then
prepares that package, which takes a build's time, so the default run skips it.
"""

import os
import pathlib
import asyncio
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from test_server import SERVER, at

PACKAGE = os.environ.get("COMPUTEDGEN_LSP_FORWARDING_PACKAGE")
pytestmark = pytest.mark.skipif(not PACKAGE, reason="set COMPUTEDGEN_LSP_FORWARDING_PACKAGE (scripts/lsp-client-check.sh --forwarding)")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[SERVER, "--stdio", "--forward-swift"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def test_member_completion_after_dollar_zero(client: LanguageClient):
    spec = pathlib.Path(PACKAGE) / "Sources/TodoList/Todo.statespec"
    text = spec.read_text()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=spec.as_uri(), language_id="statespec", version=1, text=text)
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    position = at(text, "$0.owner", 3)
    params = types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=spec.as_uri()), position=position)
    start, labels, result = time.perf_counter(), [], None
    # sourcekit-lsp answers with nothing until it has prepared the target; an editor asks again
    # as the user types (the list is marked incomplete), so does this test.
    while time.perf_counter() - start < 240:
        result = await client.text_document_completion_async(params)
        labels = [item.label for item in result.items]
        if "title" in labels:
            break
        await asyncio.sleep(2)
    print(f"\n$0. completed Todo's members after {time.perf_counter() - start:.1f} s: {labels[:6]}")
    assert {"title", "owner", "done"} <= set(labels)
    assert result.is_incomplete
    owner = next(item for item in result.items if item.label == "owner")
    assert owner.text_edit.range.start == position  # Mapped back from the generated file.

    # Hover on a Swift name in a body: Swift's, its range moved into the spec.
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=spec.as_uri()), position=at(text, "$0.owner", 4))
    )
    print(f"hover on owner: {hover.contents.value!r:.120}")
    assert "owner" in hover.contents.value and "String" in hover.contents.value
    assert hover.range is None or hover.range.start.line == position.line

    # In a body, outside a member access: the spec's members first, then Swift's.
    body = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=spec.as_uri()), position=at(text, "todos.filter { $0.owner", 1))
    )
    body_labels = [item.label for item in body.items]
    assert body_labels[0] == "owner" and "todos" in body_labels and len(body_labels) > 20
