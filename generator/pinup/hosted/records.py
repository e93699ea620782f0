"""Read stored feedback records for one board from a local store directory or an s3:// store.

Both layouts are the feedback endpoint's (docs/feedback-api.md): locally
`<store>/<board>/<ISO>-<kind>-<id>.json`, on S3
`<prefix>/feedback/<board>/<YYYY>/<MM>/<DD>/<ISO>-<kind>-<id>.json`. Records are
tolerated field by field: a newer schema or a hand-edited file never breaks results.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pinup.hosted.aws import S3Location, is_s3_url, parse_s3_url
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
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir()):
        if path.is_file() and RECORD_NAME.match(path.name):
            yield path


def load_local(store: Path, board: str) -> LoadedRecords:
    out = LoadedRecords()
    for path in local_record_files(store, board):
        _parse(str(path), path.read_bytes(), out)
    return _sort(out)


def s3_feedback_prefix(location: S3Location, board: str | None = None) -> str:
    """`<prefix>/feedback/` or `<prefix>/feedback/<board>/`: what the endpoint writes under."""
    parts = ["feedback"] + ([check_board(board)] if board else [])
    return location.key(*parts) + "/"


def iter_s3_records(client: Any, location: S3Location, board: str | None = None) -> Iterator[tuple[str, int]]:
    """(key, size) of every record object under the store's feedback prefix (optionally one board)."""
    paginator = client.get_paginator("list_objects_v2")
    for page in paginator.paginate(Bucket=location.bucket, Prefix=s3_feedback_prefix(location, board)):
        for obj in page.get("Contents", []):
            key = obj["Key"]
            if RECORD_NAME.match(key.rsplit("/", 1)[-1]):
                yield key, int(obj.get("Size", -1))


def iter_s3_record_keys(client: Any, location: S3Location, board: str | None = None) -> Iterator[str]:
    """Keys of every record object under the store's feedback prefix (optionally one board)."""
    for key, _ in iter_s3_records(client, location, board):
        yield key


def load_s3(client: Any, location: S3Location, board: str) -> LoadedRecords:
    out = LoadedRecords()
    for key in iter_s3_record_keys(client, location, board):
        body = client.get_object(Bucket=location.bucket, Key=key)["Body"].read()
        _parse(f"s3://{location.bucket}/{key}", body, out)
    return _sort(out)


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


def load_records(
    store: str | Path, board: str, *, endpoint_url: str | None = None, region: str | None = None
) -> LoadedRecords:
    """All records of `board` in `store` (a directory or s3://bucket/prefix)."""
    if is_s3_url(str(store)):
        from pinup.hosted.aws import s3_client

        return load_s3(s3_client(endpoint_url, region), parse_s3_url(str(store)), board)
    return load_local(Path(store), board)
