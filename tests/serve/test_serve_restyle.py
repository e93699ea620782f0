"""An edit of token values swaps the styles of open pages in place (scroll, drafts and the page itself
kept); an edit of what a page says still reloads it. Real `pinup serve`, real Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from serve_helpers import BOARD, start, wait_until

from pinup.serve.restyle import PageShapes, shape

OUTLINE = ('  outline: "#7b7567"', '  outline: "#7b7511"')
PROSE = ("Keep exactly one primary button per screen", "Keep exactly one primary button on each screen")
BORDER = "getComputedStyle(document.documentElement).getPropertyValue('--pinup-border').trim()"


def edit(ws: Path, old: str, new: str, name: str = "DESIGN.md") -> None:
    design = ws / name
    text = design.read_text(encoding="utf-8")
    assert old in text
    design.write_text(text.replace(old, new, 1), encoding="utf-8")


def mark(page: Any) -> None:
    """A value only this load of the page holds: a reload loses it."""
    page.evaluate("window.pinupSameLoad = 'yes'")


def same_load(page: Any) -> bool:
    return bool(page.evaluate("window.pinupSameLoad === 'yes'"))


BRIEF = ("brief: Which home screen", "brief: Which of these home screens")


@pytest.mark.browser
@pytest.mark.parametrize("query", ["", "?noSSE=1&pollInterval=150"], ids=["sse", "polling"])
def test_a_token_edit_swaps_styles_in_place_and_a_prose_edit_reloads(browser: Any, checkout: Path, query: str) -> None:
    """The same with the event stream and when the pages poll: a poll names the build the page
    shows and hears what it missed, so a change of styles only is never a reload."""
    ws = checkout / "site_src"
    server = start(checkout, "--no-open", "--timeout", "0")
    context = browser.new_context(viewport={"width": 375, "height": 480})  # the served pages' own CSP applies
    errors: list[str] = []
    try:
        guide = context.new_page()
        board = context.new_page()
        colours = context.new_page()
        for tab in (guide, board, colours):
            tab.on("pageerror", lambda e: errors.append(str(e)))
        guide.goto(f"{server.base}/guidelines.html{query}")
        colours.goto(f"{server.base}/colors.html{query}")
        for tab in (guide, colours):
            tab.wait_for_function("() => window.pinupLive && window.pinupLive.version()")
        with board.expect_response(lambda r: "/api/progress" in r.url or "/api/events" in r.url):
            board.goto(f"{server.base}/boards/{BOARD}/index.html{query}")  # its first answer names the build
        board.wait_for_selector("#submit-btn")
        board.check("input[name=preferred][value=B]")
        board.fill("#overall-feedback", "Half-written thoughts")
        board.click(".pin-mode-btn[data-variant=A]")  # a pin being placed: page state a reload would drop
        for tab, y in ((guide, 200), (board, 1500)):
            tab.evaluate(f"window.scrollTo({{top: {y}, behavior: 'instant'}})")
            assert tab.evaluate("window.scrollY") == y
            mark(tab)
        mark(colours)
        assert guide.evaluate(BORDER) == "#7b7567" and board.evaluate(BORDER) == "#7b7567"

        edit(ws, *OUTLINE)  # the border colour: in every stylesheet, and as text on the colours page only
        for tab in (guide, board):
            tab.wait_for_function(f"() => {BORDER} === '#7b7511'")
        colours.wait_for_function("() => document.body && document.body.textContent.includes('#7b7511')")
        assert same_load(guide) and same_load(board)  # swapped in place
        assert guide.evaluate("window.scrollY") == 200 and board.evaluate("window.scrollY") == 1500
        assert board.input_value("#overall-feedback") == "Half-written thoughts"
        assert board.is_checked("input[name=preferred][value=B]")
        assert board.get_attribute(".pin-mode-btn[data-variant=A]", "aria-pressed") == "true"
        assert board.locator("#update-banner").is_hidden() and board.locator("#banner").is_hidden()
        assert not same_load(colours)  # it shows the value as text: reloaded
        assert guide.locator("link[rel=stylesheet][href*='theme.css']").count() == 1  # the old sheet is gone

        mark(colours)
        edit(ws, *PROSE)  # words on the guidelines page: it reloads; the board and colours pages do not show them
        guide.wait_for_function(f"() => document.body && document.body.textContent.includes({PROSE[1]!r})")
        assert not same_load(guide)
        guide.wait_for_function("() => window.pinupLive && window.pinupLive.version()")
        assert same_load(board) and same_load(colours)
        assert board.input_value("#overall-feedback") == "Half-written thoughts"

        edit(ws / "boards" / BOARD, *BRIEF, name="board.yaml")  # words on the board: a new version, the draft kept
        board.wait_for_selector("#update-banner", state="visible")
        assert same_load(board) and board.input_value("#overall-feedback") == "Half-written thoughts"
        with board.expect_navigation():
            board.click("#update-reload")
        board.wait_for_function(f"() => document.body.textContent.includes({BRIEF[1][7:]!r})")
        assert not same_load(board)
        assert errors == []
    finally:
        context.close()
        server.stop()


def test_a_page_shape_ignores_styles_and_token_values_only(tmp_path: Path) -> None:
    page = (
        b"<html><head><style>:root{--a:#111}</style></head><body><p>Hello</p>"
        b'<section id="tweaks" class="panel"><input value="#111"></section>'
        b'<script type="application/json" id="board-config">{"build": "1"}</script></body></html>'
    )
    restyled = page.replace(b"--a:#111", b"--a:#222").replace(b'value="#111"', b'value="#222"').replace(b'"1"', b'"2"')
    assert shape(restyled) == shape(page)
    assert shape(page.replace(b"Hello", b"Hi")) != shape(page)
    assert shape(page.replace(b"<style>", b'<style media="print">')) != shape(page)
    unclosed = b"<p>a</p><style>x"
    assert shape(unclosed) != shape(b"<p>b</p><style>x")

    site = tmp_path / "site"
    (site / "boards" / "b").mkdir(parents=True)
    (site / "index.html").write_bytes(page)
    (site / "boards" / "b" / "index.html").write_bytes(page)
    (site / "boards" / "b" / "variant.html").write_bytes(page)
    shapes = PageShapes(site)
    shapes.prime()
    (site / "index.html").write_bytes(restyled)
    (site / "boards" / "b" / "index.html").write_bytes(page.replace(b"Hello", b"Hi"))
    changed = ["index.html", "boards/b/index.html", "boards/b/variant.html", "assets/theme.css", "search.js"]
    assert shapes.restyled(changed) == ["index.html", "assets/theme.css"]
    shapes.forget()  # after a failed build nothing counts as restyled until shapes are known again
    assert shapes.restyled(["index.html"]) == []
    assert shapes.restyled(["index.html"]) == ["index.html"]


def test_a_polling_page_hears_the_rebuilds_it_missed_as_one_event() -> None:
    from pinup_feedback.state import REBUILDS_KEPT, BoardStates

    states = BoardStates()
    states.site_version = "v1"
    states.rebuilt("v2", ["a.html", "b.html"], ["assets/theme.css", "a.html", "b.html"])  # styles only
    states.rebuilt("v3", ["b.html"], ["assets/theme.css"])  # b.html's words changed
    assert states.since_version("v3") is None and states.since_version("") is None  # nothing missed, or unknown
    assert states.since_version("v2") == {
        "type": "rebuilt",
        "version": "v3",
        "pages": ["b.html"],
        "restyled": ["assets/theme.css"],
    }
    # both rebuilds: a.html was only restyled, b.html changed in the second one
    assert states.since_version("v1") == {
        "type": "rebuilt",
        "version": "v3",
        "pages": ["a.html", "b.html"],
        "restyled": ["assets/theme.css", "a.html"],
    }
    assert states.since_version("v0") == {"type": "rebuilt", "version": "v3"}  # not remembered: reload
    states.rebuilt("v4", ["a.html"])  # a rebuild that did not say what it restyled: nothing in place
    assert "restyled" not in (states.since_version("v2") or {})
    for n in range(REBUILDS_KEPT):
        states.rebuilt(f"w{n}", [], [])
    assert states.since_version("v1") == {"type": "rebuilt", "version": f"w{REBUILDS_KEPT - 1}"}


def test_a_page_fetched_by_a_script_skips_the_script_hashes_only_a_document_needs(checkout: Path) -> None:
    """A board takes new styles by fetching its own page; hashing the page's inline scripts for a
    CSP is work for a document only (and the larger part of serving a board), so a fetch skips it
    and gets a policy that allows no inline script at all."""
    import httpx

    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        url = f"{server.base}/boards/{BOARD}/index.html"
        page = httpx.get(url, headers={"Sec-Fetch-Dest": "document"})
        fetched = httpx.get(url, headers={"Sec-Fetch-Dest": "empty"})
        assert page.status_code == fetched.status_code == 200 and page.content == fetched.content
        assert "'sha256-" in page.headers["content-security-policy"]
        policy = fetched.headers["content-security-policy"]
        assert policy.split("; ")[0] == "script-src 'self'" and "'sha256-" not in policy
    finally:
        server.stop()


def test_hashing_a_large_page_for_its_policy_does_not_hold_up_the_other_requests(checkout: Path) -> None:
    """A token edit reloads some tabs (their page shows the value as text) while others fetch new
    styles: hashing the reloading pages' scripts must not make the others wait."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    server = start(checkout, "--no-open", "--timeout", "0")
    row = "<p><span class=a>x</span><b>y</b><i title=t>z</i></p>\n"
    (checkout / "site" / "large.html").write_text(  # takes the policy's parser a second or more
        "<!doctype html><html><head><script>1</script></head><body>" + row * 25_000 + "</body></html>",
        encoding="utf-8",
    )

    def large() -> float:
        with httpx.stream("GET", f"{server.base}/large.html", headers={"Sec-Fetch-Dest": "document"}, timeout=60) as r:
            assert r.status_code == 200 and "'sha256-" in r.headers["content-security-policy"]
            return time.monotonic()

    try:
        with ThreadPoolExecutor(1) as pool:
            large_at = pool.submit(large)
            time.sleep(0.3)  # the large page is being hashed by now
            assert httpx.get(f"{server.base}/assets/theme.css").status_code == 200
            small_at = time.monotonic()
            assert small_at < large_at.result()  # answered while the large page was still being hashed
    finally:
        server.stop()


