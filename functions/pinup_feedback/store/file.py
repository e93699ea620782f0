"""The local store: one immutable JSON file per submission, made durable before it is acknowledged.

Write path (create-only): tmp file opened with O_EXCL -> write -> fsync -> os.link to the final
name (fails if it exists, so nothing is ever overwritten) -> unlink tmp -> fsync the directory.
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..schema import BOARD_SLUG_PATTERN, Manifest
from .base import RecordExists, RecordNotFound, StoredItem, StoreError, encode, parse_name, record_name

_SLUG = re.compile(BOARD_SLUG_PATTERN)
CLAIMS_DIR = "_claims"


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_fsync(path: Path, data: bytes) -> None:
    """Create `path` (must not exist), write all of `data`, fsync it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_direct(path: Path, data: bytes) -> None:
    """Fallback without hard links: O_EXCL on the final name; a failed write leaves nothing."""
    try:
        _write_fsync(path, data)
    except FileExistsError:
        raise
    except BaseException:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        raise


def create_only(path: Path, data: bytes) -> None:
    """Durably create `path` with `data`; FileExistsError if it exists. Never overwrites."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        _write_fsync(tmp, data)
        try:
            os.link(tmp, path)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            _write_direct(path, data)  # no hard links here: O_EXCL on the final name is create-only too
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
    try:
        fsync_dir(path.parent)
    except OSError:
        os.unlink(path)  # not durable -> not acknowledged -> not left behind
        raise


def replace_copy(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write a replaceable copy (feedback.json) atomically: tmp (+ fsync) + rename over.

    `durable=False` skips both fsyncs: readers still never see a half-written file (the rename
    is atomic), and the durable record is the store's file, so a copy lost in a crash costs nothing.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        if durable:
            _write_fsync(tmp, data)
        else:
            tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if durable:
        fsync_dir(path.parent)


class FileStore:
    """`<root>/<board>/<ts>-<kind>-<id>.json`; manifests from `<manifests_dir>/<board>/board.json`."""

    def __init__(self, root: str | Path, *, manifests_dir: str | Path | None = None) -> None:
        self.root = Path(root)
        self.manifests_dir = Path(manifests_dir) if manifests_dir is not None else None

    def __repr__(self) -> str:
        return f"FileStore({str(self.root)!r})"

    def _board_dir(self, board: str) -> Path:
        if not _SLUG.match(board):
            raise ValueError(f"bad board slug {board!r}")
        return self.root / board

    def key_for(self, record: dict[str, Any]) -> str:
        """Where `save` puts the record, relative to the root: `<board>/<ts>-<kind>-<id>.json`."""
        self._board_dir(record["board"])
        return f"{record['board']}/{record_name(record)}"

    def save(self, record: dict[str, Any]) -> str:
        """Durably create the record's file; returns its path relative to the root."""
        name = record_name(record)
        folder = self._board_dir(record["board"])
        try:
            folder.mkdir(parents=True, exist_ok=True)
            create_only(folder / name, encode(record))
        except FileExistsError as exc:
            raise RecordExists(f"{record['board']}/{name} exists") from exc
        except OSError as exc:
            raise StoreError(f"could not store feedback: {exc.strerror or exc}") from exc
        return f"{record['board']}/{name}"

    def list(self, board: str | None = None) -> list[StoredItem]:
        """Records in time order (file names sort by UTC timestamp)."""
        if board is not None:
            folders = [self._board_dir(board)]
        elif self.root.is_dir():
            folders = [p for p in self.root.iterdir() if p.is_dir() and _SLUG.match(p.name)]
        else:
            folders = []
        items = []
        for folder in folders:
            if not folder.is_dir():
                continue
            for path in folder.iterdir():
                parsed = parse_name(path.name)
                if parsed:
                    ts, kind, rid = parsed
                    items.append(StoredItem(f"{folder.name}/{path.name}", folder.name, ts, kind, rid))
        return sorted(items, key=lambda i: (i.timestamp, i.key))

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
        if self.manifests_dir is None or not _SLUG.match(board):
            return None
        path = self.manifests_dir / board / "board.json"
        try:
            return Manifest.model_validate_json(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValidationError) as exc:
            raise StoreError(f"board manifest {path} is unreadable: {exc}") from exc

    def claim(self, name: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Create-only marker (idempotency): None if we created it, else the existing payload."""
        path = self.root / CLAIMS_DIR / name
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            create_only(path, encode(payload))
            return None
        except FileExistsError:
            existing: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            return existing
        except OSError as exc:
            raise StoreError(f"could not store claim: {exc.strerror or exc}") from exc


_TEMP_NAME = re.compile(r"^\..+\.(\d+)\.[0-9a-f]{8}\.tmp\Z")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


def remove_stale_temps(*roots: Path) -> list[Path]:
    """Delete the temp files a killed writer left (`.<name>.<pid>.<hex>.tmp`), at start-up.

    A temp file is never a record (records are made by linking it to its final name), so removing
    it loses nothing; a temp whose writer is still alive is left alone. Looks in each root and
    one level below (the board and claim folders). Returns what it removed.
    """
    removed: list[Path] = []
    for root in roots:
        folders = [root]
        try:
            folders += [Path(e.path) for e in os.scandir(root) if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for folder in folders:
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                match = _TEMP_NAME.match(entry.name)
                if match and entry.is_file(follow_symlinks=False) and not _pid_alive(int(match.group(1))):
                    try:
                        os.unlink(entry.path)
                        removed.append(Path(entry.path))
                    except OSError:
                        pass
    return removed
