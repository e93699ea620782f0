"""Built boards as their board.json tells them: what `pinup serve` compares to know what to reload.

Why here: the watcher, `pinup build`'s notice to a running server and `pinup serve --generate`
all ask "which round and which build is on disk now?"; the builder writes the answer (boards.build).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple


class BuiltBoard(NamedTuple):
    """A built board as its board.json tells it: the round, and the digest of what the page shows."""

    round: int
    build: str | None


def built_boards(out: Path) -> dict[str, BuiltBoard]:
    """slug -> round and build of every built board: a changed build means "reload its pages"."""
    boards: dict[str, BuiltBoard] = {}
    for manifest in sorted((out / "boards").glob("*/board.json")):
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
            build = data.get("build")
            boards[manifest.parent.name] = BuiltBoard(int(data["round"]), build if isinstance(build, str) else None)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return boards


__all__ = ["BuiltBoard", "built_boards"]
