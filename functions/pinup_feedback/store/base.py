"""The store interface: create-only, timestamped JSON records; never an overwrite, never a delete."""

from __future__ import annotations

import builtins
import json
import json.encoder
import os
import re
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

    from ..schema import Manifest

KINDS = ("final", "regenerate")
#: the items' log, beside the records: `<store>/_items/` on disk, `<prefix>/feedback/_items/` in S3
ITEMS_DIR = "_items"
ISO_RE = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{6})Z\Z")
ID_RE = re.compile(r"[A-Za-z0-9]{1,64}")
NAME_RE = re.compile(r"^(?P<ts>\d{8}T\d{6}\.\d{6}Z)-(?P<kind>final|regenerate)-(?P<id>[A-Za-z0-9]{1,64})\.json$")


class StoreError(Exception):
    """The store could not take the record (local disk): the app answers 500, acknowledges nothing."""


class RecordExists(StoreError):
    """The name is taken: create-only refused to overwrite it."""


class StoreUnavailable(StoreError):
    """The remote store failed after its retries: the app answers 503 with Retry-After."""


class RecordNotFound(KeyError):
    """No record with that id or key."""


@dataclass(frozen=True)
class StoredItem:
    """One record as listed: where it is and what its name says (no read needed)."""

    key: str
    board: str
    timestamp: str
    kind: str
    id: str

    @property
    def received_at(self) -> str:
        return ts_to_iso(self.timestamp)


class EventLog(Protocol):
    """Create-only documents by name: `create` is False when the name is already taken."""

    def create(self, name: str, payload: dict[str, Any]) -> bool: ...

    def create_many(self, docs: list[tuple[str, dict[str, Any]]]) -> list[bool]:
        """All of `create` at once."""
        ...

    def take(self, name: str, payload: dict[str, Any]) -> bool:
        """Create a record's number slot, whole and create-only: False when the name is taken."""
        ...

    def cite_many(self, docs: list[tuple[str, str | None, dict[str, Any]]]) -> list[bool]:
        """`create_many` of (name, slot, payload): a log that can makes each document another name
        of `slot` (taken by `take` with this same payload), durable only after the slot is."""
        ...

    def read(self, name: str) -> dict[str, Any] | None: ...

    def names(self, prefix: str) -> list[str]: ...

    def settle(self, names: list[str]) -> None:
        """Make documents another writer created durable before this one cites them."""
        ...

    def journal(self, board: str, names: list[str]) -> None:
        """Note, durably, the names of state changes about to be created (`read_journal` finds them)."""
        ...

    def read_journal(self, board: str, offset: int | None) -> tuple[list[str], int]:
        """The state changes journaled after `offset`, and the offset that covers them. With no
        offset (or one the journal does not reach), every state change of the board."""
        ...

    def index_location(self, board: str) -> str:
        """Where the board's item index lives: a file beside the log, or ":memory:"."""
        ...

    def put_file(self, name: str, data: bytes, content_type: str) -> None:
        """Durably create a file that is no JSON document (a resolve's evidence), create-only; a
        name already there is left as it is (callers name files by their content)."""
        ...

    def read_file(self, name: str) -> bytes | None:
        """A file `put_file` created; None when there is none."""
        ...


@runtime_checkable
class FeedbackStore(Protocol):
    """Where feedback lives. `save` returns only after the record is durable.

    Everything the intake and the items' lifecycle need is here, so neither asks which store it has.
    """

    #: calls wait on the network: run them off the event loop (a local store answers from disk)
    remote: bool

    def save(self, record: dict[str, Any]) -> str: ...

    async def save_async(
        self, record: dict[str, Any], copy_to: Path | None = None, *, inline: bool = False
    ) -> tuple[str, OSError | None]:
        """`save` for an event loop, then (not durably) the same bytes replace `copy_to` when its
        folder exists (the agent copy). Returns (key, the copy's OSError or None). `inline`: the
        caller hands this process one request at a time, so blocking work may run on the loop."""
        ...

    def item_log(self) -> EventLog:
        """The items' append-only log, kept next to the records."""
        ...

    def key_for(self, record: dict[str, Any]) -> str: ...

    def list(self, board: str | None = None) -> list[StoredItem]: ...

    def boards(self) -> builtins.list[str]:
        """The boards with feedback, without listing their records."""
        ...

    def records_stamp(self, board: str) -> str | None:
        """A value that changes whenever the board gets a record; None when the store cannot tell
        (a reader then lists the records)."""
        ...

    def read(self, id_or_key: str) -> dict[str, Any]: ...

    def read_manifest(self, board: str) -> Manifest | None: ...

    def claim(self, name: str, payload: dict[str, Any]) -> dict[str, Any] | None: ...

    def put_attachment(self, board: str, file: str, data: bytes, content_type: str) -> str:
        """Durably create a record's image `file` (`attachments/<sha256>.<ext>`, named by its
        content) beside the board's records; a name already there holds these very bytes, so it
        is left as it is. Returns where it is (`location_of`)."""
        ...

    def read_attachment(self, board: str, file: str) -> bytes:
        """An attachment's bytes; RecordNotFound when it is not there."""
        ...

    def has_attachment(self, board: str, file: str) -> bool:
        """True when an upload stored `file` for `board`."""
        ...

    def location_of(self, board: str, file: str) -> str:
        """Where an attachment is, for a person or an agent: a path (local) or an s3:// URL."""
        ...


