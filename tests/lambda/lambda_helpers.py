"""Helpers for the hosted tests (imported by name: tests/lambda is on sys.path)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pinup_feedback.store.base import iso_ts, new_id, now_utc

BUCKET = "pinup-feedback-test"
EVENTS = Path(__file__).parent / "events"


def feedback_body(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "schemaVersion": 1,
        "board": "hero",
        "round": 1,
        "clientId": new_id(),
        "reviewer": "Ana",
        "preferred": "B",
        "ratings": {"A": 3, "B": 5},
        "comments": {"B": "clear"},
        "overall": "ok",
        "regenerated": False,
        "regenerateAction": None,
        "remixSpec": None,
        "website": "",
    }
    base.update(overrides)
    return base


def record(board: str = "hero", kind: str = "final", **extra: Any) -> dict[str, Any]:
    return {**feedback_body(board=board), "id": new_id(), "receivedAt": iso_ts(now_utc()), "kind": kind, **extra}


def all_keys(client: Any, prefix: str = "") -> list[str]:
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix)
    return sorted(o["Key"] for page in pages for o in page.get("Contents", []))


def load_event(name: str) -> dict[str, Any]:
    return json.loads((EVENTS / f"{name}.json").read_text())
