"""A stored feedback record: its shape, and the one way to read it, without pydantic.

The endpoint validates a submission's body (`schema.py`, pydantic: the body is untrusted); what it
stores is that body plus the fields `new_record` adds. Everything after that reads the record as the
plain JSON it is: the store's `read` gives the dict (the agent's commands and the items' lifecycle
use it as it is), and `StoredRecord.from_dict` gives the typed view of the fields that readers of
many records (results) count. Pydantic stays out of reading: importing it and the schema's models
was most of an agent command's CPU. The rule a board slug follows lives here too, for both packages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

#: a board's slug, as store keys and routes hold it
BOARD_SLUG_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"
BOARD_SLUG = re.compile(BOARD_SLUG_PATTERN)
#: an attachment's file as records name it, relative to its board's records: named by its content
ATTACHMENT_FILE_PATTERN = r"^attachments/[0-9a-f]{64}\.(png|jpg|webp)$"
ATTACHMENT_FILE = re.compile(ATTACHMENT_FILE_PATTERN)
#: an attachment file's extension -> its MIME type
ATTACHMENT_TYPES = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp"}


def record_attachments(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A stored record's attachments whose file names are well formed (a hand-edited record may hold
    anything: a reader never follows a name that could leave the board's attachments)."""
    found = record.get("attachments")
    if not isinstance(found, list):
        return []
    return [
        a for a in found if isinstance(a, dict) and isinstance(a.get("file"), str) and ATTACHMENT_FILE.match(a["file"])
    ]


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


def new_record(body: dict[str, Any], kind: str, client_hash: str, rid: str, received_at: str) -> dict[str, Any]:
    """A stored record: the validated body plus what the endpoint adds (the only place that does):
    its id, when it was received (`store.base.iso_ts`), its kind and the reviewer's client hash."""
    return {**body, "id": rid, "receivedAt": received_at, "kind": kind, "clientHash": client_hash}


@dataclass(slots=True)
class StoredRecord:
    """The fields of a stored record that results count; the rest of the record is not needed there."""

    id: str = ""
    board: str = ""
    round: int | None = None
    kind: str = "final"
    receivedAt: str = ""
    clientId: str | None = None
    reviewer: str | None = None
    preferred: str | None = None
    ratings: dict[str, Any] = field(default_factory=dict)
    comments: dict[str, Any] = field(default_factory=dict)
    overall: str | None = None
    regenerated: bool = False
    regenerateAction: str | None = None
    regenerateText: str | None = None
    remixSpec: dict[str, Any] | None = None

    @property
    def is_regenerate(self) -> bool:
        return self.kind == "regenerate" or self.regenerated

    @classmethod
    def from_dict(cls, raw: Any) -> StoredRecord:
        """The record's known fields, each checked for its type; ValueError names the first one that
        is not what the endpoint writes (a hand-edited or foreign file), so a reader can skip it."""
        if not isinstance(raw, dict):
            raise ValueError("a stored record is a JSON object")
        for name, kinds in _KINDS.items():
            value = raw.get(name)
            if name in raw and (not isinstance(value, kinds) or (type(value) is bool and bool not in kinds)):
                raise ValueError(f"{name} is {type(value).__name__}")
        return cls(**{name: raw[name] for name in _KINDS if name in raw})


_OPTIONAL_TEXT = (str, type(None))
#: the JSON types each field of `StoredRecord` takes (bool is not an int here)
_KINDS: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "board": (str,),
    "round": (int, type(None)),
    "kind": (str,),
    "receivedAt": (str,),
    "clientId": _OPTIONAL_TEXT,
    "reviewer": _OPTIONAL_TEXT,
    "preferred": _OPTIONAL_TEXT,
    "ratings": (dict,),
    "comments": (dict,),
    "overall": _OPTIONAL_TEXT,
    "regenerated": (bool,),
    "regenerateAction": _OPTIONAL_TEXT,
    "regenerateText": _OPTIONAL_TEXT,
    "remixSpec": (dict, type(None)),
}
assert set(_KINDS) == {f.name for f in fields(StoredRecord)}, "every field of StoredRecord has its JSON types"