def check_attachment_file(file: str) -> str:
    """`file` when it is an attachment's name as the endpoint writes it; ValueError otherwise, so a
    hand-edited record cannot name a path outside the board's attachments."""
    from ..records import ATTACHMENT_FILE

    if not ATTACHMENT_FILE.match(file):
        raise ValueError(f"bad attachment name {file!r}")
    return file


class _RandomPool:
    """Random bytes from os.urandom, 4 KiB at a time: a syscall per id let go of the GIL on the
    request path. Emptied in a forked child, so two processes never share bytes."""

    def __init__(self) -> None:
        self._forget()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._bytes, self._at = b"", 0

    def take(self, n: int) -> bytes:
        with self._lock:
            if self._at + n > len(self._bytes):
                self._bytes, self._at = os.urandom(4096), 0
            self._at += n
            return self._bytes[self._at - n : self._at]


_RANDOM = _RandomPool()


def new_id() -> str:
    """A random (version 4) UUID's 32 hex digits, as uuid.uuid4().hex gives them."""
    return uuid.UUID(bytes=_RANDOM.take(16), version=4).hex


def now_utc() -> datetime:
    return datetime.now(UTC)


def file_ts(when: datetime) -> str:
    """Filename-safe UTC timestamp that sorts chronologically: 20261130T001500.123456Z."""
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%S.%fZ")


def iso_ts(when: datetime) -> str:
    """`2026-11-30T00:15:00.123456Z`: `isoformat` is one C call; `strftime` costs a few times more
    (two to three per submission). Same text as `strftime("%Y-%m-%dT%H:%M:%S.%fZ")` from year 1000."""
    return when.astimezone(UTC).isoformat(timespec="microseconds")[:-6] + "Z"


def ts_to_iso(ts: str) -> str:
    return iso_ts(datetime.strptime(ts, "%Y%m%dT%H%M%S.%fZ").replace(tzinfo=UTC))


def record_name(record: dict[str, Any]) -> str:
    """`<ts>-<kind>-<id>.json` from a record's receivedAt, kind and id."""
    received = record["receivedAt"]
    canonical = ISO_RE.match(received) if isinstance(received, str) else None
    if canonical:  # what iso_ts writes: checked by datetime and rearranged, without strptime
        parts = canonical.groups()
        year, month, day, hour, minute, second, micro = (int(p) for p in parts)
        datetime(year, month, day, hour, minute, second, micro)  # ValueError for a date that is none
        ts = "{}{}{}T{}{}{}.{}Z".format(*parts)
    else:
        ts = file_ts(datetime.strptime(received, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC))
    if record["kind"] not in KINDS:
        raise ValueError(f"bad kind {record['kind']!r}")
    if not ID_RE.fullmatch(record["id"]):
        raise ValueError(f"bad id {record['id']!r}")
    return f"{ts}-{record['kind']}-{record['id']}.json"


def parse_name(name: str) -> tuple[str, str, str] | None:
    """(timestamp, kind, id) from a record file name, or None for anything else."""
    match = NAME_RE.match(name)
    return (match["ts"], match["kind"], match["id"]) if match else None


def encode(record: dict[str, Any]) -> bytes:
    """A record's bytes on disk: `json.dumps(record, ensure_ascii=False, indent=2)` + newline.

    Built here with json's C string encoder: json itself encodes an indented dump in pure Python,
    which cost the feedback server more CPU per request than storing it. Byte-identical to json
    (tests/feedback/test_store_encode.py); anything but JSON's own types goes to json itself.
    """
    try:
        text = _indented(record, "\n")
    except _Unusual:
        text = json.dumps(record, ensure_ascii=False, indent=2, sort_keys=False)
    return (text + "\n").encode("utf-8")


class _Unusual(Exception):
    """A value `_indented` leaves to json (a tuple, a subclass, a key that is not a str)."""


def _indented(value: Any, pad: str) -> str:
    kind = type(value)
    if kind is str:
        return _string(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = pad + "  "
        parts = []
        for key, item in value.items():
            if type(key) is not str:
                raise _Unusual
            parts.append(_string(key) + ": " + _indented(item, inner))
        return "{" + inner + ("," + inner).join(parts) + pad + "}"
    if kind is list:
        if not value:
            return "[]"
        inner = pad + "  "
        return "[" + inner + ("," + inner).join([_indented(item, inner) for item in value]) + pad + "]"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if value != value or value in (_INF, -_INF):
            raise _Unusual  # NaN, Infinity: json's own spelling
        return float.__repr__(value)
    raise _Unusual


_string: Callable[[str], str] = json.encoder.encode_basestring  # the C encoder, as json.dumps(ensure_ascii=False) uses
_INF = float("inf")
