"""The serve watcher skips the feedback store cheaply: every submission writes several files there."""

from __future__ import annotations

from pathlib import Path

from pinup.serve.watch import WorkspaceFilter
from pinup.workspace import Workspace


def test_store_writes_are_skipped_and_sources_are_kept(tmp_path: Path) -> None:
    src = tmp_path / "ws"
    keep = WorkspaceFilter(Workspace(src=src, out=tmp_path / "site", store=src / ".pinup" / "feedback"))
    for skipped in (
        src / ".pinup" / "feedback" / "hero" / "20260101T000000.000000Z-final-abc.json",
        src / ".pinup" / "feedback" / "_items" / "hero" / "n" / "0000000001.json",
        src / ".git" / "index",
        src / "boards" / ".hidden" / "a.html",
        src / "boards" / "hero" / "node_modules" / "x.js",
        src / "boards" / "hero" / "notes.md~",
        tmp_path / "site" / "index.html",
        tmp_path / "elsewhere.md",
    ):
        assert not keep(None, str(skipped)), skipped
    for kept in (src / "DESIGN.md", src / "boards" / "hero" / "board.yaml", src / "pinup.json"):
        assert keep(None, str(kept)), kept
