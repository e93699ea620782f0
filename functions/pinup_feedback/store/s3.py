"""The hosted store: one create-only S3 object per submission (IfNoneMatch='*'), SSE-encrypted.

botocore is imported and the client built once, on first use, with its standard retry mode.
When S3 still fails after the retries the app answers 503 and acknowledges nothing.
"""

from __future__ import annotations

import builtins
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError

from ..atomicfile import replace_file
from ..records import BOARD_SLUG
from ..schema import Manifest
from .base import (
    ITEMS_DIR,
    EventLog,
    RecordExists,
    RecordNotFound,
    StoredItem,
    StoreError,
    StoreUnavailable,
    check_attachment_file,
    encode,
    file_ts,
    parse_name,
    record_name,
)

_SLUG = BOARD_SLUG
CLAIMS = "_claims"
#: markers of records stored under an older time than when they were stored (see `S3Store.save`)
LATE = "_late"
#: a record stored this long after its receivedAt gets a marker under LATE
LATE_AFTER = timedelta(seconds=60)
#: how far behind the newest key it has seen a reader's next listing starts again: longer than
#: LATE_AFTER plus a put's retries (a few seconds) plus the clocks' skew between writers, so a record
#: written without a marker, whose key sorts before keys already seen, is still listed
RELIST = timedelta(minutes=5)
MISSING = frozenset({"NoSuchKey", "404", "NotFound"})
# Without s3:ListBucket on the key, S3 answers a missing key with 403: a manifest is optional.
MANIFEST_MISSING = MISSING | {"AccessDenied", "403"}
EXISTS = {"PreconditionFailed", "412"}


def make_client(endpoint_url: str | None, max_attempts: int, region: str | None = None) -> Any:
    """One S3 client: standard retries (throttling, 5xx, timeouts), short timeouts for a 10 s Lambda."""
    from botocore.config import Config

    from .boto_session import new_session

    config = Config(
        retries={"mode": "standard", "total_max_attempts": max_attempts},
        connect_timeout=2,
        read_timeout=4,
        signature_version="s3v4",
    )
    kwargs: dict[str, Any] = {"config": config}
    if endpoint_url:
        kwargs["endpoint_url"] = endpoint_url
    session = new_session()
    if region or not session.get_config_variable("region"):
        kwargs["region_name"] = region or "us-east-1"
    return session.create_client("s3", **kwargs)


def error_code(exc: Exception) -> str:
    response = getattr(exc, "response", None) or {}
    err = response.get("Error", {}) if isinstance(response, dict) else {}
    return str(err.get("Code") or response.get("ResponseMetadata", {}).get("HTTPStatusCode", ""))


def list_boards(client: Any, bucket: str, base: str) -> builtins.list[str]:
    """The boards under `base` (`<prefix>/feedback/`): one listing of its folders, not of their objects."""
    found = []
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=base, Delimiter="/"):
        found += [p["Prefix"][len(base) : -1] for p in page.get("CommonPrefixes", ())]
    return [slug for slug in found if _SLUG.match(slug)]


def dated_keys(client: Any, bucket: str, prefix: str, start_after: str | None) -> Iterator[tuple[str, int]]:
    """(key, size) of the objects under `prefix` whose names start with a date (records under
    `<board>/`, markers under `LATE/<board>/`), in key order, after `start_after`. S3 lists keys in
    order, so the listing ends at the first key past the dated ones (`attachments/`) instead of
    paging through them."""
    args = {"Bucket": bucket, "Prefix": prefix, **({"StartAfter": start_after} if start_after else {})}
    for page in client.get_paginator("list_objects_v2").paginate(**args):
        for obj in page.get("Contents", ()):
            first = obj["Key"][len(prefix) : len(prefix) + 1]
            if first > "9":
                return
            if first >= "0":
                yield obj["Key"], int(obj.get("Size", -1))


def relist_from(ts: str) -> str:
    """The file timestamp RELIST before `ts` (a file timestamp): where a repeated listing starts."""
    return file_ts(datetime.strptime(ts, "%Y%m%dT%H%M%S.%fZ").replace(tzinfo=UTC) - RELIST)


