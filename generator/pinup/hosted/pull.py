"""Mirror hosted feedback (S3) into the local file store, so local tools read it unchanged.

S3 keys `<prefix>/feedback/<board>/<YYYY>/<MM>/<DD>/<name>.json` become
`<into>/<board>/<name>.json`: the same file names the local store writes, so
`pinup wait`, `pinup feedback list|show` and the hand-off need no hosted mode.

Idempotent and create-only: a file already present with the same bytes is skipped,
one with different bytes is reported as a conflict and left alone; new files are
written with the FileStore's own create-only path (temp file, fsync, hard link).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pinup.hosted.aws import S3Location
from pinup.hosted.records import iter_s3_records, s3_feedback_prefix
from pinup_feedback.records import BOARD_SLUG
from pinup_feedback.store.base import parse_name

#: where the hosted endpoint keeps its create-only idempotency claims (pinup_feedback.store.s3.CLAIMS)
CLAIMS = "_claims"

Outcome = Literal["pulled", "present", "conflict", "invalid"]


@dataclass
class PullReport:
    pulled: list[Path] = field(default_factory=list)
    present: list[Path] = field(default_factory=list)
    conflicts: list[Path] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "pulled": len(self.pulled),
            "present": len(self.present),
            "conflicts": [str(p) for p in self.conflicts],
            "invalid": self.invalid,
        }


def local_target(location: S3Location, key: str, into: Path) -> Path | None:
    """Where the object `key` goes locally, or None when the key is not a record of a valid board."""
    base = s3_feedback_prefix(location)
    if not key.startswith(base):
        return None
    rest = key[len(base) :].split("/")
    board, name = rest[0], rest[-1]
    if len(rest) < 2 or not BOARD_SLUG.match(board) or parse_name(name) is None:
        return None  # only names the local FileStore lists, so `pinup feedback` sees every pulled file
    return Path(into) / board / name


def write_create_only(target: Path, data: bytes) -> Outcome:
    """Create `target` durably the way the local FileStore does; never replace an existing file."""
    from pinup_feedback.store.durable import create_only

    if target.exists():
        return "present" if target.read_bytes() == data else "conflict"
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        create_only(target, data)
    except FileExistsError:
        return "present" if target.read_bytes() == data else "conflict"
    return "pulled"


def _valid_record(data: bytes) -> bool:
    try:
        return isinstance(json.loads(data), dict)
    except ValueError:
        return False


def pull(
    client: Any,
    location: S3Location,
    into: Path,
    *,
    boards: tuple[str, ...] = (),
    on_item: Callable[[str, Outcome, Path | None], None] | None = None,
) -> PullReport:
    """Copy every hosted record (of `boards`, or all) that the local store does not have yet.

    Hosted records are immutable (create-only puts), so a local file of the same size is taken
    as present without a GET; a different size fetches the object and reports a conflict.
    """
    report = PullReport()
    listed: list[tuple[str, int]] = []
    for board in boards or (None,):
        listed.extend(iter_s3_records(client, location, board))
    claims = s3_feedback_prefix(location) + CLAIMS + "/"
    for key, size in listed:
        if key.startswith(claims):  # the endpoint's idempotency markers, not records
            continue
        target = local_target(location, key, into)
        outcome: Outcome
        if target is None:
            report.invalid.append(key)
            outcome = "invalid"
        elif target.exists() and target.stat().st_size == size:
            report.present.append(target)
            outcome = "present"
        else:
            data = client.get_object(Bucket=location.bucket, Key=key)["Body"].read()
            if not _valid_record(data):
                report.invalid.append(key)
                outcome = "invalid"
            else:
                outcome = write_create_only(target, data)
                {"pulled": report.pulled, "present": report.present, "conflict": report.conflicts}[outcome].append(
                    target
                )
        if on_item:
            on_item(key, outcome, target)
    return report
