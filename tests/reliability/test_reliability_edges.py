"""The edges of #12's defences, against a real `pinup serve` unless said otherwise: look-alike
Host names and origins, more traversal spellings (double-encoded, backslashes, dot tricks), a
reload aimed through a symlinked board, a body that trickles in, and `pinup build` (the site
builder, not only lint) on every input that once crashed pinup."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from reliability_helpers import BOARD, Served, regenerate_body, start_serve
from slow_body import feedback_post_head, serving

from pinup.build import BuildOptions, build_all
from pinup_feedback.app import create_app
from pinup_feedback.server import FeedbackServer
from pinup_feedback.settings import Settings

SECRET = "SECRET-BEYOND-THE-SITE"
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture()
def served(built: tuple[Path, Path]) -> Iterator[Served]:
    """A server whose site holds a board folder and a page that are symlinks out of it."""
    src, site = built
    outside = site.parent / "outside"
    (outside / "board").mkdir(parents=True)
    (outside / "secret.txt").write_text(SECRET)
    (outside / "board" / "index.html").write_text(f"<p>{SECRET}</p>")
    (outside / "board" / "board.json").write_text(json.dumps({"board": "linked", "round": 1, "variants": ["A", "B"]}))
    os.symlink(outside / "board", site / "boards" / "linked")
    os.symlink(outside / "secret.txt", site / "boards" / BOARD / "notes.txt")
    s = start_serve(src, site, "--no-watch")
    yield s
    s.stop()


def exchange(port: int, request: str) -> tuple[int, bytes]:
    """One request sent byte for byte (clients tidy targets and Host headers); (status, whole reply)."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        sock.sendall(request.encode("latin-1"))
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    reply = b"".join(chunks)
    return int(reply.split(b" ", 2)[1]), reply


