"""The board page in real Chromium against a real `pinup serve` subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from boards_helpers import Served, post_reload, rebuild, start_serve, wait_until

pytestmark = pytest.mark.browser

BOARD = "trail-home"
FEEDBACK_CONTROLS = (
    "#feedback-form input, #feedback-form textarea, #feedback-form select, .star, .star-clear, "
    ".regen-chiclet, #submit-btn, #regen-btn"
)


def open_board(page, served: Served, query: str = "", board: str = BOARD):  # type: ignore[no-untyped-def]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served.board_url(board) + query)
    page.wait_for_selector("#submit-btn")
    page.pinup_errors = errors  # checked by tests that care
    return page


def status(page) -> str:  # type: ignore[no-untyped-def]
    return page.eval_on_selector("#status", "e => e.textContent")


def wait_status(page, value: str) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function(f"() => document.querySelector('#status').textContent === {json.dumps(value)}")


def all_disabled(page) -> bool:  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all(FEEDBACK_CONTROLS, "els => els.length > 10 && els.every(e => e.disabled)")


def test_pick_stars_comments_submit(page, served: Served, artifacts_dir: Path) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.fill("#reviewer-name", "Ines")
    page.check("input[name=preferred][value=B]")
    page.click(".stars[data-variant=B] .star[data-value='4']")
    page.click(".stars[data-variant=C] .star[data-value='3']")
    page.click(".stars[data-variant=A] .star[data-value='2']")
    page.click(".star-clear[data-variant=A]")  # cleared again: no rating for A
    assert page.get_attribute(".stars[data-variant=B] .star[data-value='4']", "aria-checked") == "true"
    assert page.get_attribute(".stars[data-variant=B] .star[data-value='3']", "aria-checked") == "false"
    assert page.get_attribute(".stars[data-variant=B] .star[data-value='5']", "aria-checked") == "false"
    page.fill(".feedback-input[data-variant=A]", "Too busy <b>here</b>")
    page.fill(".feedback-input[data-variant=B]", "Map is great")
    page.fill("#overall-feedback", "Go with the map")
    page.screenshot(path=str(artifacts_dir / "boards-before-submit.png"), full_page=True)
    page.click("#submit-btn")
    wait_status(page, "submitted")

    records = served.records(BOARD)
    assert len(records) == 1
    rec = records[0]
    assert rec["kind"] == "final" and rec["board"] == BOARD and rec["round"] == 1
    assert rec["preferred"] == "B"
    assert rec["ratings"] == {"B": 4, "C": 3}
    assert rec["comments"] == {"A": "Too busy <b>here</b>", "B": "Map is great"}
    assert rec["overall"] == "Go with the map"
    assert rec["reviewer"] == "Ines"
    assert rec["regenerated"] is False
    line = served.next_stdout()
    assert line["id"] == rec["id"]
    agent_copy = json.loads((served.site / "boards" / BOARD / "feedback.json").read_text())
    assert agent_copy["id"] == rec["id"]
    result = json.loads(page.eval_on_selector("#feedback-result", "e => e.textContent"))
    assert result["id"] == rec["id"] and result["preferred"] == "B"

    # lockdown: a read-only record with a next-steps message
    assert all_disabled(page)
    msg = page.locator("#success-msg")
    assert msg.is_visible() and "pinup feedback handoff" in msg.inner_text()
    assert page.locator("#error-box").is_hidden()
    page.screenshot(path=str(artifacts_dir / "boards-after-submit.png"), full_page=True)
    # the name is remembered; the draft is gone
    assert page.evaluate("localStorage.getItem('pinup:reviewer')") == "Ines"
    assert page.evaluate(f"localStorage.getItem('pinup:draft:{BOARD}:1')") is None
    page.reload()
    page.wait_for_selector("#submit-btn")
    wait_status(page, "submitted")  # still a read-only record after a reload in the same tab
    assert all_disabled(page)


def test_rating_is_one_radio_group_per_variant(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    """One Tab stop per variant's rating; arrow keys move the choice; Backspace clears."""
    open_board(page, served)
    group = page.get_by_role("radiogroup", name="Rating for B")
    assert group.count() == 1
    assert (
        page.eval_on_selector_all(".stars[data-variant=B] .star", "els => els.filter(e => e.tabIndex === 0).length")
        == 1
    )
    star = page.get_by_role("radio", name="Rate B 4 of 5")
    star.focus()
    page.keyboard.press("Space")
    assert page.get_attribute(".stars[data-variant=B] .star[data-value='4']", "aria-checked") == "true"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("window.pinupBoard.collect(false).ratings") == {"B": 5}
    assert page.evaluate("document.activeElement.dataset.value") == "5"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("window.pinupBoard.collect(false).ratings") == {"B": 3}
    # the checked star is the group's only Tab stop: Tab leaves the group (skipping Clear)
    assert page.eval_on_selector_all(".stars[data-variant=B] .star", "els => els.map(e => e.tabIndex)") == [
        -1,
        -1,
        0,
        -1,
        -1,
    ]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "comment-B"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.value") == "3"
    page.keyboard.press("Backspace")
    assert page.evaluate("window.pinupBoard.collect(false).ratings") == {}
    page.keyboard.press("End")
    assert page.evaluate("window.pinupBoard.collect(false).ratings") == {"B": 5}
    assert page.get_by_label("Comment on B").count() == 1
    assert page.get_by_label("Overall feedback").count() == 1
    assert page.get_by_role("radio", name="Prefer C").count() == 1


