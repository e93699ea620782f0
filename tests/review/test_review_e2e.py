"""`pinup review` of a small app on 127.0.0.1, in real Chromium with the pages' real CSPs.

Pins by mouse and by keyboard on two pages of the app, markers that belong to their page, the
submission in the store, and an agent claiming and resolving the item through the `mcp` SDK.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from review_app import SmallApp
from serve_process import ROOT, Served

pytestmark = pytest.mark.browser

BOARD = "review"
ENV = {"PYTHONPATH": os.pathsep.join([str(ROOT / "generator"), str(ROOT / "functions")])}
LIVE = ".pin-layer[data-variant=live] .pin-marker"


@pytest.fixture()
def review_page(browser: Any) -> Iterator[Any]:
    """A page with the served CSPs in force (no bypass): the review page's and the app's own."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.pinup_errors = []
    page.on("pageerror", lambda e: page.pinup_errors.append(str(e)))
    yield page
    context.close()


def poll(page: Any, check: Callable[[], object], timeout: float = 20) -> Any:
    """Wait for a condition the browser reaches (CSP forbids Playwright's string wait_for_function);
    waiting through the page lets Playwright take in the browser's events (frame navigations)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        page.wait_for_timeout(50)


def proxy_origin(served: Served) -> str:
    [line] = served.has("REVIEW_PROXY:")
    return line.split("proxy=", 1)[1].strip()


def live_frame(page: Any, origin: str, path: str) -> Any:
    """The framed app page at `path`, with the overlay loaded."""

    def find() -> Any:
        return next((f for f in page.frames if f.url == origin + path), None)

    frame = poll(page, find)
    assert frame is not None, [f.url for f in page.frames]
    frame.wait_for_load_state()

    def ready() -> bool:
        try:
            return bool(frame.evaluate("() => window.__pinupAgent === true"))
        except PlaywrightError:
            return False  # the frame is navigating (the app came back, say): ask its next page

    assert poll(page, ready)
    return frame


def open_review(page: Any, served: Served) -> Any:
    page.goto(served.url)
    page.wait_for_selector("#submit-btn")
    return live_frame(page, proxy_origin(served), "/")


def pins(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.pinupBoard.pins()")  # type: ignore[no-any-return]


def markers(page: Any) -> list[str]:
    return page.eval_on_selector_all(LIVE, "ms => ms.map(m => m.textContent)")  # type: ignore[no-any-return]


def on_signup(page: Any, frame: Any) -> bool:
    """Pin 1's marker sits on the sign-up button, wherever the frame's layout put it."""
    marker = page.locator(LIVE).bounding_box()
    screen = page.locator(".screen[data-variant=live]").bounding_box()
    scale = float(page.get_attribute(".frame-wrap[data-variant=live]", "data-scale") or 1)
    x, y, w, h = frame.evaluate(
        "() => { const r = document.querySelector('#signup').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }"
    )
    if marker is None or screen is None:
        return False
    cx, cy = marker["x"] + marker["width"] / 2, marker["y"] + marker["height"] / 2
    left, top = screen["x"] + x * scale, screen["y"] + y * scale
    return left - 2 <= cx <= left + w * scale + 2 and top - 2 <= cy <= top + h * scale + 2


async def agent_acts(src: Path, out: dict[str, Any]) -> None:
    """What a coding agent does with the review: list the items, claim the first, resolve it."""
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "pinup", "mcp", "--workspace", str(src)], env=ENV, cwd=str(src.parent)
    )
    async with Client(params, read_timeout_seconds=120) as client:

        def data(result: Any) -> Any:
            text = "".join(c.text for c in result.content if getattr(c, "type", "") == "text")
            assert not result.is_error, text
            if result.structured_content is not None and set(result.structured_content) == {"result"}:
                return result.structured_content["result"]
            return json.loads(text)

        out["items"] = data(await client.call_tool("list_items", {"board": BOARD}))
        out["claim"] = data(await client.call_tool("claim_item", {"n": 1, "board": BOARD, "agent": "agent-1"}))
        out["resolve"] = data(
            await client.call_tool(
                "resolve_item",
                {"n": 1, "board": BOARD, "status": "resolved", "summary": "Bigger sign-up button", "agent": "agent-1"},
            )
        )
        out["handoff"] = data(await client.call_tool("handoff", {"board": BOARD}))
        out["item"] = await client.call_tool("get_item", {"n": 1, "board": BOARD})


def run_agent(src: Path) -> dict[str, Any]:
    """The MCP session in a thread of its own (Playwright's sync API holds this thread's loop)."""
    out: dict[str, Any] = {}
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(agent_acts(src, out))
        except BaseException as exc:  # re-raised below
            errors.append(exc)

    worker = threading.Thread(target=target)
    worker.start()
    worker.join(180)
    assert not worker.is_alive() and errors == [], errors
    return out


def test_pins_by_mouse_and_keyboard_across_pages_are_stored_and_handed_to_an_agent(
    review_page: Any, reviewed: Served, small_app: SmallApp
) -> None:
    page = review_page
    origin = proxy_origin(reviewed)
    frame = open_review(page, reviewed)
    # the app's framing refusal was lifted for the review, its page is unchanged otherwise
    assert frame.inner_text("#title") == "Trailhead"

    # a pin by mouse on the home page
    page.click(".pin-mode-btn[data-variant=live]")
    frame.click("#signup")
    page.wait_for_selector(".pin-editor[data-variant=live]:not([hidden])")
    page.fill("#pin-note-live", "The sign-up button is too small")
    page.select_option("#pin-severity-live", "blocker")
    page.click(".pin-editor[data-variant=live] .pin-save")
    assert poll(page, lambda: markers(page) == ["1"])

    # the reviewer uses the app: a link to another page (pin mode is off, so clicks are the app's)
    frame.click("#to-pricing")
    frame = live_frame(page, origin, "/pricing")
    assert frame.inner_text("#visits") == "returning visitor"  # the app's cookie went there and back
    assert poll(page, lambda: markers(page) == [])  # pin 1 belongs to the home page

    # a pin by keyboard on the pricing page: Enter on the Pin button, Tab to the element, Enter
    page.focus(".pin-mode-btn[data-variant=live]")
    page.keyboard.press("Enter")
    frame.focus("a")
    frame.press("a", "Enter")
    page.wait_for_selector(".pin-editor[data-variant=live]:not([hidden])")
    assert page.evaluate("() => document.activeElement.id") == "pin-note-live"
    page.keyboard.type("Say where home is")
    page.keyboard.press("Tab")  # severity
    page.keyboard.press("Tab")  # Save pin
    page.keyboard.press("Enter")
    assert poll(page, lambda: len(pins(page)) == 2)
    assert poll(page, lambda: markers(page) == ["2"])

    first, second = pins(page)
    assert first["path"] == "/" and first["severity"] == "blocker" and first["selector"] == "#signup"
    assert first["text"] == "Sign up" and first["html"].startswith("<button")
    assert second["path"] == "/pricing" and second["selector"] and second["text"] == "Back home"
    for pin in (first, second):
        assert pin["viewport"]["w"] == 1440 and pin["viewport"]["h"] > 0

    # back on the home page, pin 1's marker sits on its element again
    frame.click("a")
    frame = live_frame(page, origin, "/")
    assert poll(page, lambda: markers(page) == ["1"])
    assert poll(page, lambda: on_signup(page, frame))
    # a narrower frame (the phone device) moves the button; the marker follows it
    page.click(".device-btn[data-variant=live][data-device=phone]")
    assert poll(page, lambda: on_signup(page, frame))

    page.fill("#overall-feedback", "Close to done")
    page.click("#submit-btn")
    assert poll(page, lambda: page.text_content("#status") == "submitted")
    [record] = reviewed.records(BOARD)
    assert [(p["path"], p["note"]) for p in record["pins"]] == [
        ("/", "The sign-up button is too small"),
        ("/pricing", "Say where home is"),
    ]
    assert record["pins"][0]["viewport"]["w"] == 1440 and record["overall"] == "Close to done"
    assert json.loads(reviewed.stdout_q.get(timeout=20))["id"] == record["id"]  # printed as serve prints it

    out = run_agent(reviewed.src)  # type: ignore[arg-type]
    first = next(i for i in out["items"]["items"] if i["n"] == 1)  # the page lists the newest first
    assert first["kind"] == "pin" and "sign-up button" in first["text"]
    assert out["claim"]["status"] == "in_progress"
    assert out["resolve"]["status"] == "resolved" and out["resolve"]["summary"] == "Bigger sign-up button"
    # the hand-off lists what is still open, each pin with the page it was placed on
    assert '"Say where home is"' in out["handoff"] and '- page: "/pricing" in a 1440x' in out["handoff"]
    assert "style=" not in out["handoff"]  # the overlay's focus outline is not in the excerpt
    # the agent sees what the reviewer saw: the app's page rendered again, cropped to the pinned button
    item = out["item"]
    assert not item.is_error and [c.type for c in item.content] == ["text", "image"]
    from PIL import Image

    crop = Image.open(io.BytesIO(base64.b64decode(item.content[1].data)))
    assert 0 < crop.width < 1440 and 0 < crop.height < 900
    assert page.pinup_errors == []


def test_a_page_script_cannot_post_to_pinups_api(review_page: Any, reviewed: Served) -> None:
    answers: list[tuple[str, int]] = []
    review_page.on(
        "response",
        lambda r: answers.append((r.request.method, r.status)) if r.url.endswith("/api/feedback") else None,
    )
    frame = open_review(review_page, reviewed)
    body = json.dumps({"schemaVersion": 1, "board": BOARD, "round": 1, "clientId": "0" * 32, "overall": "forged"})
    script = (
        "async ([url, body]) => { const out = [];"
        " try { const r = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'}, body});"
        " out.push('cors ' + r.status); } catch (e) { out.push('cors blocked'); }"
        " try { const r = await fetch(url, {method: 'POST', mode: 'no-cors', body}); out.push('simple ' + r.type); }"
        " catch (e) { out.push('simple blocked'); } return out; }"
    )
    result = frame.evaluate(script, [f"{reviewed.base}/api/feedback", body])
    assert result == ["cors blocked", "simple opaque"]  # the browser hides the answer from the page
    assert poll(review_page, lambda: ("POST", 403) in answers), answers  # the server refused the proxy's origin
    assert ("POST", 200) not in answers and reviewed.records(BOARD) == []


def live_frame_at(page: Any, frame: Any, url: str) -> Any:
    frame.goto(url)
    found = poll(page, lambda: next((f for f in page.frames if f.url == url), None))
    assert found is not None
    return found


def test_messages_from_another_origin_in_the_frame_are_ignored(
    review_page: Any, reviewed: Served, small_app: SmallApp
) -> None:
    page = review_page
    frame = open_review(page, reviewed)
    page.click(".pin-mode-btn[data-variant=live]")
    # a page of another origin in the frame (here pinup's own) is not listened to, even with the nonce
    other = live_frame_at(page, frame, reviewed.base + "/boards/")
    nonce = page.evaluate("() => window.pinupBoard.pinNonce")
    forged = {
        "pinup": 1,
        "nonce": nonce,
        "type": "picked",
        "path": "/",
        "selector": "#signup",
        "text": "Sign up",
        "html": "<button>",
        "rect": {"x": 1, "y": 1, "w": 10, "h": 10},
        "view": {"w": 1440, "h": 900},
    }
    other.evaluate("(msg) => window.parent.postMessage(msg, '*')", forged)
    page.wait_for_timeout(500)
    assert page.is_hidden(".pin-editor[data-variant=live]")  # the same message from the proxy's origin would open it
    assert pins(page) == []
    # and the review page's CSP keeps the frame on the proxy's origin (or pinup's own): not the app's
    with pytest.raises(PlaywrightError, match="ERR_BLOCKED_BY_CSP"):
        other.goto(small_app.origin + "/plain")


def test_a_message_of_the_wrong_shape_from_the_app_is_ignored(review_page: Any, reviewed: Served) -> None:
    page = review_page
    frame = open_review(page, reviewed)
    page.click(".pin-mode-btn[data-variant=live]")
    nonce = page.evaluate("() => window.pinupBoard.pinNonce")
    good = {
        "pinup": 1,
        "nonce": nonce,
        "type": "picked",
        "path": "/",
        "selector": "#signup",
        "rect": {"x": 1, "y": 1, "w": 10, "h": 10},
        "view": {"w": 1440, "h": 900},
    }
    post = "(msg) => window.parent.postMessage(msg, '*')"
    for bad in (
        {"path": "javascript:alert(1)"},
        {"rect": {"x": "1", "y": 1, "w": 1, "h": 1}},
        {"view": {"w": None, "h": 1}},
    ):
        frame.evaluate(post, {**good, **bad})
    page.wait_for_timeout(500)
    assert page.is_hidden(".pin-editor[data-variant=live]")
    frame.evaluate(post, good)  # the same message in its expected shape is taken
    page.wait_for_selector(".pin-editor[data-variant=live]:not([hidden])")


def test_an_app_that_is_down_is_named_and_the_draft_is_kept(
    review_page: Any, reviewed: Served, small_app: SmallApp
) -> None:
    page = review_page
    open_review(page, reviewed)
    page.click(".pin-add-btn[data-variant=live]")
    page.fill("#pin-note-live", "The whole page feels slow")
    page.click(".pin-editor[data-variant=live] .pin-save")
    assert poll(page, lambda: len(pins(page)) == 1)
    assert pins(page)[0]["path"] == "/"
    small_app.stop()
    frame = live_frame(page, proxy_origin(reviewed), "/")
    frame.click("#to-pricing")
    assert poll(page, lambda: page.is_visible("#review-status"))
    status = page.inner_text("#review-status")
    assert f"The app at {small_app.origin} is not answering (connection refused)" in status
    assert "Your notes and pins stay" in status
    assert len(pins(page)) == 1
    page.reload()
    page.wait_for_selector("#submit-btn")
    assert poll(page, lambda: [p["note"] for p in pins(page)] == ["The whole page feels slow"])  # the draft survived
    small_app.start()  # the same port again
    live = page.locator("#review-status")
    reload_button = page.locator(".review-reload")
    if reload_button.is_visible():
        try:
            reload_button.click(timeout=5000)
        except PlaywrightError:
            pass  # the button went away: the page reconnected to the app by itself
    live_frame(page, proxy_origin(reviewed), "/")
    assert poll(page, lambda: not live.is_visible())


def test_a_page_whose_csp_blocks_the_overlay_is_explained(review_page: Any, reviewed: Served) -> None:
    page = review_page
    frame = open_review(page, reviewed)
    assert not page.is_visible("#review-status")
    frame.goto(proxy_origin(reviewed) + "/strict")
    assert poll(page, lambda: page.is_visible("#review-status"), timeout=20)
    text = page.inner_text("#review-status")
    assert "did not load pinup's overlay" in text and "Content-Security-Policy" in text
    assert frame.evaluate("() => window.__pinupAgent === undefined")
