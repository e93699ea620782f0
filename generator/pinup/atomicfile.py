"""Replacing a file whole: a reader sees the old contents or the new ones, never a torn file.

Every file pinup writes over an earlier version of itself goes through `replace_file`: the
build manifest, the site and prose caches, the generation cache, the workspace state,
serve.json, `pinup wait`'s cursors, a board.yaml after a generated round, a tweaked DESIGN.md
copy and a PDF. The data goes to a temporary file beside the target, named for this process
and thread (concurrent writers never share one) and opened without following a link planted
at that name; `os.replace` then puts it in place. A failure removes the temporary file and
raises, so a crash or a full disk leaves the previous file as it was.

Only os and threading: builds call this, and `pinup build` keeps its imports light.
"""

from __future__ import annotations

import os
import threading

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def temp_name(path: str) -> str:
    """The temporary file `replace_file` writes `path` through (hidden, beside it, per thread)."""
    folder, name = os.path.split(path)
    return os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident()}.tmp")


def replace_file(
    path: str | os.PathLike[str], data: bytes | str, *, private: bool = False, durable: bool = False
) -> os.stat_result:
    """Put `data` (text is written as UTF-8) at `path` in one step; returns the new file's stat.

    `private` makes the file readable by its owner only (0600) whatever the umask. `durable`
    also flushes the file to disk before the rename and the folder after it, for files whose
    loss in a power cut would leave the workspace inconsistent (a board.yaml naming a round
    already on disk). The folder must exist.
    """
    target = os.fspath(path)
    content = data.encode("utf-8") if isinstance(data, str) else data
    tmp = temp_name(target)
    try:
        fd = os.open(tmp, _FLAGS, 0o600 if private else 0o666)
        try:
            if private:  # a stale temporary file of a dead process keeps its mode through O_TRUNC
                os.fchmod(fd, 0o600)
            view = memoryview(content)
            while view:
                view = view[os.write(fd, view) :]
            if durable:
                os.fsync(fd)
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
        sync_folder(os.path.dirname(target) or ".")
    return stat


def sync_folder(folder: str) -> None:
    """fsync a folder, so the names created or renamed in it survive a power cut."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