def test_draft_survives_reload(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.check("input[name=preferred][value=C]")
    page.click(".stars[data-variant=C] .star[data-value='5']")
    page.fill(".feedback-input[data-variant=C]", "draft comment")
    page.fill("#overall-feedback", "draft overall")
    page.reload()
    page.wait_for_selector("#submit-btn")
    assert page.is_checked("input[name=preferred][value=C]")
    assert page.input_value(".feedback-input[data-variant=C]") == "draft comment"
    assert page.input_value("#overall-feedback") == "draft overall"
    assert page.get_attribute(".stars[data-variant=C] .star[data-value='5']", "aria-checked") == "true"
    page.click("#submit-btn")
    wait_status(page, "submitted")
    assert page.evaluate(f"localStorage.getItem('pinup:draft:{BOARD}:1')") is None
    assert served.records(BOARD)[0]["comments"] == {"C": "draft comment"}


def regenerate(page, served: Served, setup) -> dict:  # type: ignore[no-untyped-def]
    setup()
    page.click("#regen-btn")
    wait_status(page, "regenerate")
    wait_until(lambda: (served.site / "boards" / BOARD / "feedback-pending.json").is_file())
    pending = json.loads((served.site / "boards" / BOARD / "feedback-pending.json").read_text())
    records = served.records(BOARD)
    assert len(records) == 1 and records[0]["kind"] == "regenerate"
    assert pending["id"] == records[0]["id"]
    assert page.locator("#progress-view").is_visible()
    assert page.locator("#retry-regen-btn").is_hidden()  # only after a generation failure
    assert all_disabled(page)
    return records[0]


def test_totally_different(page, served: Served, artifacts_dir: Path) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.click("#regen-btn")  # nothing chosen yet: a visible hint, nothing sent
    assert page.locator("#regen-error").is_visible()
    assert served.records(BOARD) == []
    rec = regenerate(page, served, lambda: page.click(".regen-chiclet[data-action=different]"))
    assert rec["regenerated"] is True and rec["regenerateAction"] == "different" and rec["remixSpec"] is None
    page.screenshot(path=str(artifacts_dir / "boards-regenerate-progress.png"), full_page=True)


def test_more_like_b(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)

    def setup() -> None:
        page.click(".stars[data-variant=B] .star[data-value='5']")
        page.click(".more-like-this[data-variant=B]")

    rec = regenerate(page, served, setup)
    assert rec["regenerateAction"] == "more_like_B"
    assert rec["ratings"] == {"B": 5}


def test_remix(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)

    def setup() -> None:
        page.select_option("#remix-layout", "B")
        page.select_option("#remix-colors", "C")
        page.select_option("#remix-typography", "A")
        page.select_option("#remix-spacing", "B")
        assert page.get_attribute(".regen-chiclet[data-action=remix]", "aria-pressed") == "true"

    rec = regenerate(page, served, setup)
    assert rec["regenerateAction"] == "remix"
    assert rec["remixSpec"] == {"layout": "B", "colors": "C", "typography": "A", "spacing": "B"}


def test_custom_text(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    rec = regenerate(page, served, lambda: page.fill("#regen-custom", "Keep B's map, add C's serif headings"))
    assert rec["regenerateAction"] == "custom"
    assert rec["regenerateText"] == "Keep B's map, add C's serif headings"


def next_round(served: Served, round_no: int) -> None:
    """What an agent does between rounds: new variant files, board.yaml, rebuild, reload."""
    board_dir = served.src / "boards" / BOARD
    folder = board_dir / f"round-{round_no}" / "variants"
    folder.mkdir(parents=True)
    for vid in ("A", "B"):
        (folder / f"{vid.lower()}.html").write_text(
            f"<!doctype html><title>r{round_no}{vid}</title><h1>Round {round_no} variant {vid}</h1>"
        )
    (board_dir / "board.yaml").write_text(
        f"title: Mossbook home screen\nbrief: Round {round_no}\nround: {round_no}\nvariants:\n"
        f"  - id: A\n    label: New A\n    file: round-{round_no}/variants/a.html\n"
        f"  - id: B\n    label: New B\n    file: round-{round_no}/variants/b.html\n"
        f"history:\n  - round: {round_no - 1}\n    variants: []\n"
    )
    rebuild(served)  # reloads the board: its round changed
    post_reload(served, BOARD)  # and the agent's own reload_board, which the page already on round 2 ignores


@pytest.fixture()
def served_unwatched(workspace: Path) -> Iterator[Served]:
    """`pinup serve --no-watch`: the page moves on only when the agent says so (`next_round`).

    With the watcher on, next_round's edits of the workspace also rebuild and reload the page, a
    second reload that can land after the test has seen round 2 (it did at load average 10); the
    watcher's own reloads are tested in tests/serve/test_serve_watch.py.
    """
    s = start_serve(workspace, "--timeout", "0", "--no-watch")
    yield s
    s.stop()


@pytest.mark.parametrize("query", ["", "?noSSE=1&pollInterval=200"], ids=["sse", "polling"])
def test_regenerate_reload_submit_two_rounds(page, served_unwatched: Served, artifacts_dir: Path, query: str) -> None:  # type: ignore[no-untyped-def]
    served = served_unwatched
    open_board(page, served, query)
    page.click(".regen-chiclet[data-action=different]")
    page.click("#regen-btn")
    wait_status(page, "regenerate")
    page.wait_for_function("() => document.querySelector('#progress-message').textContent.length > 0")
    page.evaluate("window.__sameTab = true")  # survives only if no reload happened
    next_round(served, 2)
    # the page reloads itself, in the same tab, onto round 2
    page.wait_for_function("() => document.body.dataset.round === '2'", timeout=20000)
    assert page.evaluate("window.__sameTab === undefined")
    assert page.locator("#variant-C").count() == 0
    assert status(page) == ""
    page.check("input[name=preferred][value=A]")
    page.click(".stars[data-variant=A] .star[data-value='5']")
    page.click("#submit-btn")
    wait_status(page, "submitted")
    page.screenshot(path=str(artifacts_dir / f"boards-round2-submitted-{'poll' if query else 'sse'}.png"))
    records = served.records(BOARD)
    assert [(r["round"], r["kind"]) for r in records] == [(1, "regenerate"), (2, "final")]
    assert records[1]["preferred"] == "A" and records[1]["ratings"] == {"A": 5}


EVENT_LOG = """
window.__events = [];
const Native = window.EventSource;
window.EventSource = function (url, init) {
  const es = new Native(url, init);
  es.addEventListener("message", (ev) => window.__events.push(JSON.parse(ev.data)));
  window.__opened = es;
  return es;
};
window.EventSource.CONNECTING = 0; window.EventSource.OPEN = 1; window.EventSource.CLOSED = 2;
"""


def test_a_reload_for_the_build_on_screen_keeps_the_page(page, served_unwatched: Served) -> None:  # type: ignore[no-untyped-def]
    """An agent's own reload after `pinup build` (which reloaded already) leaves the tab alone; new contents do not."""
    served = served_unwatched
    page.add_init_script(EVENT_LOG)
    open_board(page, served)
    page.wait_for_function("() => window.__opened && window.__opened.readyState === 1 && window.__events.length > 0")
    build = json.loads((served.site / "boards" / BOARD / "board.json").read_text())["build"]
    assert page.evaluate("JSON.parse(document.querySelector('#board-config').textContent).build") == build
    page.evaluate("window.__kept = true")
    post_reload(served, BOARD)  # nothing was rebuilt: the page already shows this build
    page.wait_for_function("() => window.__events.some(e => e.reload)")
    assert [e.get("build") for e in page.evaluate("window.__events") if e.get("reload")] == [build]
    page.wait_for_timeout(600)  # the page would reload 150 ms after a reload it took
    assert page.evaluate("window.__kept") is True

    # new contents in the same round: a new build, and `pinup build` reloads the page itself
    variant = served.src / "boards" / BOARD / "variants" / "a-capture-first.html"
    variant.write_text(variant.read_text().replace("</body>", "<p id=fresh>fresh</p></body>"))
    assert f"reloaded {BOARD} (round 1)" in rebuild(served).stderr
    page.wait_for_function("() => window.__kept === undefined", timeout=20000)
    assert page.evaluate("JSON.parse(document.querySelector('#board-config').textContent).build") != build
    assert page.frame_locator("#variant-A iframe").locator("#fresh").count() == 1


def test_server_killed_shows_copyable_json(page, served: Served, artifacts_dir: Path) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.check("input[name=preferred][value=A]")
    page.fill("#overall-feedback", "server will be gone")
    served.stop()
    page.click("#submit-btn")
    page.wait_for_selector("#error-box:not([hidden])")
    body = json.loads(page.input_value("#feedback-json"))
    assert body["board"] == BOARD and body["preferred"] == "A" and body["overall"] == "server will be gone"
    assert "could not be reached" in page.inner_text("#error-box")
    href = page.get_attribute("#download-json", "href")
    assert href and (href.startswith("blob:") or href.startswith("data:"))
    assert status(page) == ""
    assert json.loads(page.eval_on_selector("#feedback-result", "e => e.textContent"))["preferred"] == "A"
    assert not page.is_disabled("#submit-btn")  # can try again later; the draft is kept
    assert json.loads(page.evaluate(f"localStorage.getItem('pinup:draft:{BOARD}:1')"))["preferred"] == "A"
    page.screenshot(path=str(artifacts_dir / "boards-server-killed.png"), full_page=True)


def test_double_submit_one_file_then_409_elsewhere(page, browser, served: Served) -> None:  # type: ignore[no-untyped-def]
    # a second reviewer whose page opened before the round closed (and does not hear about it)
    other = browser.new_context()
    try:
        p2 = other.new_page()
        open_board(p2, served, "?noSSE=1&pollInterval=600000")
        p2.wait_for_timeout(300)  # its one poll at load has answered: the round is still open
        open_board(page, served)
        page.check("input[name=preferred][value=B]")
        page.dblclick("#submit-btn")
        page.evaluate("document.querySelector('#feedback-form').requestSubmit()")
        wait_status(page, "submitted")
        wait_until(lambda: len(served.records(BOARD)) >= 1)
        assert len(served.records(BOARD)) == 1
        # the second reviewer's final submit for the same round: 409, said in words, JSON to copy
        p2.check("input[name=preferred][value=C]")
        p2.click("#submit-btn")
        p2.wait_for_selector("#error-box:not([hidden])")
        text = p2.inner_text("#error-box")
        assert "already closed" in text and "409" in text
        assert json.loads(p2.input_value("#feedback-json"))["preferred"] == "C"
    finally:
        other.close()
    assert len(served.records(BOARD)) == 1


def test_closed_round_shows_closed_on_load_in_every_tab(page, browser, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.check("input[name=preferred][value=A]")
    page.click("#submit-btn")
    wait_status(page, "submitted")
    for query in ("", "?noSSE=1&pollInterval=200"):
        other = browser.new_context()  # another browser profile: no shared storage
        try:
            p2 = other.new_page()
            open_board(p2, served, query)
            wait_status(p2, "closed")
            assert "This round is closed" in p2.inner_text("#banner")
            assert all_disabled(p2)
        finally:
            other.close()


def test_progress_timeout(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served, "?progressTimeout=1500")
    page.click(".regen-chiclet[data-action=different]")
    page.click("#regen-btn")
    wait_status(page, "regenerate")
    page.wait_for_selector("#progress-view.is-timeout", timeout=15000)
    assert "No new round arrived" in page.inner_text("#progress-message")


def test_file_url_submit_shows_json(page, workspace: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    site = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "pinup", "build", str(workspace), "--out", str(site)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((site / "boards" / BOARD / "index.html").as_uri())
    page.check("input[name=preferred][value=C]")
    page.click("#submit-btn")
    page.wait_for_selector("#error-box:not([hidden])")
    assert "Feedback cannot be sent from this copy" in page.inner_text("#error-box")
    body = json.loads(page.input_value("#feedback-json"))
    assert body["preferred"] == "C" and body["board"] == BOARD
    assert json.loads(page.eval_on_selector("#feedback-result", "e => e.textContent"))["preferred"] == "C"
    assert all(u.startswith(("file:", "data:", "blob:", "about:")) for u in requests), requests


def test_layout_controls(page, served: Served, artifacts_dir: Path) -> None:  # type: ignore[no-untyped-def]
    page.set_viewport_size({"width": 1400, "height": 900})
    open_board(page, served)
    xs = [page.locator(f"#variant-{v}").bounding_box()["x"] for v in "ABC"]
    assert len(set(round(x) for x in xs)) == 3  # side by side
    # each variant opens in the device its board.yaml declares (A: phone, the board: desktop)
    assert page.get_attribute(".frame-wrap[data-variant=A]", "data-device") == "phone"
    assert page.get_attribute(".device-btn[data-variant=A][data-device=phone]", "aria-pressed") == "true"
    assert page.eval_on_selector("#variant-A iframe", "f => f.style.width") == "375px"
    assert page.eval_on_selector("#variant-B iframe", "f => f.style.width") == "1440px"
    # device frames: a visible bezel, centred in the card
    for v in "AB":
        wrap = page.locator(f".frame-wrap[data-variant={v}]").bounding_box()
        screen = page.locator(f".screen[data-variant={v}]").bounding_box()
        card = page.locator(f"#variant-{v} .frame-stage").bounding_box()
        assert screen["x"] - wrap["x"] >= 5 and screen["y"] - wrap["y"] >= 5
        assert abs((wrap["x"] + wrap["width"] / 2) - (card["x"] + card["width"] / 2)) <= 2
    page.click(".view-btn[data-view=large]")
    xs = [page.locator(f"#variant-{v}").bounding_box()["x"] for v in "ABC"]
    assert len(set(round(x) for x in xs)) == 1  # one per row
    page.click(".device-btn[data-variant=A][data-device=tablet]")
    assert page.eval_on_selector("#variant-A iframe", "f => f.style.width") == "768px"
    page.click(".device-btn[data-variant=A][data-device=phone]")
    # Focus: one variant, at a readable scale, its controls beside it
    page.click(".focus-btn[data-variant=B]")
    assert page.locator("#variant-B").bounding_box()["y"] >= -1  # brought into view
    assert page.get_attribute(".focus-btn[data-variant=B]", "aria-pressed") == "true"
    assert page.locator("#variant-A").is_hidden() and page.locator("#variant-C").is_hidden()
    frame = page.locator(".screen[data-variant=B]").bounding_box()
    controls = page.locator("#variant-B .variant-feedback").bounding_box()
    assert controls["x"] >= frame["x"] + frame["width"] - 1  # beside, not below
    assert abs(controls["y"] - frame["y"]) < 60
    scale = float(page.get_attribute(".frame-wrap[data-variant=B]", "data-scale"))
    assert scale >= 0.6, scale  # a 1440 px desktop design at 60 % or more on a 1400 px screen
    page.screenshot(path=str(artifacts_dir / "boards-focus-1400.png"))
    page.click("#focus-next")
    assert page.locator("#variant-C").is_visible() and page.locator("#variant-B").is_hidden()
    page.keyboard.press("Escape")
    assert page.locator("#variant-A").is_visible() and page.locator("#variant-B").is_visible()
    assert page.get_attribute("#variants", "data-view") == "large"
    page.set_viewport_size({"width": 700, "height": 900})
    page.click(".view-btn[data-view=grid]")
    xs = [page.locator(f"#variant-{v}").bounding_box()["x"] for v in "ABC"]
    assert len(set(round(x) for x in xs)) == 1  # stacked below 768 px
    page.screenshot(path=str(artifacts_dir / "boards-phone.png"), full_page=True)


@pytest.mark.parametrize("width", [375, 768, 1440])
def test_phone_variant_readable_without_pressing_anything(
    page, served: Served, artifacts_dir: Path, width: int
) -> None:  # type: ignore[no-untyped-def]
    """The phone variant is laid out at (at most) phone width and shown unscaled, on any screen."""
    page.set_viewport_size({"width": width, "height": 900})
    open_board(page, served)
    page.wait_for_function("() => document.querySelector('#variant-A iframe').getBoundingClientRect().width > 0")
    scale = float(page.get_attribute(".frame-wrap[data-variant=A]", "data-scale"))
    assert scale == 1.0
    frame_width = page.eval_on_selector("#variant-A iframe", "f => f.getBoundingClientRect().width")
    assert 280 <= frame_width <= 375
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing sticks out sideways
    page.screenshot(path=str(artifacts_dir / f"boards-{width}.png"))


def test_variant_iframe_is_sandboxed(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.wait_for_function("() => document.querySelectorAll('iframe').length === 3")
    frame = next(f for f in page.frames if f.url.endswith("a-capture-first.html"))
    frame.wait_for_load_state()
    assert (
        frame.evaluate("() => { try { return parent.document.title; } catch (e) { return 'blocked'; } }") == "blocked"
    )
    assert (
        frame.evaluate("() => { try { localStorage.length; return 'open'; } catch (e) { return 'blocked'; } }")
        == "blocked"
    )


def test_image_board_submits(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served, board="sighting-badge")
    assert page.locator(".variant img").count() == 3
    assert page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    page.check("input[name=preferred][value=A]")
    page.click("#submit-btn")
    wait_status(page, "submitted")
    assert served.records("sighting-badge")[0]["preferred"] == "A"
    assert served.records(BOARD) == []


def test_token_header_sent_when_embedded(page, workspace: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A board built with --api-url posts there with X-Pinup-Board-Token (the hosted endpoint checks it)."""
    env_secret = "board-secret-for-test"
    served = start_serve(workspace, "--timeout", "0")
    try:
        site = tmp_path / "hosted-site"
        proc = subprocess.run(
            [sys.executable, "-m", "pinup", "build", str(workspace), "--out", str(site), "--api-url", served.base],
            capture_output=True,
            text=True,
            timeout=120,
            env={**__import__("os").environ, "PINUP_BOARD_SECRET": env_secret},
        )
        assert proc.returncode == 0, proc.stderr
        shutil.copytree(site / "boards" / BOARD, served.site / "boards" / "hosted-copy", dirs_exist_ok=True)
        seen: dict[str, str] = {}
        page.on("request", lambda r: seen.update(r.headers) if r.url.endswith("/api/feedback") else None)
        page.goto(f"{served.base}/boards/hosted-copy/index.html")
        page.check("input[name=preferred][value=A]")
        page.click("#submit-btn")
        page.wait_for_function(
            "() => document.querySelector('#status').textContent !== '' || !document.querySelector('#error-box').hidden"
        )
        import hashlib
        import hmac

        assert (
            seen.get("x-pinup-board-token") == hmac.new(env_secret.encode(), BOARD.encode(), hashlib.sha256).hexdigest()
        )
    finally:
        served.stop()


@pytest.mark.node
@pytest.mark.parametrize("board", ["trail-home", "sighting-badge"])
def test_axe_wcag_aa(browser, served: Served, node_bin: Path, board: str) -> None:  # type: ignore[no-untyped-def]
    """axe-core (from node_modules) finds no WCAG 2 A/AA violations, before and after an error."""
    axe = (node_bin.parent / "axe-core" / "axe.min.js").read_text()
    context = browser.new_context(bypass_csp=True)  # the served page's CSP rightly refuses axe's inline script
    page = context.new_page()
    script = (
        "async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']})).violations"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))"
    )
    open_board(page, served, board=board)
    page.add_script_tag(content=axe)
    assert page.evaluate(script) == []
    page.route(
        "**/api/feedback",
        lambda route: route.fulfill(status=500, content_type="application/json", body='{"error": "store_failed"}'),
    )
    page.click("#submit-btn")
    page.wait_for_selector("#error-box:not([hidden])")
    assert "HTTP 500" in page.inner_text("#error-box")
    assert page.evaluate(script) == []
    context.close()


def test_hosted_board_regenerate_has_no_live_progress(page, served: Served, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A board built with --api-url (hosted) says the next round will be published; it does not wait on SSE."""
    site = tmp_path / "hosted-site"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pinup",
            "build",
            str(served.src),
            "--out",
            str(site),
            "--api-url",
            served.base + "/api",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    shutil.copytree(site / "boards" / BOARD, served.site / "boards" / "hosted-copy", dirs_exist_ok=True)
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.goto(f"{served.base}/boards/hosted-copy/index.html")
    page.click(".regen-chiclet[data-action=different]")
    page.click("#regen-btn")
    wait_status(page, "regenerate")
    assert "published" in page.inner_text("#progress-message")
    assert f"{served.base}/api/feedback" in urls  # the trailing /api of --api-url is not doubled
    assert not any("/api/events" in u or "/api/progress" in u for u in urls)
    assert served.records(BOARD)[0]["regenerateAction"] == "different"
