"""Read stored feedback records for one board from a local store directory.

The layout is the feedback endpoint's (docs/feedback-api.md): `<store>/<board>/<ISO>-<kind>-<id>.json`
locally, and the same names under `<prefix>/feedback/<board>/<YYYY>/<MM>/<DD>/` on S3, which
`pinup.hosted.mirror` reads through a local copy. Records are tolerated field by field: a newer
schema or a hand-edited file never breaks results.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pinup.hosted.aws import S3Location
from pinup_feedback.records import BOARD_SLUG, StoredRecord

#: `<ISO timestamp>-<kind>-<id>.json`, the only files a store holds as records.
RECORD_NAME = re.compile(r"^[0-9][0-9A-Za-z:._+-]*-(final|regenerate)-[A-Za-z0-9_.-]+\.json$")


@dataclass
class LoadedRecords:
    """Records in receive order, plus how many files were unreadable (reported, not fatal)."""

    records: list[StoredRecord] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def check_board(board: str) -> str:
    if not BOARD_SLUG.match(board):
        raise ValueError(f"invalid board slug: {board!r}")
    return board


def _parse(name: str, data: bytes, out: LoadedRecords) -> None:
    try:
        out.records.append(StoredRecord.from_dict(json.loads(data)))
    except ValueError:
        out.skipped.append(name)


def _sort(out: LoadedRecords) -> LoadedRecords:
    out.records.sort(key=lambda r: (r.receivedAt, r.id))
    return out


def local_record_files(store: Path, board: str) -> Iterator[Path]:
    """Record files of a board in a local store (temp files and dotfiles are not records)."""
    folder = Path(store) / check_board(board)
    try:
        entries = os.scandir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return
    with entries:  # names sorted as text, files known from the folder's listing (no stat each)
        names = sorted(e.name for e in entries if RECORD_NAME.match(e.name) and e.is_file())
    for name in names:
        yield folder / name


def load_local(store: Path, board: str) -> LoadedRecords:
    out = LoadedRecords()
    for path in local_record_files(store, board):
        with open(path, "rb") as file:
            _parse(str(path), file.read(), out)
    return _sort(out)


def s3_feedback_prefix(location: S3Location, board: str | None = None) -> str:
    """`<prefix>/feedback/` or `<prefix>/feedback/<board>/`: what the endpoint writes under."""
    parts = ["feedback"] + ([check_board(board)] if board else [])
    return location.key(*parts) + "/"


def read_s3_manifest(client: Any, location: S3Location, board: str) -> dict[str, Any] | None:
    """The manifest `pinup publish` wrote at `<prefix>/boards/<slug>.json`, or None."""
    from botocore.exceptions import ClientError

    try:
        body = client.get_object(Bucket=location.bucket, Key=location.key("boards", f"{check_board(board)}.json"))
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in {"NoSuchKey", "404", "AccessDenied", "403"}:
            return None
        raise
    try:
        data = json.loads(body["Body"].read())
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
