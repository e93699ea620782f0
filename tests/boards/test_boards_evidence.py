"""Resolve with evidence, in Chromium against a real `pinup serve`: the next round's board shows the
agent's summary with its commit, PR link and screenshot, and the reviewer reopens the item from there."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import httpx
import pytest
from boards_helpers import PINUP, Served, post_reload, rebuild, wait_until
from PIL import Image

pytestmark = pytest.mark.browser

BOARD = "trail-home"
SHA = "9fceb02d0ae598e95dc970b74767f19372d61af8"
PR = "https://github.com/acme/trail/pull/42"


def screenshot(path: Path) -> Path:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), "#2f5bd3").save(buffer, "PNG")
    path.write_bytes(buffer.getvalue())
    return path


def items(served: Served) -> list[dict[str, object]]:
    found: list[dict[str, object]] = httpx.get(f"{served.base}/api/items", params={"board": BOARD}).json()["items"]
    return found


def test_next_round_shows_the_evidence_and_reopens(page, served: Served, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(served.board_url(BOARD))
    page.wait_for_selector("#submit-btn")
    page.fill(".feedback-input[data-variant=A]", "Header too small")
    page.check("input[name=preferred][value=A]")
    page.click("#submit-btn")
    page.wait_for_function("() => document.querySelector('#status').textContent === 'submitted'")
    assert wait_until(lambda: items(served))
    n = next(i["n"] for i in items(served) if i["kind"] == "comment")

    shot = screenshot(tmp_path / "header-after.png")
    done = subprocess.run(
        [*PINUP, "feedback", "resolve", str(n), "--board", BOARD, "--status", "resolved", "--summary",
         "Header is 48px now", "--commit", SHA, "--pr", PR, "--evidence", str(shot), "--src", str(served.src)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    board_yaml = served.src / "boards" / BOARD / "board.yaml"
    board_yaml.write_text(
        board_yaml.read_text().replace("round: 1", "round: 2") + "history:\n  - round: 1\n    variants: []\n"
    )
    rebuild(served)
    post_reload(served, BOARD)
    page.wait_for_function("() => document.body.dataset.round === '2'", timeout=20000)
    page.wait_for_selector("#earlier-items:not([hidden])")
    row = page.locator(f"#earlier-list li[data-item='{n}']")
    text = row.inner_text()
    assert "Resolved" in text and "What was done: Header is 48px now" in text and SHA in text
    link = row.locator(".item-pr a")
    assert (
        link.get_attribute("href") == PR
        and link.inner_text() == PR
        and link.get_attribute("rel") == "noopener noreferrer"
    )
    image = row.locator("img.item-evidence-img")
    image.wait_for()
    assert wait_until(lambda: image.evaluate("i => i.complete && i.naturalWidth") == 64)
    src = image.get_attribute("src") or ""
    served_image = httpx.get(src if src.startswith("http") else served.base + src)
    assert served_image.status_code == 200 and served_image.content == shot.read_bytes()
    # the summary, the evidence and then the reopen button, in that order, in one item
    order = row.evaluate("li => [...li.children].map(c => c.className || c.tagName)")
    assert order.index("item-summary") < order.index("item-evidence") < order.index("reopen-btn")

    row.locator(".reopen-btn").click()
    assert row.locator(".reopen-btn").get_attribute("aria-pressed") == "true"
    page.check("input[name=preferred][value=B]")
    page.click("#submit-btn")
    page.wait_for_function("() => document.querySelector('#status').textContent === 'submitted'")
    assert wait_until(lambda: next(i for i in items(served) if i["n"] == n)["status"] == "open")
    reopened = next(i for i in items(served) if i["n"] == n)
    assert reopened["commit"] == SHA  # what did not convince stays on show
    cli = subprocess.run(
        [*PINUP, "feedback", "handoff", "--board", BOARD, "--format", "json", "--src", str(served.src)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert cli.returncode == 0, cli.stderr
    [item] = [i for i in json.loads(cli.stdout)["items"] if i["n"] == n]
    assert item["status"] == "open" and item["pr"] == PR and item["evidence"]["name"] == "header-after.png"


def test_hostile_evidence_in_the_listing_stays_text(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    """What the listing says is set as text; only http(s) links and evidence names the route
    serves are ever made into links or images (a hand-edited store cannot do more)."""
    hostile = {
        "n": 7, "kind": "comment", "round": 0, "variant": "A", "text": "x", "severity": None, "pin": None,
        "status": "resolved", "summary": "<img src=x onerror=window.__xss=1>", "feedbackId": "f", "updatedAt": "t",
        "commit": "<b>abc</b>", "pr": "javascript:window.__xss=2",
        "evidence": {"file": "../../serve.json", "type": "image/png", "name": "<svg onload=window.__xss=3>"},
    }  # fmt: skip
    body = json.dumps({"board": BOARD, "items": [hostile]})
    page.route("**/api/items?*", lambda route: route.fulfill(status=200, body=body, content_type="application/json"))
    page.goto(served.board_url(BOARD))
    page.wait_for_selector("#earlier-items:not([hidden])")
    row = page.locator("#earlier-list li[data-item='7']")
    assert "<img src=x onerror=window.__xss=1>" in row.inner_text() and "<b>abc</b>" in row.inner_text()
    assert row.locator("a").count() == 0 and row.locator("img").count() == 0 and row.locator("b").count() == 0
    assert "javascript:window.__xss=2" in row.locator(".item-pr").inner_text()
    assert row.locator(".reopen-btn").count() == 1
    assert page.evaluate("window.__xss") is None
