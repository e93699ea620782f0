"""Mirror hosted feedback (S3) into the local file store, so local tools read it unchanged.

S3 keys `<prefix>/feedback/<board>/<YYYY>/<MM>/<DD>/<name>.json` become
`<into>/<board>/<name>.json`: the same file names the local store writes, so
`pinup wait`, `pinup feedback list|show` and the hand-off need no hosted mode.

Idempotent and create-only: a file already present with the same bytes is skipped,
one with different bytes is reported as a conflict and left alone; new files are
written with the FileStore's own create-only path (temp file, fsync, hard link).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pinup.hosted.aws import S3Location
from pinup.hosted.records import RECORD_NAME, s3_feedback_prefix
from pinup_feedback.records import BOARD_SLUG
from pinup_feedback.store.base import parse_name

#: the local store's folder of pull cursors (a name no board can have)
PULLED = "_pulled"
#: the length of a file timestamp (`20261130T010203.123456Z`), which starts a late marker's name
TS_LEN = 23

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


def cursor_file(location: S3Location, into: Path, board: str) -> Path:
    """Where a pull keeps how far it got in one hosted store for one board: beside the local copy, in
    a folder that is no board (`_pulled/<digest of the store URL>/<board>.json`)."""
    digest = hashlib.sha256(location.url.encode()).hexdigest()[:16]
    return Path(into) / PULLED / digest / f"{board}.json"


@dataclass
class Cursor:
    """The newest record key and the newest late marker a pull took from one store for one board."""

    records: str | None = None
    late: str | None = None

    @classmethod
    def load(cls, path: Path) -> Cursor:
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError):
            return cls()  # none yet, or unreadable: the board is listed from the start
        fields = [data.get(name) if isinstance(data, dict) else None for name in ("records", "late")]
        return cls(*(value if isinstance(value, str) else None for value in fields))

    def save(self, path: Path) -> None:
        from pinup_feedback.atomicfile import replace_file

        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, json.dumps({"records": self.records, "late": self.late}).encode())


def _start_after(prefix: str, newest: str | None, late: bool) -> str | None:
    """Where a board's listing starts: RELIST before the newest key pulled (see S3Store.save)."""
    from pinup_feedback.store.s3 import relist_from

    if newest is None:
        return None
    name = newest.rsplit("/", 1)[1]
    if late:
        return prefix + relist_from(name[:TS_LEN])
    parsed = parse_name(name)
    if parsed is None:
        return None
    ts = relist_from(parsed[0])
    return f"{prefix}{ts[:4]}/{ts[4:6]}/{ts[6:8]}/{ts}"


def pull(
    client: Any,
    location: S3Location,
    into: Path,
    *,
    boards: tuple[str, ...] = (),
    on_item: Callable[[str, Outcome, Path | None], None] | None = None,
) -> PullReport:
    """Copy every hosted record (of `boards`, or all) that the local store does not have yet.

    A repeated pull lists only what is new: for each board, the keys from a little before the newest
    it pulled last time (keys sort by the time a record was received), and the markers of records
    stored late under an older time (see `pinup_feedback.store.s3.S3Store.save`). Hosted records are
    immutable (create-only puts), so a local file of the same size is taken as present without a
    GET; a different size fetches the object and reports a conflict.
    """
    from pinup_feedback.store.s3 import LATE, dated_keys, list_boards

    report, into = PullReport(), Path(into)
    base = s3_feedback_prefix(location)
    for board in boards or tuple(list_boards(client, location.bucket, base)):
        where = cursor_file(location, into, board)
        # a board folder deleted (or never made) is pulled again from the start, whatever the cursor says
        was = Cursor.load(where) if (into / board).is_dir() else Cursor()
        now = Cursor(was.records, was.late)
        prefix = s3_feedback_prefix(location, board)
        held = False  # a conflict keeps the cursor before it, so the next pull reports it again
        for key, size in dated_keys(client, location.bucket, prefix, _start_after(prefix, was.records, False)):
            if not RECORD_NAME.match(key.rsplit("/", 1)[1]):
                continue  # not a record (a note someone left): not reported, as before
            outcome = _take(client, location, key, size, into, report, on_item)
            held = held or outcome == "conflict"
            named = parse_name(key.rsplit("/", 1)[1]) is not None  # a cursor is a record's name
            if not held and named and (now.records is None or key > now.records):
                now.records = key
        late_prefix = f"{base}{LATE}/{board}/"
        for marker, _size in dated_keys(
            client, location.bucket, late_prefix, _start_after(late_prefix, was.late, True)
        ):
            name = marker.rsplit("/", 1)[1][TS_LEN + 1 :]
            parsed = parse_name(name)
            if parsed is not None:
                ts = parsed[0]
                key = f"{prefix}{ts[:4]}/{ts[4:6]}/{ts[6:8]}/{name}"
                if _take(client, location, key, None, into, report, on_item) == "conflict":
                    held = True
            if not held:
                now.late = marker
        if now != was and (into / board).is_dir():
            now.save(where)
    return report


def _take(
    client: Any,
    location: S3Location,
    key: str,
    size: int | None,
    into: Path,
    report: PullReport,
    on_item: Callable[[str, Outcome, Path | None], None] | None,
) -> Outcome | None:
    """Pull one record object unless the local copy has it (`size` None: a late record, known only
    by its marker, so any local file of its name is it). None: a marked record that is not stored
    (its request failed after the marker)."""
    from botocore.exceptions import ClientError

    target = local_target(location, key, into)
    outcome: Outcome
    if target is None:
        report.invalid.append(key)
        outcome = "invalid"
    elif target.exists() and (size is None or target.stat().st_size == size):
        report.present.append(target)
        outcome = "present"
    else:
        try:
            data = client.get_object(Bucket=location.bucket, Key=key)["Body"].read()
        except ClientError as exc:
            if size is None and exc.response.get("Error", {}).get("Code") in {"NoSuchKey", "404"}:
                return None
            raise
        if not _valid_record(data):
            report.invalid.append(key)
            outcome = "invalid"
        else:
            outcome = write_create_only(target, data)
            {"pulled": report.pulled, "present": report.present, "conflict": report.conflicts}[outcome].append(target)
    if on_item:
        on_item(key, outcome, target)
    return outcome
