"""`pinup serve` watches the workspace: rebuilds, live-reloads site pages, reports broken edits, survives a restart."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import httpx
import pytest
from serve_helpers import start, wait_until

pytestmark = pytest.mark.browser
OLD, NEW = '  primary: "#3d5a2a"', '  primary: "#a1136b"'


def edit_colour(ws: Path, old: str = OLD, new: str = NEW) -> None:
    design = ws / "DESIGN.md"
    text = design.read_text(encoding="utf-8")
    assert old in text
    design.write_text(text.replace(old, new, 1), encoding="utf-8")


def shows_colour(page, hex_: str) -> str:  # type: ignore[no-untyped-def]
    return f"() => document.body && document.body.textContent.toLowerCase().includes({hex_!r})"


@pytest.mark.parametrize("query", ["", "?noSSE=1&pollInterval=200"], ids=["sse", "polling"])
def test_colour_edit_reloads_the_page_and_keeps_its_scroll(page, checkout: Path, query: str) -> None:  # type: ignore[no-untyped-def]
    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        page.set_viewport_size({"width": 1000, "height": 500})
        page.goto(f"{server.base}/colors.html{query}")
        page.wait_for_function("() => window.pinupLive && window.pinupLive.version()")
        assert not page.evaluate(shows_colour(page, "#a1136b"))
        target = page.evaluate("Math.floor((document.documentElement.scrollHeight - innerHeight) / 2)")
        assert target > 100
        page.evaluate(f"window.scrollTo({{top: {target}, behavior: 'instant'}}); window.__sameTab = 'yes'")
        assert page.evaluate("window.scrollY") == target
        edit_colour(checkout / "site_src")
        page.wait_for_function(shows_colour(page, "#a1136b"), timeout=30_000)
        assert page.evaluate("window.__sameTab") is None  # reloaded ...
        page.wait_for_function(f"() => window.scrollY === {target}")  # ... where the reader was
        assert wait_until(lambda: server.has("SERVE_REBUILT:"))  # stderr is read by a thread of the test's
        # the live script is added by the server only: the built file does not carry it
        assert "/_pinup/live.js" not in (checkout / "site" / "colors.html").read_text(encoding="utf-8")
    finally:
        server.stop()


def test_broken_edit_shows_an_error_and_keeps_the_last_good_build(page, checkout: Path) -> None:  # type: ignore[no-untyped-def]
    ws = checkout / "site_src"
    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        page.goto(f"{server.base}/index.html")
        page.wait_for_function("() => window.pinupLive && window.pinupLive.version()")
        board_yaml = ws / "boards" / "trail-home" / "board.yaml"
        good = board_yaml.read_text(encoding="utf-8")
        board_yaml.write_text(good.replace("variants:", "variants: [", 1), encoding="utf-8")
        page.wait_for_selector("#pinup-live-error", timeout=30_000)
        banner = page.text_content("#pinup-live-error") or ""
        assert "board.yaml" in banner and "last good build" in banner
        # the server prints the line before it sends the event, but the test reads its stderr in a
        # thread of its own, which a busy machine can let fall behind the page
        assert wait_until(lambda: server.has("SERVE_BUILD_ERROR:"))
        errors = server.has("SERVE_BUILD_ERROR:")
        assert "board.yaml" in errors[0]
        assert httpx.get(f"{server.base}/boards/trail-home/index.html", timeout=10).status_code == 200
        assert server.proc.poll() is None
        page.evaluate("window.__sameTab = 'yes'")
        board_yaml.write_text(good, encoding="utf-8")  # fixed: the banner goes, the page is current
        page.wait_for_function("() => !document.getElementById('pinup-live-error')", timeout=30_000)
    finally:
        server.stop()


def test_restart_on_the_same_port_and_the_open_page_carries_on(page, checkout: Path) -> None:  # type: ignore[no-untyped-def]
    first = start(checkout, "--no-open", "--timeout", "0")
    try:
        page.goto(f"{first.base}/colors.html")
        page.wait_for_function("() => window.pinupLive && window.pinupLive.version()")
    finally:
        first.stop()
    second = start(checkout, "--no-open", "--timeout", "0")
    try:
        assert second.port == first.port
        time.sleep(2.5)  # longer than the stream's `retry:`: the page has reconnected by now
        edit_colour(checkout / "site_src")
        page.wait_for_function(shows_colour(page, "#a1136b"), timeout=30_000)
    finally:
        second.stop()


def test_event_storm_coalesces_and_no_watch_turns_it_off(checkout: Path) -> None:
    ws = checkout / "site_src"
    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        design = ws / "DESIGN.md"
        text = design.read_text(encoding="utf-8")
        for n in range(300):  # an editor's autosave storm
            design.write_text(text.replace(OLD, f'  primary: "#a1{n % 100:02d}6b"', 1), encoding="utf-8")
        design.write_text(text.replace(OLD, NEW, 1), encoding="utf-8")
        assert wait_until(lambda: "#a1136b" in (checkout / "site" / "colors.html").read_text(encoding="utf-8"))
        time.sleep(1.0)  # any rebuild still queued has started by now
        assert wait_until(lambda: server.has("SERVE_REBUILT:"))
        # 301 saves: far fewer builds (how few depends on how fast this machine writes), none lost
        assert 1 <= len(server.has("SERVE_REBUILT:")) <= 20, server.lines
    finally:
        server.stop()

    quiet = start(checkout, "--no-open", "--timeout", "0", "--no-watch")
    try:
        edit_colour(ws, NEW, '  primary: "#0b0b0b"')
        time.sleep(2.0)  # a watching server rebuilds well within this
        assert not quiet.has("SERVE_REBUILT:")
        assert "#0b0b0b" not in (checkout / "site" / "colors.html").read_text(encoding="utf-8")
    finally:
        quiet.stop()


def test_workspace_deleted_under_the_server_is_one_clear_message(checkout: Path) -> None:
    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        shutil.rmtree(checkout / "site_src")
        assert wait_until(lambda: server.has("SERVE_WORKSPACE_GONE:"))
        time.sleep(1.0)
        gone = server.has("SERVE_WORKSPACE_GONE:")
        assert len(gone) == 1 and "still serving the last build" in gone[0]
        assert server.proc.poll() is None  # no crash, no loop
        assert httpx.get(f"{server.base}/colors.html", timeout=10).status_code == 200
        state = httpx.get(f"{server.base}/api/progress", params={"site": "1"}, timeout=10).json()
        assert "was removed" in state["buildError"]
    finally:
        server.stop()