def get(port: int, target: str, host: str) -> tuple[int, bytes]:
    return exchange(port, f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")


def test_look_alike_host_names_are_refused_and_own_names_served(served: Served) -> None:
    port, page = served.port, f"/boards/{BOARD}/index.html"
    for host in (
        "127.0.0.1.attacker.example",
        f"127.0.0.1.attacker.example:{port}",
        f"localhost.attacker.example:{port}",
        f"127.0.0.1:{port}.attacker.example",
        f"attacker.example:{port}@127.0.0.1",
        f"127.0.0.1:{port}@attacker.example",
        f"127.0.0.1:{port}:{port}",
        f"127.0.0.2:{port}",
        f"0.0.0.0:{port}",
        f"[::ffff:127.0.0.1]:{port}",
        f"[::1].attacker.example:{port}",
        f"xn--127-0-0-1.example:{port}",
    ):
        status, reply = get(port, page, host)
        assert status in (400, 421), (host, reply[:160])
        assert SECRET.encode() not in reply and b"<!doctype" not in reply.lower(), host
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        status, reply = get(port, page, host)
        assert status == 200 and b"<!doctype" in reply.lower(), host


def test_look_alike_origins_store_nothing(served: Served) -> None:
    port = served.port
    with httpx.Client(base_url=served.base, timeout=30) as http:
        for origin in (
            "http://127.0.0.1.attacker.example",
            f"http://127.0.0.1.attacker.example:{port}",
            f"http://localhost.attacker.example:{port}",
            f"http://127.0.0.1:{port}@attacker.example",
            f"http://attacker.example#@127.0.0.1:{port}",
            f"http://127.0.0.1:{port}/..",
            f"ws://127.0.0.1:{port}",
            f"file://127.0.0.1:{port}",
            f"http://127.0.0.1:{port + 1}",
            f"http://127.0.0.1:{port},http://attacker.example",
        ):
            r = http.post("/api/feedback", json=regenerate_body(served.site), headers={"origin": origin})
            assert r.status_code == 403 and r.json()["error"] == "origin_not_allowed", origin
        r = http.post("/api/feedback", json=regenerate_body(served.site), headers={"origin": served.base})
        assert r.status_code == 200  # the real origin still works
    assert len(list((served.store / BOARD).glob("*.json"))) == 1


TRAVERSALS = [
    "/%252e%252e%252foutside%252fsecret.txt",
    "/%25252e%25252e/outside/secret.txt",
    "/..%255coutside%255csecret.txt",
    "/%2e%2e%5c%2e%2e%5coutside%5csecret.txt",
    "/boards\\..\\..\\outside\\secret.txt",
    f"/boards/{BOARD}/..%5c..%5c..%5coutside%5csecret.txt",
    f"/boards/{BOARD}/%2e%2e%2f%2e%2e%2f%2e%2e%2foutside/secret.txt",
    "/....//outside/secret.txt",
    "/..;/outside/secret.txt",
    "/%u002e%u002e/outside/secret.txt",
    "/..%c0%afoutside/secret.txt",
    "/..%e0%80%afoutside/secret.txt",
    "/boards/linked/index.html",
    "/boards/linked%2findex.html",
    "/boards/./linked/./board.json",
    "/boards/linked/",
    f"/boards/{BOARD}/notes.txt",
    f"/boards/{BOARD}/notes.txt%00.html",
    "/BOARDS/../../outside/secret.txt",
    "http://127.0.0.1/../outside/secret.txt",
]


def test_more_traversal_spellings_leak_nothing(served: Served) -> None:
    for target in TRAVERSALS:
        status, reply = get(served.port, target, f"127.0.0.1:{served.port}")
        assert SECRET.encode() not in reply, target
        assert status in (400, 404, 421), (target, reply[:200])


def test_reload_through_a_symlinked_board_is_refused(served: Served) -> None:
    token = json.loads((served.site / "serve.json").read_text())["token"]
    auth = {"authorization": f"Bearer {token}"}
    with httpx.Client(base_url=served.base, headers=auth, timeout=30) as http:
        r = http.post("/api/reload", json={"board": "linked"})
        assert r.status_code == 403 and r.json()["error"] == "outside_site", r.text
        for html in (
            "boards/linked/index.html",
            f"boards/{BOARD}/notes.txt",
            "boards/./linked/index.html",
            "boards/linked/../linked/index.html",
            "boards\\linked\\index.html",
            "boards/%6cinked/index.html",
        ):
            r = http.post("/api/reload", json={"html": html})
            assert r.status_code in (400, 403, 404, 422), (html, r.status_code, r.text)
            assert SECRET not in r.text
        assert http.post("/api/reload", json={"board": BOARD}).status_code == 200
        assert http.post(
            "/api/reload", json={"board": "linked"}, headers={"authorization": "Bearer x"}
        ).status_code in (
            401,
            403,
        )


def test_a_trickling_body_is_cut_off_at_the_deadline(tmp_path: Path) -> None:
    """A byte every 0.2 s keeps the connection busy but not alive: the deadline is for the whole body."""
    settings = Settings(mode="local", store=str(tmp_path / "store"), rate_limit=0, log_requests=False)
    server = FeedbackServer.for_app(create_app(settings.model_copy(update={"body_timeout": 1.0})))

    async def scenario() -> tuple[bytes, float, int]:
        async with serving(server) as port:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(feedback_post_head(port, 1000))
            t0, sent = time.monotonic(), 0
            reply = asyncio.ensure_future(reader.read())
            while not reply.done() and time.monotonic() - t0 < 20:
                try:
                    writer.write(b" ")
                    await writer.drain()
                    sent += 1
                except ConnectionError:
                    break
                await asyncio.sleep(0.2)
            data = await asyncio.wait_for(reply, 20)
            took = time.monotonic() - t0
            writer.close()
            await writer.wait_closed()
        return data, took, sent

    data, took, sent = asyncio.run(scenario())
    head, _, rest = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), data[:200]
    assert json.loads(rest)["error"] == "request_timeout"
    assert sent >= 3 and took < 10, (sent, took)  # bytes kept coming; the deadline still held


