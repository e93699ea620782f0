"""Stored feedback records read as the plain JSON they are, without pydantic.

The commands an agent runs once per item (`pinup feedback list/items/show/claim/resolve`) and the
items' lifecycle read records as dicts; only the endpoint validates them. Importing pydantic
and the schema's models for a read was most of such a command's CPU (about 60 of 140 ms), paid
on every call of an agent's claim-work-resolve loop. What those readers need of the schema lives
here, and `pinup_feedback.schema` re-exports it: the rule a board slug follows, and what a
regenerate request asks for.
"""

from __future__ import annotations

import re
from typing import Any

from .store.base import iso_ts, new_id, now_utc

#: a board's slug, as store keys and routes hold it
BOARD_SLUG_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"
BOARD_SLUG = re.compile(BOARD_SLUG_PATTERN)


def regenerate_request(record: dict[str, Any]) -> str | None:
    """What a stored regenerate request asks for: an action code, or the reviewer's own words.

    v2 keeps the words in `regenerateText` (with the action code `custom`), so words such as
    "different" are never read as the code; v1 records carry them in `regenerateAction`.
    """
    action = record.get("regenerateAction")
    if action == "custom" and isinstance(record.get("regenerateText"), str):
        return str(record["regenerateText"])
    return str(action) if action else None


def is_custom_request(record: dict[str, Any]) -> bool:
    """True when the request is the reviewer's own words (never an action code)."""
    return record.get("regenerateAction") == "custom" and isinstance(record.get("regenerateText"), str)


def new_record(
    body: dict[str, Any],
    kind: str,
    client_hash: str,
    *,
    rid: str | None = None,
    received_at: str | None = None,
) -> dict[str, Any]:
    """A stored record: the validated body plus what the endpoint adds (the only place that does).

    `rid` and `received_at` are given when a claim reserved them (a hosted final's retry)."""
    return {
        **body,
        "id": rid or new_id(),
        "receivedAt": received_at or iso_ts(now_utc()),
        "kind": kind,
        "clientHash": client_hash,
    }
