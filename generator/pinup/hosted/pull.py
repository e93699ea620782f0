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
import re
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
#: a file timestamp (`20261130T010203.123456Z`), which starts a late marker's name
TS = re.compile(r"\d{8}T\d{6}\.\d{6}Z")
TS_LEN = 23
#: objects fetched at once by a pull
FETCHERS = 8

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
    a folder that is no board (`_pulled/<digest of the store URL>/<board>.cursor`, JSON)."""
    digest = hashlib.sha256(location.url.encode()).hexdigest()[:16]
    return Path(into) / PULLED / digest / f"{board}.cursor"


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


def pull(client: Any, location: S3Location, into: Path, *, boards: tuple[str, ...] = ()) -> PullReport:
    """Copy every hosted record (of `boards`, or all) that the local store does not have yet.

    A repeated pull lists only what is new: for each board, the keys from a little before the newest
    it pulled last time (keys sort by the time a record was received), and the markers of records
    stored late under an older time (see `pinup_feedback.store.s3.S3Store.save`). Hosted records are
    immutable (create-only puts), so a local file of the same size is taken as present without a
    GET; a different size fetches the object and reports a conflict. Objects are fetched a few at a
    time: a first pull of a big board waits on S3's answers, not on the CPU.
    """
    from pinup_feedback.store.s3 import LATE, dated_keys, list_boards

    report, into = PullReport(), Path(into)
    base = s3_feedback_prefix(location)
    for board in boards or tuple(list_boards(client, location.bucket, base)):
        where = cursor_file(location, into, board)
        # a board folder deleted (or never made) is pulled again from the start, whatever the cursor says
        was = Cursor.load(where) if (into / board).is_dir() else Cursor()
        prefix, late_prefix = s3_feedback_prefix(location, board), f"{base}{LATE}/{board}/"
        after = _start_after(prefix, was.records, False)
        listed = [
            (key, size)
            for key, size in dated_keys(client, location.bucket, prefix, after)
            if RECORD_NAME.match(key.rsplit("/", 1)[1])  # not a record (a note someone left): not reported
        ]
        after = _start_after(late_prefix, was.late, True)
        marked = {
            marker: _marked_key(prefix, marker) for marker, _ in dated_keys(client, location.bucket, late_prefix, after)
        }
        extra = [(key, None) for key in marked.values() if key is not None]
        outcomes = _take_all(client, location, [*listed, *extra], into, report)
        conflicts = {key for key, outcome in outcomes.items() if outcome == "conflict"}
        now = Cursor(
            _newest([key for key, _ in listed], conflicts, was.records, lambda key: parse_name(_name(key)) is not None),
            _newest(list(marked), {m for m, key in marked.items() if key in conflicts}, was.late, marked.get),
        )
        if now != was and (into / board).is_dir():
            now.save(where)
    return report


def _name(key: str) -> str:
    return key.rsplit("/", 1)[1]


def _marked_key(prefix: str, marker: str) -> str | None:
    """The record key a late marker names (`<ts stored>-<record name>`), or None for another name."""
    name = _name(marker)
    parsed = parse_name(name[TS_LEN + 1 :])
    if not TS.fullmatch(name[:TS_LEN]) or parsed is None:
        return None
    ts = parsed[0]
    return f"{prefix}{ts[:4]}/{ts[4:6]}/{ts[6:8]}/{name[TS_LEN + 1 :]}"


def _newest(keys: list[str], conflicts: set[str], was: str | None, usable: Callable[[str], Any]) -> str | None:
    """The cursor after a pull: the newest usable key before the first conflict, so that the next
    pull lists the conflict again and reports it."""
    newest = was
    for key in sorted(keys):
        if key in conflicts:
            break
        if usable(key) and (newest is None or key > newest):
            newest = key
    return newest


def _take_all(
    client: Any, location: S3Location, wanted: list[tuple[str, int | None]], into: Path, report: PullReport
) -> dict[str, Outcome | None]:
    """`_take` each key (a few at a time), reported in the order listed."""
    from concurrent.futures import ThreadPoolExecutor

    first: dict[str, int | None] = {}
    for key, size in wanted:  # a late record may be listed twice: once by its key, once by its marker
        first.setdefault(key, size)
    unique = list(first.items())
    with ThreadPoolExecutor(FETCHERS) as pool:
        taken = list(pool.map(lambda pair: _take(client, location, pair[0], pair[1], into), unique))
    lists = {"pulled": report.pulled, "present": report.present, "conflict": report.conflicts}
    outcomes: dict[str, Outcome | None] = {}
    for (key, _size), (outcome, target) in zip(unique, taken, strict=True):
        outcomes[key] = outcome
        if outcome == "invalid":
            report.invalid.append(key)
        elif outcome is not None and target is not None:
            lists[outcome].append(target)
    return outcomes


def _take(
    client: Any, location: S3Location, key: str, size: int | None, into: Path
) -> tuple[Outcome | None, Path | None]:
    """Pull one record object unless the local copy has it (`size` None: a late record, known only
    by its marker, so any local file of its name is it). None: a marked record that is not stored
    (its request failed after the marker)."""
    from botocore.exceptions import ClientError

    target = local_target(location, key, into)
    if target is None:
        return "invalid", None
    if target.exists() and (size is None or target.stat().st_size == size):
        return "present", target
    try:
        data = client.get_object(Bucket=location.bucket, Key=key)["Body"].read()
    except ClientError as exc:
        if size is None and exc.response.get("Error", {}).get("Code") in {"NoSuchKey", "404"}:
            return None, None
        raise
    if not _valid_record(data):
        return "invalid", target
    return write_create_only(target, data), target
