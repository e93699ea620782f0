"""Replacing a file whole, and the temporary names every writer of pinup uses on the way.

A reader sees the old contents or the new ones, never a torn file: `replace_file` writes the
data to a temporary file beside the target, then `os.replace` puts it in place; a failure
removes the temporary file and raises, so a crash or a full disk leaves the previous version
as it was. It is the one way both packages write a file over an earlier version of itself: here
the agent copies (`feedback.json`); in `pinup` the build manifest, the site and prose caches, the
generation cache, the workspace state, serve.json, `pinup wait`'s cursors, a board.yaml after a
generated round, a tweaked DESIGN.md copy and a PDF (`pinup` may import this package, never the
reverse, so the module lives here). The store's create-only records are made differently
(`store/file.py`: linked to their final name, never renamed over one) but stage through the
same temporary names, so one start-up sweep (`remove_stale_temps`) finds what any killed
writer left. `create_file` and `write_all` are the pieces both use to create a new file: the
store's records and a generated round's files.

Only os at run time: a build imports this, and a build with nothing to write imports as little
as it can.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

#: `.<name>.<pid>.<8 hex>.tmp`: hidden, beside its target, the writer's pid for the sweep (a
#: pattern, compiled by the sweep: a build that only writes need not compile it)
TEMP_PATTERN = r"^\..+\.(\d+)\.[0-9a-f]{8}\.tmp\Z"

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)


def temp_name(name: str) -> str:
    """A temporary file name for the file `name` (see TEMP_PATTERN); unpredictable, and
    different in a forked child."""
    return f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"


def replace_file(
    path: str | os.PathLike[str], data: bytes | str, *, private: bool = False, durable: bool = False
) -> os.stat_result:
    """Put `data` (text is written as UTF-8) at `path` in one step; returns the new file's stat.

    The temporary file is created exclusively (never over a file or a link already there).
    `private` makes the file readable by its owner only (0600) whatever the umask. `durable`
    also flushes the file to disk before the rename and the folder after it, for files a power
    cut must not take back. The folder must exist.
    """
    target = os.fspath(path)
    folder, name = os.path.split(target)
    content = data.encode("utf-8") if isinstance(data, str) else data
    for attempt in range(3):  # a name taken already: by chance, or planted
        tmp = os.path.join(folder, temp_name(name))
        try:
            fd = os.open(tmp, _FLAGS, 0o600 if private else 0o666)
            break
        except FileExistsError:
            if attempt == 2:
                raise
    try:
        try:
            write_all(fd, content, sync=durable)
            stat = os.fstat(fd)  # a rename keeps the inode, size and mtime
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if durable:
        fsync_dir(folder or ".")
    return stat


def create_file(path: str | os.PathLike[str], data: bytes, *, sync: bool = False) -> None:
    """Create `path` (it must not exist: FileExistsError), write all of `data`, flush it to disk
    if `sync` (its folder is not synced: the caller syncs each folder once for all its files)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        write_all(fd, data, sync=sync)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes, *, sync: bool = False) -> None:
    """Write all of `data` to `fd` (os.write may take less), then flush it to disk if `sync`."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    if sync:
        os.fsync(fd)


def fsync_dir(path: str | Path) -> None:
    """fsync a folder, so the names created or renamed in it survive a power cut."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
