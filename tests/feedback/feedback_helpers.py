"""Helpers shared by the feedback tests (imported by name: tests/feedback is on sys.path)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RELOAD_TOKEN = "reload-token-for-tests"


def make_site(root: Path, boards: dict[str, tuple[int, list[str]]]) -> Path:
    """A site directory with boards/<slug>/index.html and board.json manifests."""
    site = root / "site"
    for slug, (round_, variants) in boards.items():
        folder = site / "boards" / slug
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(f"<!doctype html><title>{slug}</title><h1>{slug}</h1>")
        (folder / "board.json").write_text(
            json.dumps({"board": slug, "title": slug.title(), "round": round_, "variants": variants})
        )
    (site / "index.html").write_text("<!doctype html><title>site</title>")
    return site


def body(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "schemaVersion": 1,
        "board": "hero",
        "round": 1,
        "clientId": "4b5f8c1e-1111-4222-8333-944455556666",
        "reviewer": "Ana",
        "preferred": "B",
        "ratings": {"A": 3, "B": 5},
        "comments": {"A": "too busy"},
        "overall": "B is clearer",
        "regenerated": False,
        "regenerateAction": None,
        "remixSpec": None,
        "website": "",
    }
    base.update(overrides)
    return base


def stored(store_dir: Path, board: str = "hero") -> list[dict[str, Any]]:
    """Every record file of a board, oldest first."""
    folder = store_dir / board
    if not folder.is_dir():
        return []
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
