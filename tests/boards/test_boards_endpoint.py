"""A board talks to a feedback API only where there is one: `pinup serve`, or the endpoint its build
recorded. A static copy (a plain file server, `file://`) asks for nothing that could fail and says
in words that feedback cannot be sent from it, in real Chromium."""

from __future__ import annotations

import functools
import json
import subprocess
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from boards_helpers import PINUP, Served, copy_workspace

pytestmark = pytest.mark.browser

BOARDS = ("trail-home", "sighting-badge")
MARKER = '<meta name="pinup-serve" content="api">'


@pytest.fixture(scope="module")
def static_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example built with no endpoint: what a reviewer gets as a copy of the site."""
    tmp = tmp_path_factory.mktemp("static")
    workspace = copy_workspace(tmp)
    site = tmp / "site"
    proc = subprocess.run(
        [*PINUP, "build", str(workspace), "--out", str(site)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return site


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def static_server(static_site: Path) -> Iterator[str]:
    """`python -m http.server` on 127.0.0.1: a plain file server that answers 404 to /api/…"""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(static_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(10)


def watch(page: Any) -> dict[str, list[str]]:
    """Every console error, page error, failed request and error response the page has from now on."""
    seen: dict[str, list[str]] = {"console": [], "failed": [], "requests": []}
    page.on("console", lambda m: seen["console"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen["console"].append(str(e)))
    page.on("requestfailed", lambda r: seen["failed"].append(f"{r.url} {r.failure}"))
    page.on("response", lambda r: seen["failed"].append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("request", lambda r: seen["requests"].append(r.url))
    return seen


@pytest.mark.parametrize("origin", ["http", "file"])
def test_a_static_copy_asks_for_no_api_and_offers_the_json(
    page: Any, origin: str, static_site: Path, static_server: str
) -> None:
    base = static_server if origin == "http" else static_site.as_uri()
    seen = watch(page)
    for board in BOARDS:
        page.goto(f"{base}/boards/{board}/index.html", wait_until="networkidle")
        note = page.locator("#no-endpoint")
        assert note.is_visible() and "Feedback cannot be sent from this copy" in note.inner_text()
        assert page.locator("#banner").is_hidden()
    assert page.locator("#earlier-items").is_hidden()

    page.check("input[name=preferred][value=B]")
    page.fill("#overall-feedback", "The map, please")
    page.click("#submit-btn")
    page.wait_for_selector("#error-box:not([hidden])")
    box = page.inner_text("#error-box")
    assert "Feedback cannot be sent from this copy of the board" in box and "nothing was sent" in box
    body = json.loads(page.input_value("#feedback-json"))
    assert body["board"] == BOARDS[1] and body["preferred"] == "B" and body["overall"] == "The map, please"
    assert page.is_enabled("#submit-btn")  # nothing was sent: the draft stays editable

    page.click(".regen-chiclet[data-action=different]")
    page.click("#regen-btn")
    page.wait_for_function("JSON.parse(document.querySelector('#feedback-json').value).regenerated === true")
    assert page.locator("#progress-view").is_hidden()

    assert seen["console"] == [] and seen["failed"] == []
    assert not [u for u in seen["requests"] if "/api/" in u], seen["requests"]


def test_under_pinup_serve_the_board_talks_to_the_api(page: Any, served: Served) -> None:
    board = BOARDS[0]
    assert served.site is not None
    assert MARKER not in (served.site / "boards" / board / "index.html").read_text(encoding="utf-8")
    assert MARKER in httpx.get(served.board_url(board)).text  # only the server adds it
    assert MARKER in httpx.get(f"{served.base}/boards/{board}/").text
    assert MARKER not in httpx.get(f"{served.base}/boards/").text  # the index has no board script
    seen = watch(page)
    with page.expect_response(lambda r: "/api/events?board=" in r.url and r.status == 200):
        page.goto(served.board_url(board))
    page.wait_for_selector("#submit-btn")
    assert page.locator("#no-endpoint").is_hidden()
    page.check("input[name=preferred][value=C]")
    page.click("#submit-btn")
    page.wait_for_function("document.querySelector('#status').textContent === 'submitted'")
    assert [r["preferred"] for r in served.records(board)] == ["C"]
    assert any("/api/items?board=" in u for u in seen["requests"])
    assert seen["console"] == [] and seen["failed"] == []