def refused_then_closed(port: int, head: str, first: bytes = b"") -> tuple[bytes, float]:
    """Send `head` (+ `first`), then keep trickling bytes: (the reply, seconds until the server hung up)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(head.encode() + first)
        t0 = time.monotonic()
        reply = sock.recv(65536)
        sock.settimeout(0.2)
        while time.monotonic() - t0 < 10:
            try:
                sock.sendall(b" ")
                more = sock.recv(65536)
                if more == b"":
                    break
                reply += more
            except TimeoutError:
                continue
            except OSError:  # reset: hung up too
                break
        return reply, time.monotonic() - t0


def test_a_refused_oversize_body_cannot_hold_the_connection(served: Served) -> None:
    """After the 413 the server hangs up, declared (Content-Length) or found while streaming (chunked)."""
    start = f"POST /api/feedback HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Type: application/json\r\n"
    declared = start + "Content-Length: 10000000\r\n\r\n"
    chunk = b"%x\r\n%s\r\n" % (70_000, b" " * 70_000)
    for head, first in ((declared, b""), (start + "Transfer-Encoding: chunked\r\n\r\n", chunk)):
        reply, took = refused_then_closed(served.port, head, first)
        assert reply.startswith(b"HTTP/1.1 413") and b"payload_too_large" in reply, reply[:200]
        assert took < 5, f"the connection stayed open {took:.1f}s after the 413"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.md")), ids=lambda p: p.name)
def test_pinup_build_turns_every_regression_fixture_into_findings(path: Path, tmp_path: Path) -> None:
    """The site builder (not only lint) on the inputs that once crashed pinup: a site with findings."""
    src = tmp_path / "ws"
    src.mkdir()
    (src / "DESIGN.md").write_bytes(path.read_bytes())
    result = build_all(BuildOptions(src=src, out=tmp_path / "site"))
    assert (tmp_path / "site" / "index.html").is_file()
    assert result.report.summary.errors == sum(f.severity == "error" for f in result.report.findings)


def test_a_variant_opened_on_its_own_is_as_sandboxed_as_in_its_frame(served: Served, browser: object) -> None:
    """A variant's file is the designers' (or a model's) HTML: opened directly it must not act as
    the server's origin (post feedback, read storage), while its scripts still run."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    file = next(
        p for p in (served.site / "boards" / BOARD).rglob("*.html") if p.name not in ("index.html", "results.html")
    )
    rel = file.relative_to(served.site).as_posix()
    with httpx.Client(base_url=served.base) as http:
        csp = http.get(f"/{rel}").headers["content-security-policy"]
        assert csp.endswith("; sandbox allow-scripts"), csp
        for own in (f"/boards/{BOARD}/", f"/boards/{BOARD}/index.html", f"/boards/{BOARD}/board.json", "/"):
            assert "sandbox" not in http.get(own).headers["content-security-policy"], own
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{served.base}/{rel}")
        page.wait_for_load_state("load")
        assert page.evaluate("self.origin") == "null"
        assert page.evaluate(
            "(() => { try { localStorage.length; return 'open'; } catch (e) { return 'blocked'; } })()"
        ) == ("blocked")
        body = json.dumps(regenerate_body(served.site))
        status = page.evaluate(
            "async (body) => { try { const r = await fetch('/api/feedback', {method: 'POST', body,"
            " headers: {'Content-Type': 'application/json'}}); return r.status; } catch (e) { return 0; } }",
            body,
        )
        assert status in (0, 403), status
        # in the board's frames, under the same policy, the variants' pin agent still works
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.goto(f"{served.base}/boards/{BOARD}/index.html")
        page.wait_for_selector("#submit-btn")
        frame = agent_frame(page, "b-map-first.html")
        page.click(".pin-mode-btn[data-variant=B]")
        rect = frame.evaluate(
            "(() => { const r = document.querySelector('[data-pin=search]').getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        screen = page.locator(".screen[data-variant=B]").bounding_box()
        scale = float(page.get_attribute(".frame-wrap[data-variant=B]", "data-scale") or 1)
        assert screen is not None
        page.mouse.click(screen["x"] + rect[0] * scale, screen["y"] + rect[1] * scale)
        page.wait_for_selector(".pin-editor[data-variant=B]:not([hidden])", timeout=10_000)
    finally:
        context.close()
    assert not (served.store / BOARD).exists() or not list((served.store / BOARD).glob("*.json"))


def agent_frame(page: Any, file: str) -> Any:
    """The variant's frame once its pin agent is running (polled: the CSP forbids evaluated strings)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        frame = next((f for f in page.frames if f.url.endswith(file)), None)
        if frame is not None and frame.evaluate("window.__pinupAgent === true"):
            return frame
        page.wait_for_timeout(100)
    raise AssertionError(f"no running agent in {file}")
