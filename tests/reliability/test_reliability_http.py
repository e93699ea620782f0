"""The feedback app refuses bad input with JSON 4xx, answers only to its own names, and its
pages carry a CSP: deep JSON, Host/Origin checks, reload symlinks, slow bodies, temp sweeping."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from payloads import feedback_body, http_api_event, invoke
from slow_body import feedback_post_head, serving

from pinup_feedback.app import create_app
from pinup_feedback.csp import policy, script_hashes
from pinup_feedback.server import FeedbackServer
from pinup_feedback.settings import Settings
from pinup_feedback.store.durable import remove_stale_temps

TOKEN = "reload-token"


def make_site(root: Path) -> Path:
    site = root / "site"
    folder = site / "boards" / "hero"
    folder.mkdir(parents=True)
    (folder / "index.html").write_text(
        "<!doctype html><title>hero</title><script>var a = 1;</script>"
        '<script type="application/json" id="cfg">{"x": 1}</script>'
        '<iframe sandbox="allow-scripts" srcdoc="&lt;script&gt;var b = 2;&lt;/script&gt;"></iframe>'
    )
    (folder / "board.json").write_text(
        json.dumps({"board": "hero", "title": "Hero", "round": 1, "variants": ["A", "B"]})
    )
    (site / "index.html").write_text("<!doctype html><title>site</title>")
    return site


def body(**overrides: Any) -> dict[str, Any]:
    defaults = {"preferred": "B", "ratings": {"A": 3}, "regenerated": True, "regenerateAction": "different"}
    return feedback_body(**{**defaults, **overrides})


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path)


@pytest.fixture()
def settings(site: Path, tmp_path: Path) -> Settings:
    return Settings(
        mode="local", store=str(tmp_path / "store"), site_dir=site, reload_token=TOKEN, log_requests=False, rate_limit=0
    )


def client(settings: Settings, base: str = "http://127.0.0.1:8765") -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=create_app(settings), client=("127.0.0.1", 50000))
    return httpx.AsyncClient(transport=transport, base_url=base)


# --- deep JSON -------------------------------------------------------------------------------
@pytest.mark.anyio
@pytest.mark.parametrize(
    "raw",
    [
        deep(5000),
        '{"board": "hero", "ratings": ' + '{"a":' * 3000 + "1" + "}" * 3000 + "}",
        '{"board": "hero", "comments": {"A": ' + deep(40) + "}}",
    ],
    ids=["top-5000", "ratings-3000", "comments-40"],
)
async def test_deep_json_is_a_400_json_error_locally(settings: Settings, raw: str) -> None:
    async with client(settings) as http:
        r = await http.post("/api/feedback", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] in ("too_deep", "not_an_object")


def test_deep_json_is_a_400_json_error_through_mangum(tmp_path: Path) -> None:
    settings = Settings(mode="hosted", store=str(tmp_path / "store"), log_requests=False)
    app = create_app(settings)
    for raw in (deep(5000), '{"ratings": ' + '{"a":' * 3000 + "1" + "}" * 3000 + "}"):
        response = invoke(app, http_api_event(raw))
        assert response["statusCode"] == 400, response
        assert json.loads(response["body"])["error"] == "too_deep"


# --- Host and Origin -------------------------------------------------------------------------
@pytest.mark.anyio
@pytest.mark.parametrize(
    "host",
    [
        "attacker.example:8765",
        "127.0.0.1:9999",
        "localhost.attacker.example:8765",
        "127.0.0.1.nip.io:8765",
        "",
        "127.0.0.1:8765@evil",
        "[::1",
    ],
)
async def test_foreign_host_is_refused_everywhere(settings: Settings, host: str) -> None:
    async with client(settings) as http:
        for method, path in (
            ("GET", "/boards/hero/index.html"),
            ("GET", "/api/progress?board=hero"),
            ("POST", "/api/feedback"),
        ):
            r = await http.request(method, path, json=body(), headers={"host": host, "origin": f"http://{host}"})
            assert r.status_code == 421 and r.json()["error"] == "host_not_allowed", (host, path)


@pytest.mark.anyio
@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LOCALHOST:8765"])
async def test_own_names_are_served(settings: Settings, host: str) -> None:
    async with client(settings) as http:
        r = await http.get("/healthz", headers={"host": host})
        assert r.status_code == 200
        r = await http.post("/api/feedback", json=body(), headers={"host": host, "origin": f"http://{host.lower()}"})
        assert r.status_code == 200, r.text


@pytest.mark.anyio
async def test_allow_host_adds_a_name(settings: Settings) -> None:
    extra = settings.model_copy(update={"allowed_hosts": ("review.example", "box.lan:9000")})
    async with client(extra) as http:
        assert (await http.get("/healthz", headers={"host": "review.example:8765"})).status_code == 200
        assert (await http.get("/healthz", headers={"host": "review.example"})).status_code == 200
        assert (await http.get("/healthz", headers={"host": "box.lan:9000"})).status_code == 200
        assert (await http.get("/healthz", headers={"host": "box.lan:8765"})).status_code == 421


@pytest.mark.anyio
@pytest.mark.parametrize(
    "origin",
    [
        "https://127.0.0.1:8765",
        "http://127.0.0.1:8766",
        "http://127.0.0.1",
        "http://127.0.0.1:8765.evil.example",
        "http://evil.example",
        "null",
        "http://127.0.0.1:8765/",
        "http://user@127.0.0.1:8765",
        "http://localhost:8765",
    ],
)
async def test_foreign_and_look_alike_origins_are_refused(settings: Settings, origin: str) -> None:
    async with client(settings) as http:
        r = await http.post("/api/feedback", json=body(), headers={"origin": origin})
    assert r.status_code == 403 and r.json()["error"] == "origin_not_allowed", origin


# --- reload never follows a symlink out of the site ------------------------------------------
@pytest.mark.anyio
async def test_reload_refuses_symlinks_out_of_the_site(settings: Settings, site: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "x").mkdir(parents=True)
    (outside / "x" / "index.html").write_text("secret")
    os.symlink(outside, site / "boards" / "linked")
    os.symlink(outside / "x" / "index.html", site / "boards" / "hero" / "leak.html")
    auth = {"authorization": f"Bearer {TOKEN}"}
    async with client(settings) as http:
        r = await http.post("/api/reload", json={"board": "linked"}, headers=auth)
        assert r.status_code == 403 and r.json()["error"] == "outside_site"
        for rel in (
            "boards/linked/x/index.html",
            "boards/hero/leak.html",
            "../outside/x/index.html",
            "boards/hero/../../../outside/x/index.html",
            "/etc/passwd",
        ):
            r = await http.post("/api/reload", json={"html": rel}, headers=auth)
            assert r.status_code == 403, rel
        assert (await http.post("/api/reload", json={"board": "hero"}, headers=auth)).status_code == 200


# --- temp files a crash left behind ----------------------------------------------------------
def dead_pid() -> int:
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except OSError:
            pass
        pid -= 1


def test_start_up_sweeps_temps_of_dead_writers_only(settings: Settings, site: Path) -> None:
    store = Path(settings.store)
    (store / "hero").mkdir(parents=True)
    dead = store / "hero" / f".20260101T000000Z-final-x.json.{dead_pid()}.0123abcd.tmp"
    claim = store / "_claims" / f".c.json.{dead_pid()}.89abcdef.tmp"
    claim.parent.mkdir()
    copy = site / "boards" / "hero" / f".feedback.json.{dead_pid()}.00000000.tmp"
    alive = store / "hero" / f".r.json.{os.getpid()}.deadbeef.tmp"
    record = store / "hero" / "20260101T000000Z-final-x.json"
    for path in (dead, claim, copy, alive, record):
        path.write_text("{}")
    create_app(settings)
    assert not dead.exists() and not claim.exists() and not copy.exists()
    assert alive.exists() and record.exists()
    assert remove_stale_temps(store) == []


# --- slow bodies -----------------------------------------------------------------------------
def test_body_shorter_than_content_length_times_out_with_408(settings: Settings) -> None:
    quick = settings.model_copy(update={"body_timeout": 1.0})
    server = FeedbackServer.for_app(create_app(quick))

    async def scenario() -> tuple[bytes, float]:
        async with serving(server) as port:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(feedback_post_head(port, 1000) + b'{"board":')
            await writer.drain()
            t0 = time.monotonic()
            data = await asyncio.wait_for(reader.read(), 20)  # read() returns once the server closes
            took = time.monotonic() - t0
            writer.close()
            await writer.wait_closed()
        return data, took

    data, took = asyncio.run(scenario())
    head, _, rest = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), data[:200]
    assert json.loads(rest)["error"] == "request_timeout"
    assert took < 15


# --- security headers ------------------------------------------------------------------------
@pytest.mark.anyio
async def test_pages_carry_csp_nosniff_and_no_referrer(settings: Settings) -> None:
    async with client(settings) as http:
        page = await http.get("/boards/hero/index.html")
        other = await http.get("/boards/hero/board.json")
    csp = page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert (
        "default-src 'none'" in csp and "frame-ancestors 'self'" in csp and "'unsafe-inline'" not in csp.split(";")[0]
    )
    assert script_hashes(page.text) == csp.split(";")[0].split()[2:]
    assert len(script_hashes(page.text)) == 2  # the inline script and the one in the srcdoc; not the JSON block
    assert "http:" not in csp and "https:" not in csp and "*" not in csp
    assert other.headers["content-security-policy"] == policy(None)
    assert other.headers["x-content-type-options"] == "nosniff"


def test_serve_refuses_a_malformed_allow_host() -> None:
    from click.testing import CliRunner

    from pinup.cli.serve import serve

    result = CliRunner().invoke(serve, ["--allow-host", "bad host/x", "--no-open"])
    assert result.exit_code == 2 and "--allow-host" in result.output