@pytest.mark.browser
def test_a_rebuild_between_loading_a_page_and_its_script_connecting_is_not_missed(browser: Any, checkout: Path) -> None:
    """The page names the build it came from: a rebuild that lands before its live script asks the
    server (a slow tab, a reload racing a quick edit) still brings the page up to date."""
    ws = checkout / "site_src"
    server = start(checkout, "--no-open", "--timeout", "0")
    context = browser.new_context()
    try:
        page = context.new_page()
        held: list[Any] = []
        page.route("**/_pinup/live.js", lambda route: held.append(route))  # answered after the edit's build
        page.goto(f"{server.base}/colors.html", wait_until="commit")
        page.wait_for_function("() => document.body && document.body.textContent.includes('#7b7567')")
        assert wait_until(lambda: held)
        edit(ws, *OUTLINE)  # the colours page shows the value as text
        assert wait_until(lambda: server.has("SERVE_REBUILT:"))
        held[0].continue_()
        page.wait_for_function("() => document.body && document.body.textContent.includes('#7b7511')")
    finally:
        context.close()
        server.stop()


@pytest.mark.browser
def test_a_polling_board_takes_a_rebuild_before_its_first_poll_in_place(browser: Any, checkout: Path) -> None:
    ws = checkout / "site_src"
    server = start(checkout, "--no-open", "--timeout", "0")
    context = browser.new_context()
    try:
        board = context.new_page()
        held: list[Any] = []
        released: list[bool] = []

        def hold(route: Any) -> None:  # every poll is answered after the edit's build
            if released:
                route.continue_()
            else:
                held.append(route)

        board.route("**/api/progress*", hold)
        board.goto(f"{server.base}/boards/{BOARD}/index.html?noSSE=1&pollInterval=150")
        board.wait_for_selector("#submit-btn")
        assert wait_until(lambda: held)
        board.fill("#overall-feedback", "Half-written thoughts")
        mark(board)
        edit(ws, *OUTLINE)
        assert wait_until(lambda: server.has("SERVE_REBUILT:"))
        released.append(True)
        for route in held:
            route.continue_()
        board.wait_for_function(f"() => {BORDER} === '#7b7511'")
        assert same_load(board) and board.input_value("#overall-feedback") == "Half-written thoughts"
    finally:
        context.close()
        server.stop()
