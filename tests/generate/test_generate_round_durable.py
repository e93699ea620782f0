"""A generated round is durable before board.yaml names it: its files, its folders, its name, then board.yaml."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pinup.generate.rounds import NewVariant, resolve_board, write_round

ROOT = Path(__file__).resolve().parents[2]


def test_the_round_is_on_disk_before_board_yaml_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", workspace, ignore=shutil.ignore_patterns(".pinup"))
    ref = resolve_board("trail-home", workspace)
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    variants = [
        NewVariant(id="A", label="Calmer", description="", suffix=".html", data=b"<p>a</p>"),
        NewVariant(id="B", label="Bolder", description="", suffix=".png", data=b"\x89PNG\r\n\x1a\n" + b"\0" * 64),
    ]
    number, final = write_round(ref, 2, variants, {"prompt": "two more"})
    assert number == 2 and final == ref.folder / "round-2"
    assert (final / "variants" / "b.png").read_bytes() == variants[1].data
    board = str(ref.folder.resolve())
    staged = next(Path(path).parent.parent for path in synced if path.endswith("/variants/a.html"))
    stage = str(staged)
    assert synced[:6] == [
        f"{stage}/variants/a.html",
        f"{stage}/variants/b.png",
        f"{stage}/meta.json",
        f"{stage}/variants",
        stage,
        board,  # the round's new name
    ]
    assert os.path.dirname(synced[6]) == board and os.path.basename(synced[6]).startswith(".board.yaml.")
    assert synced[7:] == [board]  # board.yaml's new name
    assert "round-2/variants/a.html" in ref.board_file.read_text("utf-8")
