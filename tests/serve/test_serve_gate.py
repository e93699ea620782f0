"""`pinup serve` holds a request for a site file while a rebuild writes over the site's files,
then answers it from the new build; the API is never held (a real server on 127.0.0.1)."""

from __future__ import annotations

import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from pinup.output import OutputWriter
from pinup.serve.server import ServeOptions, ServeSession
from pinup.workspace import Workspace


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    ws = Workspace(src=tmp_path / "src", out=tmp_path / "site", store=tmp_path / "store")
    ws.src.mkdir()
    with OutputWriter(ws.out) as writer:
        writer.write_text("index.html", "<!doctype html><title>one</title><p>one</p>")
        writer.write_text("assets/site.css", "p { color: red }")
    app = ServeSession(ws, ServeOptions(open_browser=False, watch=False)).make_app()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", ws.out
    server.should_exit = True
    thread.join(10)


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return bytes(response.read())


def test_a_page_requested_during_a_rebuild_waits_for_it_and_comes_from_it(served: tuple[str, Path]) -> None:
    base, out = served
    assert b"<p>one</p>" in _get(f"{base}/")
    answers: dict[str, bytes] = {}
    with OutputWriter(out) as writer:
        writer.write_text("index.html", "<!doctype html><title>two</title><p>two</p>")
        fetch = threading.Thread(target=lambda: answers.update(page=_get(f"{base}/index.html")))
        fetch.start()
        assert _get(f"{base}/healthz")  # the API answers meanwhile
        time.sleep(0.4)
        assert not answers  # held while the build may still be writing
        writer.write_text("assets/site.css", "p { color: blue }")
    fetch.join(10)
    assert b"<p>two</p>" in answers["page"]
    assert _get(f"{base}/assets/site.css") == b"p { color: blue }"
