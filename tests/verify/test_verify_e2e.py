"""`pinup verify` for real: Chromium through Playwright against a real `pinup serve`, and the MCP tool."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import serve_process
from bs4 import BeautifulSoup
from PIL import Image
from serve_process import PINUP, Served

BOARD = "trail-home"
DIFF_RED = (255, 0, 0)  # pixelmatch marks differing pixels in this red
NOTE = 'Bigger "+" <button> & a label'
PINS = [
    {
        "id": "fab",
        "variant": "B",
        "note": NOTE,
        "severity": "major",
        "box": {"x": 0.93, "y": 0.82, "w": 0.05, "h": 0.08},
        "selector": '[data-pin="log-here"]',
    },
    {
        "id": "search",
        "variant": "B",
        "note": "Say what the search finds",
        "severity": "minor",
        "box": {"x": 0.01, "y": 0.01, "w": 0.98, "h": 0.06},
        "selector": '[data-pin="search"]',
    },
    {
        "id": "area",
        "variant": "B",
        "note": "The map's left half",
        "severity": "minor",
        "box": {"x": 0.0, "y": 0.1, "w": 0.3, "h": 0.3},
    },
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The example workspace served by `pinup serve`, with a final pick of B and three pins on it."""
    root = tmp_path_factory.mktemp("verify")
    src = serve_process.copy_example(root / "ws")
    site = root / "site"
    s = serve_process.start(
        ["serve", str(src), "--no-open", "--port", "0", "--out", str(site), "--timeout", "0"],
        cwd=root,
        src=src,
        site=site,
    )
    try:
        body = {"schemaVersion": 2, "board": BOARD, "round": 1, "preferred": "B", "reviewer": "Ines", "pins": PINS}
        answer = httpx.post(f"{s.base}/api/feedback", json=body, timeout=10)
        assert answer.status_code == 200, answer.text
        # B with its button moved to the other side and the search bar's words changed
        page = (src / "boards" / BOARD / "variants" / "b-map-first.html").read_text(encoding="utf-8")
        moved = page.replace("right:var(--sp-lg);bottom", "left:var(--sp-lg);bottom")
        moved = moved.replace("Search sightings, places, species", "Find a jay, a fern or a trail")
        assert moved.count("left:var(--sp-lg);bottom") == 1
        (site / "moved.html").write_text(moved, encoding="utf-8")
        yield s
    finally:
        s.stop()


def verify(served: Served, *args: str, board: str = BOARD) -> tuple[int, Any, str]:
    proc = subprocess.run(
        [*PINUP, "verify", board, "--src", str(served.src), *args],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=served.src.parent if served.src else None,
    )
    data = json.loads(proc.stdout) if "--format" in args and proc.stdout.strip() else proc.stdout
    return proc.returncode, data, proc.stderr


def variant_url(served: Served, name: str) -> str:
    return f"{served.base}/boards/{BOARD}/variants/{name}"


@pytest.mark.browser
def test_the_variants_own_page_matches_and_the_report_shows_it(served: Served) -> None:
    code, data, err = verify(served, "--url", variant_url(served, "b-map-first.html"), "--format", "json")
    assert code == 0, err
    assert data["verdict"] == "matches" and data["variant"] == "B" and data["pickedBy"]
    assert data["differingPixels"] == 0 and data["ssim"] == 1.0
    assert data["viewport"] == {"width": 1440, "height": 900} and data["device"] == "desktop"
    assert [(p["n"], p["status"], p["inImplementation"]) for p in data["pins"]] == [
        (1, "untouched", True),
        (2, "untouched", True),
        (3, "untouched", None),
    ]
    report = Path(data["report"])
    assert report == served.site / "boards" / BOARD / "verify" / "index.html"
    soup = BeautifulSoup(report.read_text(encoding="utf-8"), "html.parser")
    for img in soup.find_all("img"):
        assert (report.parent / img["src"]).is_file(), img["src"]
    assert soup.find("button") is None and NOTE in soup.get_text()  # the note is text, not markup
    assert len(soup.select("tbody tr")) == 3 and soup.select_one("#reveal")["type"] == "range"
    with Image.open(report.parent / "variant.png") as shot:
        assert shot.width == 1440 and shot.height >= 900


