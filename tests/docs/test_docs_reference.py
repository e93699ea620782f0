"""The docs stay in step with the code: the CLI reference is generated, and every page is in the nav."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml  # PyYAML ships with MkDocs

from pinup.cli import COMMANDS, FEEDBACK_COMMANDS
from pinup.cli.reference import render

ROOT = Path(__file__).resolve().parents[2]


def test_cli_reference_is_current() -> None:
    # A fresh process: click caches each command's help option, so commands invoked
    # directly by earlier tests would otherwise render without their `-h` alias.
    fresh = subprocess.run(
        [sys.executable, "-m", "pinup.cli.reference"], capture_output=True, text=True, check=True
    ).stdout
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert page == fresh, "docs/cli.md is stale: run `python -m pinup.cli.reference > docs/cli.md`"
    assert render().startswith("# CLI reference")


def test_every_command_is_in_the_cli_reference() -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f"## `pinup {name}`" in page
    for name in FEEDBACK_COMMANDS:
        assert f"## `pinup feedback {name}`" in page


def _nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


def test_every_docs_page_is_in_the_nav() -> None:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    listed = {page for page in _nav_pages(config["nav"]) if page.endswith(".md")}
    present = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert present <= listed, f"pages missing from mkdocs.yml nav: {sorted(present - listed)}"


def test_python_dash_m_pinup_runs() -> None:
    result = subprocess.run([sys.executable, "-m", "pinup", "--version"], capture_output=True, text=True, check=False)
    assert result.returncode == 0
    assert "pinup" in result.stdout
