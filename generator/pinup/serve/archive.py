"""Stale agent files from an earlier session are moved aside at start, never deleted.

A `feedback.json` left in a board folder by yesterday's session would make an agent
think today's review is already done; moving it keeps the record and removes the trap.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path


def archive_stale(site: Path, archive_root: Path) -> list[Path]:
    """Move `site/boards/*/feedback*.json` to `archive_root/<UTC stamp>/<slug>/`; returns the new paths."""
    boards = site / "boards"
    if not boards.is_dir():
        return []
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    moved: list[Path] = []
    for path in sorted(boards.glob("*/feedback*.json")):
        if not path.is_file() or path.is_symlink():
            continue
        target_dir = archive_root / stamp / path.parent.name
        target_dir.mkdir(parents=True, exist_ok=True)
        target = target_dir / path.name
        n = 1
        while target.exists():  # never overwrite an archived file either
            target = target_dir / f"{path.stem}-{n}{path.suffix}"
            n += 1
        shutil.move(str(path), str(target))
        moved.append(target)
    return moved