@pytest.mark.browser
def test_another_variant_differs(served: Served) -> None:
    code, data, err = verify(served, "--url", variant_url(served, "c-journal-page.html"), "--format", "json")
    assert code == 1, err
    assert data["verdict"] == "differs" and data["differingShare"] > 0.01 and data["ssim"] < 0.95
    statuses = {p["n"]: p["status"] for p in data["pins"]}
    assert statuses[1] == "missing" and statuses[2] == "missing"  # C has neither pinned element


@pytest.mark.browser
def test_a_moved_element_is_followed_by_its_selector(served: Served) -> None:
    code, data, err = verify(served, "--url", f"{served.base}/moved.html", "--format", "json", "--threshold", "0")
    assert code == 1, err  # some pixels differ, and a threshold of 0 allows none
    fab, search, _ = data["pins"]
    assert fab["status"] == "untouched" and fab["moved"] and fab["moved"][0] < -1000 and fab["moved"][1] == 0
    assert search["status"] == "changed" and search["moved"] is None
    code, text, err = verify(served, "--url", f"{served.base}/moved.html")
    assert code == 0, err  # within the default threshold of 1 %
    assert "pin #1 untouched, moved -" in text and "pin #2 changed" in text and "verdict: matches" in text


@pytest.mark.browser
def test_an_image_variant_against_an_html_page(served: Served, tmp_path: Path) -> None:
    svg = served.src / "boards" / "sighting-badge" / "variants" / "a-leaf-seal.svg"
    code, data, err = verify(served, "--variant", "A", "--file", str(svg), "--format", "json", board="sighting-badge")
    assert code == 0, err
    assert data["verdict"] == "matches" and data["pickedBy"] is None
    page = tmp_path / "built.html"
    page.write_text(f'<!doctype html><body style="margin:0"><img src="{svg.as_uri()}" style="width:50%"></body>')
    code, data, err = verify(served, "--variant", "A", "--file", str(page), "--format", "json", board="sighting-badge")
    assert code == 1, err
    assert data["differingPixels"] > 0 and data["compared"]["width"] == 1440


@pytest.mark.browser
def test_bad_input_exits_2_with_the_reason(served: Served) -> None:
    code, _, err = verify(served, "--url", f"{served.base}/no-such-page.html")
    assert code == 2 and f"{served.base}/no-such-page.html answered HTTP 404" in err
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    code, _, err = verify(served, "--url", f"http://127.0.0.1:{closed}/")
    assert code == 2 and f"http://127.0.0.1:{closed}/ could not be opened: nothing answers there" in err
    code, _, err = verify(served, "--variant", "A", board="sighting-badge")
    assert code == 2 and "--url URL or --file PAGE" in err
    code, _, err = verify(served, "--file", str(served.src / "DESIGN.md"), board="sighting-badge")
    assert code == 2 and "neither an HTML page nor an image" in err
    svg = served.src / "boards" / "sighting-badge" / "variants" / "a-leaf-seal.svg"
    code, _, err = verify(served, "--file", str(svg), board="sighting-badge")
    assert code == 2 and "no final pick yet" in err and "--variant (A, B, C)" in err
    code, _, err = verify(served, "--file", str(svg), "--variant", "Z", board="sighting-badge")
    assert code == 2 and "no variant 'Z'" in err
    code, _, err = verify(served, "--file", str(svg), "--round", "7")
    assert code == 2 and "board trail-home has no round 7 (rounds: 1)" in err
    code, _, err = verify(served, "--file", str(svg), board="no-such-board")
    assert code == 2 and "no board 'no-such-board'" in err and "sighting-badge, trail-home" in err


