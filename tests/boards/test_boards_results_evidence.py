"""The results page lists resolved items with the agent's summary, commit, PR link and evidence (a
screenshot shown, a verify report linked), the files copied beside it, agent text escaped."""

from __future__ import annotations

import io
import subprocess
import sys
import uuid
from pathlib import Path

from bs4 import BeautifulSoup
from PIL import Image
from serve_process import copy_example

from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileStore

BOARD = "trail-home"
SHA = "9fceb02d0ae598e95dc970b74767f19372d61af8"


def pinup(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "pinup", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_results_page_shows_resolved_items_with_their_evidence(tmp_path: Path) -> None:
    src = copy_example(tmp_path / "ws")
    store = FileStore(src / ".pinup" / "feedback")
    store.save(
        {
            "schemaVersion": 1,
            "board": BOARD,
            "round": 1,
            "id": uuid.uuid4().hex,
            "receivedAt": iso_ts(now_utc()),
            "kind": "final",
            "clientHash": "0" * 16,
            "preferred": "A",
            "comments": {"A": "Header too small", "B": "Map labels <b>tiny</b>"},
        }
    )
    buffer = io.BytesIO()
    Image.new("RGB", (30, 20), "orange").save(buffer, "PNG")
    shot = tmp_path / "after.png"
    shot.write_bytes(buffer.getvalue())
    report = tmp_path / "verify"
    report.mkdir()
    (report / "index.html").write_text("<!doctype html><html><body><p>verdict: same</p></body></html>")
    s = ["--src", str(src), "--board", BOARD]
    pinup("feedback", "resolve", "1", "--status", "resolved", "--summary", "48px <script>alert(1)</script>",
          "--commit", SHA, "--pr", "https://example.com/pr/9", "--evidence", str(shot), *s)  # fmt: skip
    pinup("feedback", "resolve", "2", "--status", "resolved", "--summary", "Labels 14px", "--evidence", str(report), *s)
    site = tmp_path / "site"
    pinup("build", str(src), "--out", str(site), "--results")

    page = site / "boards" / BOARD / "results.html"
    html = page.read_text()
    assert "<script>alert(1)</script>" not in html and "<b>tiny</b>" not in html
    soup = BeautifulSoup(html, "html.parser")
    first = soup.select_one("#resolved li[data-item='1']")
    assert first is not None
    assert "What was done: 48px <script>alert(1)</script>" in first.get_text()
    assert first.select_one(".item-commit code").get_text() == SHA  # type: ignore[union-attr]
    assert first.select_one(".item-pr a")["href"] == "https://example.com/pr/9"  # type: ignore[index]
    img = first.select_one(".item-evidence img")
    assert img is not None and (page.parent / str(img["src"])).read_bytes() == shot.read_bytes()
    assert first.select_one("a[href='index.html#earlier-items']").get_text() == "Reopen #1 on the board"  # type: ignore[union-attr]
    second = soup.select_one("#resolved li[data-item='2']")
    assert second is not None and second.select_one(".item-evidence img") is None
    link = second.select_one(".item-evidence a")
    assert link is not None and link.get_text().startswith("Open the verify report")
    assert "verdict: same" in (page.parent / str(link["href"])).read_text()
