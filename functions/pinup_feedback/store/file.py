"""The local store's file layout: `<root>/<board>/<ts>-<kind>-<id>.json`, one immutable file per
submission; idempotency claims under `<root>/_claims/`, the item log under `<root>/_items/`.

Every file is created through the durable-write engine (`store/durable.py`), so a record is on
disk before it is acknowledged and nothing is ever overwritten.
"""

from __future__ import annotations

import builtins
import json
import os
import re
import time
from collections.abc import Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..atomicfile import fsync_dir, write_all
from ..records import BOARD_SLUG
from . import durable
from .base import (
    ITEMS_DIR,
    NAME_RE,
    EventLog,
    RecordExists,
    RecordNotFound,
    StoredItem,
    StoreError,
    check_attachment_file,
    encode,
    parse_name,
    record_name,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..schema import Manifest

_SLUG = BOARD_SLUG
CLAIMS_DIR = "_claims"
_MAX_CACHED = 1024  # boards whose paths a store keeps joined


class FileStore:
    """`<root>/<board>/<ts>-<kind>-<id>.json`; manifests from `<manifests_dir>/<board>/board.json`."""

    remote = False

    def __init__(self, root: str | Path, *, manifests_dir: str | Path | None = None) -> None:
        self.root = Path(root)
        self.manifests_dir = Path(manifests_dir) if manifests_dir is not None else None
        self._manifests: dict[str, tuple[tuple[int, int, int, int], Manifest]] = {}
        self._folders: dict[str, Path] = {}  # board -> its checked folder: a request joins no paths
        self._manifest_paths: dict[str, Path] = {}

    def __repr__(self) -> str:
        return f"FileStore({str(self.root)!r})"

    def _board_dir(self, board: str) -> Path:
        folder = self._folders.get(board)
        if folder is None:
            if not _SLUG.match(board):
                raise ValueError(f"bad board slug {board!r}")
            if len(self._folders) >= _MAX_CACHED:  # any slug may be asked for: keep it bounded
                self._folders.clear()
            folder = self._folders[board] = self.root / board
        return folder

    def key_for(self, record: dict[str, Any]) -> str:
        """Where `save` puts the record, relative to the root: `<board>/<ts>-<kind>-<id>.json`."""
        self._board_dir(record["board"])
        return f"{record['board']}/{record_name(record)}"

    def save(self, record: dict[str, Any]) -> str:
        """Durably create the record's file; returns its path relative to the root."""
        return self.submit(record).result()

    def submit(self, record: dict[str, Any]) -> Future[str]:
        """`save` without waiting: the future gives the key once the record is durable.

        RecordExists if the name is taken, StoreError if the disk refused; an event loop awaits
        it with `asyncio.wrap_future` instead of holding a thread per write.
        """
        name = record_name(record)
        folder = self._board_dir(record["board"])
        key = f"{record['board']}/{name}"
        done: Future[str] = Future()

        def finish(written: Future[None]) -> None:
            exc = written.exception()
            if exc is None:
                done.set_result(key)
                return
            error: BaseException = exc
            if isinstance(exc, FileExistsError):
                error = RecordExists(f"{key} exists")
            elif isinstance(exc, OSError):
                error = StoreError(f"could not store feedback: {exc.strerror or exc}")
            error.__cause__ = None if error is exc else exc
            done.set_exception(error)

        durable.COMMIT.submit(folder / name, encode(record)).add_done_callback(finish)
        return done

    async def save_async(
        self, record: dict[str, Any], copy_to: Path | None = None, *, inline: bool = False
    ) -> tuple[str, OSError | None]:
        """`save` for an event loop: awaits the group commit without holding a thread (so
        `inline` changes nothing here).

        With `copy_to`, the same bytes then replace that file (atomically, not durably: the agent
        copy); a missing folder means no copy. Returns (key, the copy's OSError or None).
        """
        name = record_name(record)
        folder = self._board_dir(record["board"])
        key = f"{record['board']}/{name}"
        try:
            copy_error = await durable.COMMIT.submit_async(folder / name, encode(record), copy_to)
        except FileExistsError as exc:
            raise RecordExists(f"{key} exists") from exc
        except OSError as exc:
            raise StoreError(f"could not store feedback: {exc.strerror or exc}") from exc
        return key, copy_error

    def list(self, board: str | None = None) -> list[StoredItem]:
        """Records in time order (file names sort by UTC timestamp): names only, nothing is read."""
        base = str(self.root)
        if board is not None:
            self._board_dir(board)  # checks the slug
            boards = [board]
        else:
            boards = sorted(self.boards())
        items = []
        for slug in boards:
            try:
                names = os.listdir(f"{base}/{slug}")  # a str path and bare names: pathlib costs more than the rest
            except (FileNotFoundError, NotADirectoryError):
                continue
            for name in names:
                parsed = NAME_RE.match(name)
                if parsed:
                    items.append(StoredItem(f"{slug}/{name}", slug, parsed["ts"], parsed["kind"], parsed["id"]))
        items.sort(key=lambda i: (i.timestamp, i.key))
        return items

    def boards(self) -> builtins.list[str]:
        """The boards the store has a folder for (made with the board's first record)."""
        try:
            entries = os.scandir(self.root)
        except FileNotFoundError:
            return []
        with entries:
            return [e.name for e in entries if _SLUG.match(e.name) and e.is_dir()]

    def records_stamp(self, board: str) -> str | None:
        """The board folder's inode and change time, once that time is far enough in the past that
        a record created since would have changed it (a folder changed within the last two seconds
        could change again within the same clock tick: no stamp then, so a reader lists it)."""
        try:
            stat = os.stat(self._board_dir(board))
        except FileNotFoundError:
            return "none"
        if time.time_ns() - stat.st_mtime_ns < 2_000_000_000:
            return None
        return f"{stat.st_ino}:{stat.st_mtime_ns}"

    def path_of(self, id_or_key: str) -> Path:
        if "/" in id_or_key:
            board, _, name = id_or_key.partition("/")
            if parse_name(name) and _SLUG.match(board):
                path = self.root / board / name
                if path.is_file():
                    return path
            raise RecordNotFound(id_or_key)
        for item in self.list():
            if item.id == id_or_key:
                return self.root / item.key
        raise RecordNotFound(id_or_key)

    def read(self, id_or_key: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.path_of(id_or_key).read_text(encoding="utf-8"))
        return data

    def read_manifest(self, board: str) -> Manifest | None:
        if self.manifests_dir is None:
            return None
        # the endpoint has loaded both already; a reader of records (`pinup feedback`) never needs them
        from pydantic import ValidationError

        from ..schema import Manifest

        path = self._manifest_paths.get(board)
        if path is None:
            if not _SLUG.match(board):
                return None
            if len(self._manifest_paths) >= _MAX_CACHED:
                self._manifest_paths.clear()
            path = self._manifest_paths[board] = self.manifests_dir / board / "board.json"
        try:
            stat = os.stat(path)
            stamp = (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
            hit = self._manifests.get(board)
            if hit is not None and hit[0] == stamp:
                return hit[1]  # unchanged since it was parsed: one stat instead of read + validate
            manifest = Manifest.model_validate_json(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValidationError) as exc:
            raise StoreError(f"board manifest {path} is unreadable: {exc}") from exc
        self._manifests[board] = (stamp, manifest)
        return manifest

    def item_log(self) -> EventLog:
        return FileLog(self.root / ITEMS_DIR)

    def claim(self, name: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Create-only marker (idempotency): None if we created it, else the existing payload."""
        path = self.root / CLAIMS_DIR / name
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            durable.create_only(path, encode(payload))
            return None
        except FileExistsError:
            existing: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            return existing
        except OSError as exc:
            raise StoreError(f"could not store claim: {exc.strerror or exc}") from exc

    def attachment_path(self, board: str, file: str) -> Path:
        return self._board_dir(board) / check_attachment_file(file)

    def put_attachment(self, board: str, file: str, data: bytes, content_type: str) -> str:
        """Durably create `<root>/<board>/attachments/<sha256>.<ext>` (see the protocol)."""
        path = self.attachment_path(board, file)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            durable.create_only(path, data)
        except FileExistsError:
            pass  # named by its content: the same bytes are there already
        except OSError as exc:
            raise StoreError(f"could not store an attachment: {exc.strerror or exc}") from exc
        return str(path)

    def read_attachment(self, board: str, file: str) -> bytes:
        try:
            return self.attachment_path(board, file).read_bytes()
        except FileNotFoundError:
            raise RecordNotFound(f"{board}/{file}") from None

    def has_attachment(self, board: str, file: str) -> bool:
        return self.attachment_path(board, file).is_file()

    def location_of(self, board: str, file: str) -> str:
        return str(self.attachment_path(board, file))


class FileLog:
    """Documents as files under `root`, created durably and create-only by the store's group commit."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self._base = str(self.root)

    def create(self, name: str, payload: dict[str, Any]) -> bool:
        return self.create_many([(name, payload)])[0]

    def create_many(self, docs: list[tuple[str, dict[str, Any]]]) -> list[bool]:
        """Create them all at once, so they share the group commit's syncs; False where taken."""
        return _created([durable.COMMIT.submit(self.root / name, _doc(payload)) for name, payload in docs])

    def take(self, name: str, payload: dict[str, Any]) -> bool:
        """The slot appears whole (`create_whole`): a reader never finds it empty or cut short.

        Not synced here: the group commit's next barrier makes it durable, and what cites it (the
        record's numbers, created through it afterwards) is never durable before it is.
        """
        return durable.create_whole(f"{self._base}/{name}", _doc(payload))

    def cite_many(self, docs: list[tuple[str, str | None, dict[str, Any]]]) -> list[bool]:
        """Each document a create-only link to its slot's file (same bytes): no inode, no write.

        The group commit links it only after a barrier that follows the slot's own link, so a
        record's numbers are never on disk without its slots."""
        futures = [
            durable.COMMIT.submit(self.root / name, _doc(payload), None if slot is None else self.root / slot)
            for name, slot, payload in docs
        ]
        return _created(futures)

    def read(self, name: str) -> dict[str, Any] | None:
        try:
            with open(f"{self._base}/{name}", encoding="utf-8") as file:  # a str: no pathlib per read
                data: dict[str, Any] = json.load(file)
        except FileNotFoundError:
            return None
        return data

    def settle(self, names: list[str]) -> None:
        """fsync each slot file and its folder: its writer may not have synced them yet."""
        for name in names:
            path = self.root / name
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            fsync_dir(path.parent)

    def journal(self, board: str, names: list[str]) -> None:
        """Append the names to `<board>/journal`, synced: before the documents exist, so a crash
        between the two leaves a name without its document (which a reader waits for), never a
        document no journal names. Each name is written between newlines, so a line a crash cut
        short can never swallow the next one."""
        folder = f"{self._base}/{board}"
        os.makedirs(folder, exist_ok=True)
        data = "".join(f"\n{name.removeprefix(board + '/')}\n" for name in names).encode()
        fd = os.open(f"{folder}/journal", os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            write_all(fd, data, sync=True)
            created = os.fstat(fd).st_size == len(data)
        finally:
            os.close(fd)
        if created:  # a new journal's name must be as durable as its lines
            fsync_dir(folder)

    def read_journal(self, board: str, offset: int | None) -> tuple[list[str], int]:
        path = f"{self._base}/{board}/journal"
        try:
            size = os.stat(path).st_size
        except FileNotFoundError:
            size = 0
        if offset is None or offset > size:  # a new index, or a journal that was replaced: walk
            return self.names(f"{board}/e/"), size
        if offset == size:
            return [], offset
        with open(path, "rb") as file:
            file.seek(offset)
            data = file.read(size - offset)
        whole = data.rfind(b"\n") + 1  # a line still being written is read next time
        return journal_names(data[:whole].decode("utf-8", "replace").split("\n"), board), offset + whole

    def put_file(self, name: str, data: bytes, content_type: str) -> None:
        try:
            durable.COMMIT.submit(self.root / name, data).result()
        except FileExistsError:
            pass  # named by its content: these bytes are there already

    def read_file(self, name: str) -> bytes | None:
        try:
            with open(f"{self._base}/{name}", "rb") as file:
                return file.read()
        except FileNotFoundError:
            return None

    def index_location(self, board: str) -> str:
        folder = f"{self._base}/{board}"
        os.makedirs(folder, exist_ok=True)
        return f"{folder}/index.sqlite3"

    def names(self, prefix: str) -> list[str]:
        """Every document under `prefix` (folders included), sorted; plain `os.scandir`, no pathlib."""
        found: list[str] = []
        folders = [prefix.rstrip("/")]
        while folders:
            folder = folders.pop()
            try:
                entries = os.scandir(f"{self._base}/{folder}" if folder else self._base)
            except (FileNotFoundError, NotADirectoryError):
                continue
            with entries:
                for entry in entries:
                    if entry.name.startswith("."):
                        continue
                    name = f"{folder}/{entry.name}" if folder else entry.name
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(name)
                    elif entry.name.endswith(".json"):
                        found.append(name)
        return sorted(found)


def _doc(payload: dict[str, Any]) -> bytes:
    """A log document on disk: compact JSON (json's C encoder; an indented dump is pure Python)."""
    return (json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _created(futures: list[Any]) -> list[bool]:
    """Wait for the group commit's creates: False where the name was taken; other errors raise."""
    created, failure = [], None
    for future in futures:
        error = future.exception()
        created.append(error is None)
        if error is not None and not isinstance(error, FileExistsError):
            failure = failure or error
    if failure is not None:
        raise failure
    return created


def journal_names(lines: Iterable[str], board: str) -> list[str]:
    """The event names in journal lines (`e/<n>/<seq>.json`), as log names; anything else (a line
    a crash cut short) is skipped."""
    return [f"{board}/{line}" for line in lines if _JOURNALED.fullmatch(line)]


_JOURNALED = re.compile(r"e/\d{10}/\d{6}\.json")