class S3Store:
    """Keys: `<prefix>/feedback/<board>/<YYYY>/<MM>/<DD>/<ts>-<kind>-<id>.json`; manifests at
    `<prefix>/boards/<slug>.json`; idempotency claims at `<prefix>/feedback/_claims/...`."""

    remote = True

    def __init__(
        self,
        bucket: str,
        prefix: str = "",
        *,
        endpoint_url: str | None = None,
        client: Any = None,
        max_attempts: int = 4,
        region: str | None = None,
    ) -> None:
        if not bucket:
            raise ValueError("S3 store needs a bucket")
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.endpoint_url = endpoint_url
        self.max_attempts = max_attempts
        self.region = region
        self._client = client
        self._lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, *, endpoint_url: str | None = None, **kwargs: Any) -> S3Store:
        parts = urlsplit(url)
        if parts.scheme != "s3" or not parts.netloc:
            raise ValueError(f"not an s3://bucket/prefix URL: {url!r}")
        return cls(parts.netloc, parts.path, endpoint_url=endpoint_url, **kwargs)

    def __repr__(self) -> str:
        return f"S3Store('s3://{self.bucket}/{self.prefix}')"

    @property
    def client(self) -> Any:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = make_client(self.endpoint_url, self.max_attempts, self.region)
        return self._client

    def _key(self, *parts: str) -> str:
        return "/".join(p for p in (self.prefix, *parts) if p)

    def key_for(self, record: dict[str, Any]) -> str:
        if not _SLUG.match(record["board"]):
            raise ValueError(f"bad board slug {record['board']!r}")
        name = record_name(record)
        day = name[:8]
        return self._key("feedback", record["board"], day[:4], day[4:6], day[6:8], name)

    def _put_create_only(self, key: str, body: bytes, content_type: str = "application/json") -> None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            self.client.put_object(
                Bucket=self.bucket,
                Key=key,
                Body=body,
                ContentType=content_type,
                ServerSideEncryption="AES256",
                IfNoneMatch="*",
            )
        except ClientError as exc:
            if error_code(exc) in EXISTS:
                raise RecordExists(key) from exc
            raise StoreUnavailable(f"S3 put failed: {error_code(exc)}") from exc
        except BotoCoreError as exc:
            raise StoreUnavailable(f"S3 put failed: {type(exc).__name__}") from exc

    def _get(self, key: str, *, missing: frozenset[str] = MISSING) -> bytes | None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            data: bytes = self.client.get_object(Bucket=self.bucket, Key=key)["Body"].read()
            return data
        except ClientError as exc:
            if error_code(exc) in missing:
                return None
            raise StoreUnavailable(f"S3 get failed: {error_code(exc)}") from exc
        except BotoCoreError as exc:
            raise StoreUnavailable(f"S3 get failed: {type(exc).__name__}") from exc

    def save(self, record: dict[str, Any]) -> str:
        """Create the object; returns its key only after S3 acknowledged it.

        Keys sort by receivedAt, so a reader lists only the keys past the newest it has seen (less
        RELIST). A record can be stored long after its receivedAt, though: a retried final completes
        the record an earlier, unacknowledged attempt claimed, under that attempt's name and time.
        Such a record is marked first, under `LATE/<board>/` with the time it is stored, so a reader
        listing that prefix the same way finds it. The marker goes before the record: a crash between
        the two leaves a marker of nothing, which a reader skips, never a record nobody lists."""
        key = self.key_for(record)
        now = datetime.now(UTC)
        if now - datetime.fromisoformat(record["receivedAt"]) > LATE_AFTER:
            marker = self._key("feedback", LATE, record["board"], f"{file_ts(now)}-{key.rsplit('/', 1)[1]}")
            try:
                self._put_create_only(marker, b"", "text/plain")
            except RecordExists:
                pass
        self._put_create_only(key, encode(record))
        return key

    async def save_async(
        self, record: dict[str, Any], copy_to: Path | None = None, *, inline: bool = False
    ) -> tuple[str, OSError | None]:
        """`save` off the event loop (on it when `inline`), then the agent copy, if asked for."""
        if inline:
            key = self.save(record)
        else:
            from starlette.concurrency import run_in_threadpool

            key = await run_in_threadpool(self.save, record)
        return key, (None if copy_to is None else write_copy(copy_to, record))

    def item_log(self) -> EventLog:
        return S3Log(self)

    def boards(self) -> builtins.list[str]:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return list_boards(self.client, self.bucket, self._key("feedback") + "/")
        except (ClientError, BotoCoreError) as exc:
            raise StoreUnavailable(f"S3 list failed: {error_code(exc) or type(exc).__name__}") from exc

    def records_stamp(self, board: str) -> str | None:
        return None  # S3 has no such stamp: readers list

    def list(self, board: str | None = None) -> list[StoredItem]:
        from botocore.exceptions import BotoCoreError, ClientError

        if board is not None and not _SLUG.match(board):
            raise ValueError(f"bad board slug {board!r}")
        base = self._key("feedback") + "/"
        prefix = base + (f"{board}/" if board else "")
        items = []
        try:
            pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
            for page in pages:
                for obj in page.get("Contents", ()):
                    item = self._item(obj["Key"], base)
                    if item is not None:
                        items.append(item)
        except (ClientError, BotoCoreError) as exc:
            raise StoreUnavailable(f"S3 list failed: {error_code(exc) or type(exc).__name__}") from exc
        return sorted(items, key=lambda i: (i.timestamp, i.key))

    @staticmethod
    def _item(key: str, base: str) -> StoredItem | None:
        parts = key[len(base) :].split("/")
        if len(parts) != 5 or not _SLUG.match(parts[0]):
            return None
        parsed = parse_name(parts[4])
        if not parsed:
            return None
        ts, kind, rid = parsed
        return StoredItem(key, parts[0], ts, kind, rid)

    def read(self, id_or_key: str) -> dict[str, Any]:
        key = id_or_key
        if "/" not in id_or_key:
            found = [i.key for i in self.list() if i.id == id_or_key]
            if not found:
                raise RecordNotFound(id_or_key)
            key = found[0]
        data = self._get(key)
        if data is None:
            raise RecordNotFound(id_or_key)
        record: dict[str, Any] = json.loads(data)
        return record

    def read_manifest(self, board: str) -> Manifest | None:
        if not _SLUG.match(board):
            return None
        data = self._get(self._key("boards", f"{board}.json"), missing=MANIFEST_MISSING)
        if data is None:
            return None
        try:
            return Manifest.model_validate_json(data)
        except ValidationError as exc:
            raise StoreError(f"board manifest for {board} is invalid") from exc

    def claim(self, name: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Create-only marker: None when we created it, else the payload already there."""
        key = self._key("feedback", CLAIMS, name)
        try:
            self._put_create_only(key, encode(payload))
            return None
        except RecordExists:
            data = self._get(key)
            if data is None:
                raise StoreUnavailable("claim vanished") from None
            claim: dict[str, Any] = json.loads(data)
            return claim

    def attachment_key(self, board: str, file: str) -> str:
        if not _SLUG.match(board):
            raise ValueError(f"bad board slug {board!r}")
        return self._key("feedback", board, check_attachment_file(file))

    def put_attachment(self, board: str, file: str, data: bytes, content_type: str) -> str:
        """Create `<prefix>/feedback/<board>/attachments/<sha256>.<ext>` (see the protocol)."""
        key = self.attachment_key(board, file)
        try:
            self._put_create_only(key, data, content_type)
        except RecordExists:
            pass  # named by its content: the same bytes are there already
        return f"s3://{self.bucket}/{key}"

    def read_attachment(self, board: str, file: str) -> bytes:
        data = self._get(self.attachment_key(board, file))
        if data is None:
            raise RecordNotFound(f"{board}/{file}")
        return data

    def has_attachment(self, board: str, file: str) -> bool:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            self.client.head_object(Bucket=self.bucket, Key=self.attachment_key(board, file))
            return True
        except ClientError as exc:
            if error_code(exc) in MISSING or error_code(exc) == "404":
                return False
            raise StoreUnavailable(f"S3 head failed: {error_code(exc)}") from exc
        except BotoCoreError as exc:
            raise StoreUnavailable(f"S3 head failed: {type(exc).__name__}") from exc

    def location_of(self, board: str, file: str) -> str:
        return f"s3://{self.bucket}/{self.attachment_key(board, file)}"


class S3Log:
    """Documents as S3 objects, created with If-None-Match: * through the store's client."""

    def __init__(self, store: S3Store) -> None:
        self.store = store
        self.base = store._key("feedback", ITEMS_DIR) + "/"

    def create(self, name: str, payload: dict[str, Any]) -> bool:
        try:
            self.store._put_create_only(self.base + name, encode(payload))
        except RecordExists:
            return False
        return True

    def create_many(self, docs: list[tuple[str, dict[str, Any]]]) -> list[bool]:
        return [self.create(name, payload) for name, payload in docs]

    def take(self, name: str, payload: dict[str, Any]) -> bool:
        return self.create(name, payload)

    def cite_many(self, docs: list[tuple[str, str | None, dict[str, Any]]]) -> list[bool]:
        return [self.create(name, payload) for name, _slot, payload in docs]

    def settle(self, names: list[str]) -> None:
        """Nothing to do: an S3 object is durable once its PUT returns."""

    def journal(self, board: str, names: list[str]) -> None:
        """Nothing to note: a listing of the bucket finds every state change."""

    def read_journal(self, board: str, offset: int | None) -> tuple[list[str], int]:
        return self.names(f"{board}/e/"), 0

    def put_file(self, name: str, data: bytes, content_type: str) -> None:
        try:
            self.store._put_create_only(self.base + name, data, content_type)
        except RecordExists:
            pass  # named by its content: these bytes are there already

    def read_file(self, name: str) -> bytes | None:
        return self.store._get(self.base + name)

    def index_location(self, board: str) -> str:
        return ":memory:"  # a process's own index: kept while it lives (a warm Lambda, the MCP server)

    def read(self, name: str) -> dict[str, Any] | None:
        data = self.store._get(self.base + name)
        return None if data is None else json.loads(data)

    def names(self, prefix: str) -> list[str]:
        from botocore.exceptions import BotoCoreError, ClientError

        out = []
        try:
            pages = self.store.client.get_paginator("list_objects_v2").paginate(
                Bucket=self.store.bucket, Prefix=self.base + prefix
            )
            for page in pages:
                out += [obj["Key"][len(self.base) :] for obj in page.get("Contents", ())]
        except (ClientError, BotoCoreError) as exc:
            raise StoreUnavailable(f"S3 list failed: {error_code(exc) or type(exc).__name__}") from exc
        return sorted(out)


def write_copy(target: Path, record: dict[str, Any]) -> OSError | None:
    """The agent copy beside a board, when its folder exists: atomic (tmp + rename) but not fsynced,
    since the store holds the durable record. Returns the OSError, if any."""
    if not target.parent.is_dir():
        return None
    try:
        replace_file(target, encode(record))
    except OSError as exc:
        return exc
    return None
