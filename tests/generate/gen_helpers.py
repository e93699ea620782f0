"""Helpers shared by the generation test modules."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result


def run_cli(*args: str) -> Result:
    """`pinup …` in-process (the fake server runs in this process too)."""
    from pinup.cli import cli

    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def snapshot(root: Path) -> dict[str, str]:
    """relative path -> sha256 of every file under root (to prove nothing changed)."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def load_yaml(path: Path) -> dict[str, Any]:
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def read_meta(board: Path, round_number: int) -> dict[str, Any]:
    return json.loads((board / f"round-{round_number}" / "meta.json").read_text(encoding="utf-8"))


def write_feedback(workspace: Path, board: str, record: dict[str, Any], stamp: str) -> dict[str, Any]:
    """A stored record as the feedback app writes it (schema v1 + id, receivedAt, kind)."""
    kind = "regenerate" if record.get("regenerated") else "final"
    rid = hashlib.sha256(stamp.encode()).hexdigest()[:32]
    full = {
        "schemaVersion": 1,
        "board": board,
        "round": 1,
        "clientId": "c-" + rid[:8],
        "reviewer": "Ana",
        "preferred": None,
        "ratings": {},
        "comments": {},
        "overall": None,
        "regenerated": False,
        "regenerateAction": None,
        "remixSpec": None,
        **record,
        "id": rid,
        "receivedAt": "2026-11-30T00:00:00.000000Z",
        "kind": kind,
    }
    folder = workspace / ".pinup" / "feedback" / board
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stamp}-{kind}-{rid}.json").write_text(json.dumps(full), encoding="utf-8")
    return full
