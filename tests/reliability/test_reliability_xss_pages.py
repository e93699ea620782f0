"""XSS payloads in every reviewer field, posted to a real `pinup serve`, stay text wherever pinup
shows them again: the next round's board (earlier items), the results page, the board list and
the site under the real CSP in Chromium, and the agent hand-off (Markdown rendered to HTML)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import httpx
from markdown_it import MarkdownIt
from playwright.sync_api import Browser, Page
from reliability_helpers import BOARD, Served, manifest, start_serve

from pinup.handoff import quote

PAYLOADS = [
    '<img src=x onerror="window.__xss=1">',
    '"><svg onload="window.__xss=1">',
    "</script><script>window.__xss=1</script>",
    '</textarea><iframe srcdoc="<script>parent.__xss=1</script>">',
    "javascript:window.__xss=1",
    "{{7*7}}${7*7}<b>bold</b>[link](javascript:window.__xss=1)`code`",
    "\u202egnp.exe<style>*{display:none}</style>",
]
HOSTILE_TAGS = "script, img[src='x'], svg, iframe:not(.variant-frame), style:not(head style), [onerror], [onload], b"


def pin(n: int, variant: str, text: str) -> dict[str, object]:
    return {
        "id": f"p{n}",
        "variant": variant,
        "note": text,
        "severity": "major",
        "box": {"x": 0.1, "y": 0.1, "w": 0.2, "h": 0.2},
        "selector": text[:200],
        "text": text[:200],
        "html": text[:200],
    }


def post_everything(base: str, site: Path) -> None:
    """Every text field a reviewer controls, once per payload: name, comments, overall, the words
    for another round, pin notes with their selector, text and excerpt; then a final pick."""
    m = manifest(site)
    variants = m["variants"]
    with httpx.Client(base_url=base, headers={"origin": base}, timeout=30) as http:
        for n, text in enumerate(PAYLOADS):
            body = {
                "schemaVersion": 2,
                "board": BOARD,
                "round": m["round"],
                "clientId": f"00000000-0000-4000-8000-{n:012d}",
                "reviewer": text[:100],
                "preferred": variants[n % len(variants)],
                "ratings": {variants[0]: 3},
                "comments": {v: f"{v}: {text}" for v in variants},
                "overall": text,
                "regenerated": True,
                "regenerateAction": "custom",
                "regenerateText": text,
                "remixSpec": None,
                "pins": [pin(n, variants[0], text)],
                "website": "",
            }
            r = http.post("/api/feedback", json=body)
            assert r.status_code == 200, r.text
        final = {**body, "clientId": "00000000-0000-4000-8000-999999999999", "regenerated": False}
        final.update(regenerateAction=None, regenerateText=None, pins=[], overall=PAYLOADS[0])
        r = http.post("/api/feedback", json=final)
        assert r.status_code == 200, r.text


def build_with_results(src: Path, site: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pinup", "build", str(src), "--out", str(site), "--results"],
        check=True,
        capture_output=True,
        timeout=300,
    )


def next_round(src: Path, site: Path) -> None:
    """The board's next round (same variants)."""
    yaml_path = src / "boards" / BOARD / "board.yaml"
    yaml_path.write_text(yaml_path.read_text().replace("round: 1", "round: 2"))
    build_with_results(src, site)


def visit(browser: Browser, served: Served, check: Callable[[Page], None]) -> None:
    """Run `check` on a page under the real CSP; no CSP violation, no script error, no payload ran."""
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        check(page)
        assert page.evaluate("window.__xss") is None
    finally:
        context.close()
    assert problems == [], problems


def results_and_site(served: Served) -> Callable[[Page], None]:
    def check(page: Page) -> None:
        page.goto(f"{served.base}/boards/{BOARD}/results.html")
        page.wait_for_load_state("load")
        shown = page.inner_text("body")
        for text in PAYLOADS:
            assert text.strip()[:60] in shown, text
        assert page.locator(f"main :is({HOSTILE_TAGS})").count() == 0
        for path in ("/", "/boards/", f"/boards/{BOARD}/index.html", f"/boards/{BOARD}/results.html"):
            page.goto(served.base + path)
            page.wait_for_load_state("load")
            assert page.evaluate("window.__xss") is None, path

    return check


def earlier_items(served: Served) -> Callable[[Page], None]:
    def check(page: Page) -> None:
        page.goto(f"{served.base}/boards/{BOARD}/index.html")
        page.wait_for_selector("#earlier-items:not([hidden])", timeout=20_000)
        earlier = page.inner_text("#earlier-list")
        for text in PAYLOADS:
            assert text.strip() in earlier, text
        assert page.locator(f"#earlier-list :is({HOSTILE_TAGS})").count() == 0

    return check


def test_payloads_in_every_field_stay_text_on_every_page(built: tuple[Path, Path], browser: Browser) -> None:
    src, site = built
    served = start_serve(src, site, "--no-watch")
    try:
        post_everything(served.base, site)
    finally:
        served.stop()
    logged = "\n".join(served.stderr_lines)
    assert not [text for text in PAYLOADS if text[:20] in logged], "reviewer text in the server's log"
    for change, check in ((build_with_results, results_and_site), (next_round, earlier_items)):
        change(src, site)  # round 1's results page, then round 2's board with round 1's items
        served = start_serve(src, site, "--no-watch")
        try:
            visit(browser, served, check(served))
        finally:
            served.stop()
    assert manifest(site)["round"] == 2

    # the hand-off an agent reads: reviewer text cannot become markup once rendered
    out = subprocess.run(
        [sys.executable, "-m", "pinup", "feedback", "handoff", "--board", BOARD, "--src", str(src)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    tags = Tags()
    tags.feed(MarkdownIt("commonmark").render(out))
    assert not {"img", "svg", "script", "iframe", "style", "b", "textarea"} & {t for t, _ in tags.seen}, tags.seen
    assert all(not name.startswith("on") for _, attrs in tags.seen for name, _ in attrs), tags.seen
    assert all("javascript:" not in (value or "") for _, attrs in tags.seen for _, value in attrs)
    for text in PAYLOADS:  # still there, as a quoted string an agent can read back exactly
        assert quote(text) in out or quote(f"A: {text}") in out, text


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append((tag, attrs))
