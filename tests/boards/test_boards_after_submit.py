"""The words after a final submit, in real Chromium against `pinup serve`: the reviewer who sent it
sees only the thank-you; "this round is closed" is for the other tabs and browsers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from boards_helpers import Served, wait_until

pytestmark = pytest.mark.browser

BOARD = "trail-home"
CLOSED = "This round is closed"


def open_board(page: Any, served: Served) -> Any:
    page.goto(served.board_url(BOARD))
    page.wait_for_selector("#submit-btn")
    return page


def wait_status(page: Any, value: str) -> None:
    page.wait_for_function(f"document.querySelector('#status').textContent === '{value}'")


def closed_on_server(served: Served) -> bool:
    return bool(httpx.get(f"{served.base}/api/progress", params={"board": BOARD}).json().get("closed"))


def test_your_own_final_submit_shows_only_the_thank_you(
    page: Any, browser: Any, served: Served, artifacts_dir: Path
) -> None:
    """The server tells every open page "done" before its answer to the POST is read; the page
    that sent it must not take that for someone else's choice, even when the stream wins the race."""
    other = browser.new_context(bypass_csp=True)
    try:
        elsewhere = open_board(other.new_page(), served)  # another reviewer, open during the submit
        open_board(page, served)
        page.wait_for_function("!!window.pinupBoard")

        def answer_late(route: Any) -> None:
            response = route.fetch()  # stored: the stream has sent "done" to every open page
            assert wait_until(lambda: closed_on_server(served), 10)
            time.sleep(1.0)  # let the event reach this page's stream before its answer does
            route.fulfill(response=response)

        page.route("**/api/feedback", answer_late)
        page.check("input[name=preferred][value=B]")
        page.click("#submit-btn")
        wait_status(page, "submitted")
        success = page.locator("#success-msg")
        assert success.is_visible() and "Thank you" in success.inner_text()
        assert page.locator("#banner").is_hidden(), page.inner_text("#banner")
        assert page.locator("#error-box").is_hidden()
        page.screenshot(path=str(artifacts_dir / "boards-own-submit.png"))

        # the reviewer open elsewhere learns of it live; one who opens the board now sees it on load
        wait_status(elsewhere, "closed")
        later = open_board(other.new_page(), served)
        wait_status(later, "closed")
        for tab in (elsewhere, later):
            assert CLOSED in tab.inner_text("#banner") and tab.locator("#success-msg").is_hidden()
            assert tab.is_disabled("#submit-btn")
    finally:
        other.close()

    page.reload()  # the same tab after a reload is still the reviewer who sent it
    wait_status(page, "submitted")
    assert page.locator("#banner").is_hidden() and page.locator("#success-msg").is_visible()
