"""`pinup pdf` with no SRC: the nearest workspace from the current folder up, as `pinup build` finds it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent.parent
SITE_SRC = ROOT / "site_src"
CHROMIUM = os.environ.get("PINUP_CHROMIUM", "/usr/bin/chromium")


def _pinup(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PINUP_CHROMIUM": CHROMIUM}
    return subprocess.run(
        [sys.executable, "-m", "pinup", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=cwd,
        check=False,
    )


def test_no_workspace_is_a_clear_error(tmp_path: Path) -> None:
    proc = _pinup("pdf", cwd=tmp_path)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("Error: workspace not found") and "DESIGN.md" in lines[0]
    assert not (tmp_path / "design-system.pdf").exists() and not (tmp_path / "site_src").exists()


def test_no_src_prints_the_workspace_above_the_current_folder(tmp_path: Path) -> None:
    workspace = tmp_path / "brand"
    (workspace / "notes").mkdir(parents=True)
    design = (SITE_SRC / "DESIGN.md").read_text(encoding="utf-8")
    renamed = "\n".join("name: Quillwort" if line.startswith("name:") else line for line in design.splitlines())
    (workspace / "DESIGN.md").write_text(renamed + "\n", encoding="utf-8")
    out = tmp_path / "brand.pdf"
    proc = _pinup("pdf", "--out", str(out), cwd=workspace / "notes")
    assert proc.returncode == 0, proc.stderr
    assert f"Printing the workspace {workspace.resolve()}" in proc.stderr
    reader = PdfReader(out)
    assert reader.metadata is not None and reader.metadata.title == "Quillwort"  # this workspace's DESIGN.md
    assert "Quillwort" in "\n".join(page.extract_text() for page in reader.pages)
    assert not (workspace / "notes" / "design-system.pdf").exists()
