"""Find the feedback record that `pinup generate --from-feedback` builds on.

Why: reviewers' records live in the workspace's feedback store
(`<workspace>/.pinup/feedback/<board>/<ts>-<kind>-<id>.json`, written by the
feedback app); the next round follows the latest one for the current round.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pinup.generate.client import GenerationError


def feedback_root(workspace: Path) -> Path:
    return workspace / ".pinup" / "feedback"


def latest_feedback(workspace: Path, board: str, current_round: int | None = None) -> dict[str, Any]:
    """The newest record for the board, preferring ones about the current round."""
    folder = feedback_root(workspace) / board
    paths = sorted(p for p in folder.glob("*.json") if p.is_file()) if folder.is_dir() else []
    records: list[dict[str, Any]] = []
    for path in paths:
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(record, dict) and record.get("board", board) == board:
            records.append(record)
    if not records:
        raise GenerationError(
            "no_feedback", f"no feedback for board {board!r} in {folder} (collect some with `pinup serve`)"
        )
    same_round = [r for r in records if current_round is not None and r.get("round") == current_round]
    return (same_round or records)[-1]


def check_unused(record: dict[str, Any], board_folder: Path, current_round: int) -> None:
    """Refuse feedback that already made the current round (running --from-feedback twice)."""
    meta = board_folder / f"round-{current_round}" / "meta.json"
    try:
        used = json.loads(meta.read_text(encoding="utf-8")).get("sourceFeedbackId")
    except (OSError, ValueError, AttributeError):
        return
    if used and used == record.get("id"):
        raise GenerationError(
            "feedback_used",
            f"the latest feedback ({used}) already made round {current_round}; "
            "collect feedback on that round first (`pinup serve`, `pinup wait`), or run without --from-feedback",
        )