@pytest.mark.browser
def test_a_page_that_never_finishes_loading_times_out(served: Served) -> None:
    """A server that accepts the connection and never answers: exit 2 within the --timeout given."""
    accepted: list[socket.socket] = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]

        def hold() -> None:
            try:
                while True:
                    accepted.append(listener.accept()[0])
            except OSError:
                return

        threading.Thread(target=hold, daemon=True).start()
        started = time.monotonic()
        code, _, err = verify(served, "--url", f"http://127.0.0.1:{port}/slow", "--timeout", "2")
        elapsed = time.monotonic() - started
    for conn in accepted:
        conn.close()
    assert code == 2 and f"http://127.0.0.1:{port}/slow did not finish loading within 2 s" in err
    assert accepted and elapsed < 60  # it connected, then gave up at the timeout (Chromium's start is the rest)


def test_a_remote_url_is_refused_before_any_request(served: Served) -> None:
    """Named by a non-loopback name, a listening server gets no request: the check comes first."""
    from pinup.browser import is_loopback

    assert not is_loopback(socket.gethostname())  # this machine's name, which resolves here
    seen: list[socket.socket] = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        started = time.monotonic()
        code, _, err = verify(served, "--url", f"http://{socket.gethostname()}:{port}/", "--variant", "B")
        try:
            seen.append(listener.accept()[0])
        except TimeoutError:
            pass
    for conn in seen:
        conn.close()
    assert code == 2 and f"--allow-host {socket.gethostname()}" in err and "was not opened" in err
    assert seen == [] and time.monotonic() - started < 30


def test_the_mcp_tool_returns_the_verdict_and_the_diff_picture(served: Served) -> None:
    from mcp import Client, StdioServerParameters

    env = {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}

    async def session() -> dict[str, Any]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "pinup", "mcp", "--workspace", str(served.src)], env=env
        )
        async with Client(params, read_timeout_seconds=180) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            other = await client.call_tool(
                "verify", {"board": BOARD, "url": variant_url(served, "a-capture-first.html")}
            )
            remote = await client.call_tool("verify", {"board": BOARD, "url": "https://example.com/"})
            return {"tools": tools, "other": other, "remote": remote}

    box: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: box.update(asyncio.run(session())))
    worker.start()
    worker.join(300)
    assert "verify" in box["tools"]
    other = box["other"]
    assert not other.is_error
    [text] = [c for c in other.content if c.type == "text"]
    [image] = [c for c in other.content if c.type == "image"]
    data = json.loads(text.text)
    assert data["verdict"] == "differs" and data["variant"] == "B" and len(data["pins"]) == 3
    assert image.mime_type == "image/png"
    with Image.open(io.BytesIO(base64.b64decode(image.data))) as picture:
        assert picture.width == 1440 and picture.height == data["compared"]["height"]
        assert DIFF_RED in {picture.getpixel((x, y)) for x in range(0, 1440, 8) for y in range(0, 900, 8)}
    remote = box["remote"]
    assert remote.is_error and "--allow-host example.com" in remote.content[0].text


@pytest.mark.browser
def test_the_served_report_works_under_the_servers_csp(served: Served, browser: Any) -> None:
    code, _, err = verify(served, "--url", f"{served.base}/moved.html")
    assert code == 0, err
    context = browser.new_context()  # no bypass_csp: the inline slider script must be allowed by its hash
    try:
        page = context.new_page()
        problems: list[str] = []
        page.on("console", lambda message: problems.append(message.text))
        page.on("requestfailed", lambda request: problems.append(request.url))
        page.goto(f"{served.base}/boards/{BOARD}/verify/index.html")
        page.fill("#reveal", "20")
        assert page.eval_on_selector("#overlay-top", "e => e.style.clipPath") == "inset(0px 80% 0px 0px)"
        assert page.evaluate("[...document.images].every((i) => i.complete && i.naturalWidth > 0)")
        assert problems == []
    finally:
        context.close()
