"""An open board page under a real `pinup serve` (watching): it follows edits to its board.yaml.

No draft: it reloads itself. A draft: it keeps it and offers the new version with a button.
A broken edit: it shows the build error and keeps working; the fix clears the error.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from serve_helpers import BOARD, start

pytestmark = pytest.mark.browser
TITLE = "title: Mossbook home screen"
# counts the messages each EventSource received, so a test edits only once the board is listening
COUNT_EVENTS = """(() => {
  const Real = window.EventSource;
  window.__events = 0;
  window.EventSource = function (url, opts) {
    const es = new Real(url, opts);
    es.addEventListener("message", () => { window.__events += 1; });
    return es;
  };
  window.EventSource.prototype = Real.prototype;
  Object.assign(window.EventSource, { CONNECTING: 0, OPEN: 1, CLOSED: 2 });
})();"""


def has_text(text: str) -> str:
    return f"() => document.querySelector('h1') && document.querySelector('h1').textContent.includes({text!r})"


def open_board(page, base: str) -> None:  # type: ignore[no-untyped-def]
    page.add_init_script(COUNT_EVENTS)
    page.goto(f"{base}/boards/{BOARD}/index.html")
    page.wait_for_function("() => window.pinupBoard && window.__events >= 1", timeout=30_000)
    page.evaluate("window.__sameTab = 'yes'")


def retitle(ws: Path, title: str) -> None:
    board_yaml = ws / "boards" / BOARD / "board.yaml"
    text = board_yaml.read_text(encoding="utf-8")
    assert TITLE in text
    board_yaml.write_text(text.replace(TITLE, f"title: {title}", 1), encoding="utf-8")


def test_no_draft_the_board_reloads_itself_with_the_new_text(page, checkout: Path) -> None:  # type: ignore[no-untyped-def]
    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        open_board(page, server.base)
        assert not page.evaluate(has_text("Trailside home"))
        retitle(checkout / "site_src", "Trailside home")
        page.wait_for_function(has_text("Trailside home"), timeout=30_000)
        assert page.evaluate("window.__sameTab") is None  # a reload, not a patch of the old page
        assert page.is_hidden("#update-banner")
    finally:
        server.stop()


def test_a_draft_is_kept_and_the_new_version_waits_for_a_click(page, checkout: Path) -> None:  # type: ignore[no-untyped-def]
    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        open_board(page, server.base)
        comment = ".feedback-input[data-variant='A']"
        page.fill(comment, "The button is too small for gloves")
        retitle(checkout / "site_src", "Trailside home")
        page.wait_for_selector("#update-banner", state="visible", timeout=30_000)
        assert page.text_content("#update-text") == "A new version of this board is ready."
        assert page.evaluate("window.__sameTab") == "yes"  # not reloaded: the comment is still there
        assert page.input_value(comment) == "The button is too small for gloves"
        assert not page.evaluate(has_text("Trailside home"))
        page.click("#update-reload")
        page.wait_for_function(has_text("Trailside home"), timeout=30_000)
        assert page.evaluate("window.__sameTab") is None
        assert page.input_value(comment) == "The button is too small for gloves"  # the draft came along
    finally:
        server.stop()


def test_a_broken_edit_shows_the_error_and_the_fix_clears_it(page, checkout: Path) -> None:  # type: ignore[no-untyped-def]
    board_yaml = checkout / "site_src" / "boards" / BOARD / "board.yaml"
    good = board_yaml.read_text(encoding="utf-8")
    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        open_board(page, server.base)
        board_yaml.write_text(good.replace("variants:", "variants: [", 1), encoding="utf-8")
        page.wait_for_selector("#banner", state="visible", timeout=30_000)
        banner = page.text_content("#banner") or ""
        assert "did not build" in banner and "board.yaml" in banner and "last good version" in banner
        # the page keeps working: the reviewer can go on writing
        comment = ".feedback-input[data-variant='B']"
        page.fill(comment, "The map is lovely")
        assert page.evaluate("window.pinupBoard.hasDraft()")
        board_yaml.write_text(good.replace(TITLE, "title: Fixed home", 1), encoding="utf-8")
        page.wait_for_selector("#update-banner", state="visible", timeout=30_000)
        assert page.is_hidden("#banner")  # the build works again: no stale error next to the offer
        assert page.input_value(comment) == "The map is lovely"
        assert page.evaluate("window.__sameTab") == "yes"
    finally:
        server.stop()
