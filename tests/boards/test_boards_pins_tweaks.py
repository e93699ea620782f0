"""Pins and tweaks on a board, in real Chromium against a real `pinup serve`.

The variant frames stay sandboxed (no allow-same-origin): pins and tweaks travel over
postMessage to the agent script the build adds to each HTML variant.
"""

from __future__ import annotations

import json
import time

import pytest
from boards_helpers import Served

pytestmark = pytest.mark.browser

BOARD = "trail-home"


def open_board(page, served: Served, board: str = BOARD):  # type: ignore[no-untyped-def]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served.board_url(board))
    page.wait_for_selector("#submit-btn")
    page.pinup_errors = errors
    return page


def frame_of(page, file: str):  # type: ignore[no-untyped-def]
    page.wait_for_function(
        f"() => Array.from(document.querySelectorAll('iframe')).some(f => f.src.endsWith({json.dumps(file)}))"
    )
    for _ in range(200):
        frame = next((f for f in page.frames if f.url.endswith(file)), None)
        if frame is not None:
            frame.wait_for_load_state()
            frame.wait_for_function("() => window.__pinupAgent === true")
            return frame
        page.wait_for_timeout(50)
    raise AssertionError(f"no frame for {file}")


def marker_center(page, pin_number: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    box = page.locator(f".pin-marker:text-is('{pin_number}')").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def element_box(page, frame, selector: str, variant: str) -> dict:  # type: ignore[no-untyped-def]
    """The element's box in page coordinates (frame rect scaled by the frame's transform)."""
    rect = frame.evaluate(
        f"() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
        " return {x: r.left, y: r.top, w: r.width, h: r.height}; }"
    )
    screen = page.locator(f".screen[data-variant={variant}]").bounding_box()
    scale = float(page.get_attribute(f".frame-wrap[data-variant={variant}]", "data-scale"))
    return {
        "x": screen["x"] + rect["x"] * scale,
        "y": screen["y"] + rect["y"] * scale,
        "w": rect["w"] * scale,
        "h": rect["h"] * scale,
    }


def inside(point: tuple[float, float], box: dict, slack: float = 2) -> bool:
    x, y = point
    return box["x"] - slack <= x <= box["x"] + box["w"] + slack and box["y"] - slack <= y <= box["y"] + box["h"] + slack


def test_pin_by_click_follows_its_element_and_is_submitted(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    page.set_viewport_size({"width": 1400, "height": 1000})
    open_board(page, served)
    frame = frame_of(page, "b-map-first.html")
    page.click(".pin-mode-btn[data-variant=B]")
    assert page.get_attribute(".pin-mode-btn[data-variant=B]", "aria-pressed") == "true"
    target = '[data-pin="search"]'
    # a real mouse click on the scaled frame (Playwright's frame.click ignores the iframe's CSS scale)
    box = element_box(page, frame, target, "B")
    page.mouse.click(box["x"] + box["w"] / 2, box["y"] + box["h"] / 2)
    page.wait_for_selector(".pin-editor[data-variant=B]:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "pin-note-B"
    page.fill("#pin-note-B", "Search should say what it searches")
    page.select_option("#pin-severity-B", "minor")
    page.click(".pin-editor[data-variant=B] .pin-save")
    assert page.locator(".pin-list[data-variant=B] li").count() == 1
    assert "Search should say" in page.inner_text(".pin-list[data-variant=B]")
    page.wait_for_selector(".pin-layer[data-variant=B] .pin-marker")
    assert inside(marker_center(page, 1), element_box(page, frame, target, "B"))

    # the marker stays on its element when the device changes and the frame is resized
    page.click(".device-btn[data-variant=B][data-device=tablet]")
    page.wait_for_timeout(300)
    assert inside(marker_center(page, 1), element_box(page, frame, target, "B"))
    page.click(".view-btn[data-view=large]")
    page.set_viewport_size({"width": 900, "height": 1000})
    page.wait_for_timeout(300)
    assert inside(marker_center(page, 1), element_box(page, frame, target, "B"))
    page.click(".device-btn[data-variant=B][data-device=phone]")
    page.wait_for_timeout(300)
    assert inside(marker_center(page, 1), element_box(page, frame, target, "B"))

    pin = page.evaluate("window.pinupBoard.collect(false)")["pins"][0]
    assert pin["variant"] == "B" and pin["severity"] == "minor"
    assert pin["selector"].startswith(target)  # anchored on the nearest data-pin, then a structural path
    assert frame.evaluate(
        f"document.querySelector({json.dumps(pin['selector'])}).closest({json.dumps(target)}) !== null"
    )
    assert pin["note"] == "Search should say what it searches"
    assert 0 < len(pin["text"]) <= 200 and pin["html"].startswith("<") and len(pin["html"]) <= 800
    box = pin["box"]
    assert all(0 <= box[k] <= 1 for k in "xywh") and box["x"] + box["w"] <= 1 and box["y"] + box["h"] <= 1
    assert page.evaluate("window.pinupBoard.collect(false).schemaVersion") == 2
    assert page.pinup_errors == []


def test_marker_follows_scrolling_inside_the_frame(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    page.set_viewport_size({"width": 1400, "height": 1000})
    open_board(page, served)
    frame = frame_of(page, "a-capture-first.html")
    page.click(".pin-mode-btn[data-variant=A]")
    target = '[data-pin="log-sighting"]'
    frame.click(target)
    page.fill("#pin-note-A", "Bigger, please")
    page.click(".pin-editor[data-variant=A] .pin-save")
    page.wait_for_selector(".pin-layer[data-variant=A] .pin-marker")
    before = marker_center(page, 1)
    frame.evaluate("window.scrollBy(0, 120)")
    page.wait_for_function(
        f"() => (() => {{ const m = document.querySelector('.pin-layer[data-variant=A] .pin-marker');"
        f" return !m || Math.abs(m.getBoundingClientRect().top + m.offsetHeight / 2 - {before[1]}) > 50; }})()"
    )
    if page.locator(".pin-layer[data-variant=A] .pin-marker").count():
        assert inside(marker_center(page, 1), element_box(page, frame, target, "A"))


def test_pins_by_keyboard_edit_remove_and_image_box(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    # keyboard only: add a note on the whole variant, edit it, remove it
    page.focus(".pin-add-btn[data-variant=C]")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "pin-note-C"
    page.keyboard.type("The serif is hard to read outdoors")
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")  # severity: major -> minor
    page.focus(".pin-editor[data-variant=C] .pin-save")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent") == "Edit"
    page.keyboard.press("Enter")
    assert page.input_value("#pin-note-C") == "The serif is hard to read outdoors"
    page.fill("#pin-note-C", "The serif is hard to read in sunlight")
    page.focus(".pin-editor[data-variant=C] .pin-save")
    page.keyboard.press("Enter")
    pins = page.evaluate("window.pinupBoard.collect(false).pins")
    assert (
        len(pins) == 1 and pins[0]["note"] == "The serif is hard to read in sunlight" and pins[0]["severity"] == "minor"
    )
    assert pins[0]["box"] == {"x": 0, "y": 0, "w": 1, "h": 1} and "selector" not in pins[0]
    # pin mode through the keyboard inside the frame: Tab to an element, press Enter
    frame = frame_of(page, "c-journal-page.html")
    page.click(".pin-mode-btn[data-variant=C]")
    frame.focus("a.write")
    frame.press("a.write", "Enter")
    page.wait_for_selector(".pin-editor[data-variant=C]:not([hidden])")
    page.keyboard.type("A clearer button label")
    page.click(".pin-editor[data-variant=C] .pin-save")
    pins = page.evaluate("window.pinupBoard.collect(false).pins")
    assert len(pins) == 2 and pins[1]["selector"] and pins[1]["text"]
    # remove the first pin from the list
    page.click(".pin-list[data-variant=C] li:first-child .pin-remove")
    assert [p["note"] for p in page.evaluate("window.pinupBoard.collect(false).pins")] == ["A clearer button label"]
    # pins survive a reload as part of the draft
    page.reload()
    page.wait_for_selector(".pin-list[data-variant=C] li")
    assert len(page.evaluate("window.pinupBoard.collect(false).pins")) == 1


def test_image_pin_by_dragging_a_box(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served, board="sighting-badge")
    page.wait_for_function("() => document.querySelector('#variant-B img').complete")
    page.click(".pin-mode-btn[data-variant=B]")
    img = page.locator("#variant-B img").bounding_box()
    page.mouse.move(img["x"] + img["width"] * 0.25, img["y"] + img["height"] * 0.25)
    page.mouse.down()
    page.mouse.move(img["x"] + img["width"] * 0.5, img["y"] + img["height"] * 0.6, steps=4)
    page.mouse.up()
    page.wait_for_selector(".pin-editor[data-variant=B]:not([hidden])")
    page.fill("#pin-note-B", "Stamp border too thin")
    page.select_option("#pin-severity-B", "blocker")
    page.click(".pin-editor[data-variant=B] .pin-save")
    pin = page.evaluate("window.pinupBoard.collect(false).pins[0]")
    assert pin["severity"] == "blocker" and "selector" not in pin
    assert pin["box"]["x"] == pytest.approx(0.25, abs=0.02) and pin["box"]["y"] == pytest.approx(0.25, abs=0.02)
    assert pin["box"]["w"] == pytest.approx(0.25, abs=0.02) and pin["box"]["h"] == pytest.approx(0.35, abs=0.02)
    assert page.locator(".pin-layer[data-variant=B] .pin-box").count() == 1


def test_messages_without_the_nonce_or_from_elsewhere_are_ignored(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    frame = frame_of(page, "b-map-first.html")
    page.click(".pin-mode-btn[data-variant=B]")
    # a forged "picked" from inside the variant but without the nonce, and one from the board itself
    frame.evaluate(
        "parent.postMessage({pinup: 1, type: 'picked', selector: 'body', text: 'x', rect: {x:0,y:0,w:1,h:1},"
        " view: {w: 10, h: 10}}, '*')"
    )
    page.evaluate(
        "window.postMessage({pinup: 1, type: 'picked', nonce: window.pinupBoard.pinNonce, selector: 'body',"
        " rect: {x:0,y:0,w:1,h:1}, view: {w: 10, h: 10}}, '*')"
    )
    page.wait_for_timeout(300)
    assert page.locator(".pin-editor[data-variant=B]").is_hidden()
    # the sandbox is still closed
    assert (
        frame.evaluate("() => { try { return parent.document.title; } catch (e) { return 'blocked'; } }") == "blocked"
    )


def wait_in_frame(frame, expression: str, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    """Poll a predicate inside a variant frame (evaluate works there; a frame's wait_for_function may not)."""
    deadline = time.monotonic() + timeout
    while not frame.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        time.sleep(0.05)


def test_tweaks_apply_live_and_are_saved(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    frame = frame_of(page, "a-capture-first.html")
    capture = '[data-pin="log-sighting"]'
    assert frame.eval_on_selector(capture, "e => getComputedStyle(e).backgroundColor") == "rgb(61, 90, 42)"
    assert page.locator(".tweak-input").count() <= 8
    page.fill('.tweak-input[data-token="colors.primary"]', "#1a73e8")
    wait_in_frame(
        frame,
        f"() => getComputedStyle(document.querySelector({json.dumps(capture)})).backgroundColor === 'rgb(26, 115, 232)'",
    )
    radius = '.tweak-input[data-token="rounded.md"]'
    page.fill(radius, "14")
    assert page.inner_text(".tweak[data-token='rounded.md'] .tweak-value") == "14px"
    wait_in_frame(
        frame, "() => getComputedStyle(document.documentElement).getPropertyValue('--r-md').trim() === '14px'"
    )
    body = page.evaluate("window.pinupBoard.collect(false)")
    assert body["tweaks"] == {"colors.primary": "#1a73e8", "rounded.md": "14px"} and body["schemaVersion"] == 2
    page.click("#tweaks-reset")
    wait_in_frame(
        frame,
        f"() => getComputedStyle(document.querySelector({json.dumps(capture)})).backgroundColor === 'rgb(61, 90, 42)'",
    )
    assert "tweaks" not in page.evaluate("window.pinupBoard.collect(false)")
    assert page.evaluate("window.pinupBoard.collect(false).schemaVersion") == 1
