"""`pinup pdf`: the site (and a board) printed by real Chromium, read back with pypdf."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent.parent
SITE_SRC = ROOT / "site_src"
CHROMIUM = os.environ.get("PINUP_CHROMIUM", "/usr/bin/chromium")


def _pinup(*args: str, env: dict[str, str] | None = None, code: str | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PINUP_CHROMIUM": CHROMIUM, **(env or {})}
    head = [sys.executable, "-c", code] if code else [sys.executable, "-m", "pinup"]
    return subprocess.run([*head, *args], capture_output=True, text=True, timeout=600, env=full, check=False)


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> tuple[PdfReader, subprocess.CompletedProcess[str]]:
    out = tmp_path_factory.mktemp("pdf") / "site.pdf"
    proc = _pinup("pdf", str(SITE_SRC), "--out", str(out), "--board", "trail-home")
    assert proc.returncode == 0, proc.stderr
    return PdfReader(out), proc


def test_contents_page_lists_every_section_in_site_order(printed) -> None:
    reader, proc = printed
    contents = reader.pages[0].extract_text()
    assert "Contents" in contents
    order = ["Overview", "Colors", "Typography", "Layout", "Components", "Lint report", "Board:", "Feedback:"]
    positions = [contents.index(name) for name in order]
    assert positions == sorted(positions), contents
    assert f"({len(reader.pages)} pages" in proc.stderr


def test_bookmarks_point_at_the_pages_the_contents_names(printed) -> None:
    reader, _ = printed
    outline = {item.title: reader.get_destination_page_number(item) for item in reader.outline}
    assert outline["Contents"] == 0
    contents = reader.pages[0].extract_text()
    for title in ("Colors", "Typography", "Components"):
        printed_number = int(contents.split(title, 1)[1].split()[0])
        assert outline[title] + 1 == printed_number  # the printed numbers are 1-based
        assert title in reader.pages[outline[title]].extract_text()


def test_pages_carry_the_tokens_and_the_board(printed) -> None:
    reader, _ = printed
    text = "\n".join(page.extract_text() for page in reader.pages)
    design = (SITE_SRC / "DESIGN.md").read_text(encoding="utf-8")
    name = next(line.split(":", 1)[1].strip() for line in design.splitlines() if line.startswith("name:"))
    assert name in text
    assert "#" in text and "primary" in text.lower()
    outline = {item.title: reader.get_destination_page_number(item) for item in reader.outline}
    board_page = next(v for k, v in outline.items() if k.startswith("Board:"))
    board_text = reader.pages[board_page].extract_text()
    assert "Round" in board_text
    # the print stylesheet hides the controls: no search box, no theme toggle
    colors_text = reader.pages[outline["Colors"]].extract_text()
    assert "Skip to content" not in colors_text


def test_unknown_board_is_a_clear_error(tmp_path: Path) -> None:
    proc = _pinup("pdf", str(SITE_SRC), "--out", str(tmp_path / "x.pdf"), "--board", "nope")
    assert proc.returncode == 1
    assert "No board 'nope'" in proc.stderr and "trail-home" in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "x.pdf").exists()


def test_missing_chromium_is_a_clear_error(tmp_path: Path) -> None:
    proc = _pinup("pdf", str(SITE_SRC), "--out", str(tmp_path / "x.pdf"), env={"PINUP_CHROMIUM": str(tmp_path / "no")})
    assert proc.returncode == 1
    assert "Chromium not found" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_playwright_is_a_clear_error(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['playwright'] = None; sys.modules['playwright.sync_api'] = None\n"
        "from pinup.cli import main; sys.argv = ['pinup', *sys.argv[1:]]; main()"
    )
    proc = _pinup("pdf", str(SITE_SRC), "--out", str(tmp_path / "x.pdf"), code=code)
    assert proc.returncode == 1
    assert "pip install 'pinup[pdf]'" in proc.stderr and "Traceback" not in proc.stderr
