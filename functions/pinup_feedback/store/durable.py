"""The durable-write engine: create-only files, made durable before anyone is told they exist.

Write path (create-only): a nameless file (O_TMPFILE; elsewhere a tmp file opened with O_EXCL)
-> write -> data synced -> linked to the final name (fails if it exists, so nothing is ever
overwritten) -> (tmp unlinked) -> name synced.
Every create goes through a process-wide group commit (`COMMIT`). On Linux, `SyncfsCommit`
syncs a whole batch with one syncfs(2) + fsync barrier per filesystem (data before the links,
names before the acknowledgement); elsewhere `FsyncCommit` fsyncs each file and shares the
directory fsyncs. docs/security.md gives the durability argument. Where files go, and what they
hold, is the stores' business (`store/file.py`); this module only knows paths and bytes.
"""

from __future__ import annotations

import errno
import os
import re
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..atomicfile import TEMP_PATTERN, create_file, fsync_dir, replace_file, temp_name, write_all

if TYPE_CHECKING:  # pragma: no cover
    import asyncio


def _write_fsync(path: Path, data: bytes) -> None:
    """Create `path` (must not exist), write all of `data`, fsync it."""
    create_file(path, data, sync=True)


def _write_direct(path: str | Path, data: bytes, *, sync: bool = True) -> None:
    """O_EXCL on the final name (no hard links here, or a marker); a failed write leaves nothing."""
    try:
        create_file(path, data, sync=sync)
    except FileExistsError:
        raise
    except BaseException:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        raise


def _publish(path: Path, data: bytes, source: Path | None = None) -> None:
    """Create `path` complete and with its data synced; its directory entry is not synced yet.

    With `source` (already synced, name and data, by the caller), `path` is a link to it."""
    if source is not None:
        error = _link(source, path, data, sync=True)
        if error is not None:
            raise error
        return
    tmp = path.with_name(temp_name(path.name))
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


def create_only(path: Path, data: bytes) -> None:
    """Durably create `path` with `data` (and its folder); FileExistsError if it exists.

    Never overwrites. Goes through the group commit, so concurrent creates share its syncs.
    """
    COMMIT.submit(path, data).result()


class _Write:
    """One queued create: where, what, an optional replaceable copy, and who to tell."""

    __slots__ = (
        "path",
        "folder",
        "data",
        "source",
        "copy",
        "future",
        "loop",
        "error",
        "copy_error",
        "tmp",
        "dev",
        "fd",
        "anonymous",
    )

    def __init__(
        self,
        path: Path,
        data: bytes,
        copy: Path | None,
        future: Any,
        loop: asyncio.AbstractEventLoop | None,
        source: Path | None = None,
    ) -> None:
        self.path, self.data, self.copy, self.future, self.loop = path, data, copy, future, loop
        self.source = source  # an existing file (holding `data`) to link instead of writing a new one
        self.folder = os.path.dirname(path)  # a str: cheap to hash, once per write
        self.error: BaseException | None = None
        self.copy_error: OSError | None = None
        self.tmp: Path | None = None
        self.dev = self.fd = -1  # the filesystem, and the descriptor its barriers go through
        self.anonymous = -1  # the nameless file (O_TMPFILE) holding `data` until it is linked


class _Commit:
    """What both group commits share: queueing from threads or event loops, copies, telling."""

    def __init__(self) -> None:
        self._reset()
        if hasattr(os, "register_at_fork"):  # a forked child has none of the parent's threads
            os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Condition()
        self._started = False

    def submit(self, path: Path, data: bytes, source: Path | None = None) -> Future[None]:
        """Start creating `path`; the future ends when it is durable (or with the OSError).

        With `source` (a file of the same filesystem that already holds `data`, created before
        this call), `path` becomes another name of that file, linked only once the barrier that
        follows this call has made `source`'s name and data durable: no new inode, no write.
        """
        future: Future[None] = Future()
        self._queue(_Write(path, data, None, future, None, source))
        return future

    def submit_async(self, path: Path, data: bytes, copy: Path | None = None) -> asyncio.Future[OSError | None]:
        """From a running event loop: create `path` durably, then (not durably) replace `copy` with
        the same bytes. The future gives the copy's OSError (None when written or not asked for);
        a failed create is its exception."""
        import asyncio  # only the server's path: `pinup feedback` and `pinup wait` read without an event loop

        loop = asyncio.get_running_loop()
        future: asyncio.Future[OSError | None] = loop.create_future()
        self._queue(_Write(path, data, copy, future, loop))
        return future

    def _queue(self, write: _Write) -> None:
        raise NotImplementedError

    def _finish(self, batch: list[_Write]) -> None:
        """Durable (or failed) writes: write the copies of the good ones, then tell everyone."""
        try:
            self._copy([write for write in batch if write.error is None and write.copy is not None])
        except BaseException as exc:  # a bug: the waiters hear of it, the thread goes on
            for write in batch:
                write.error = write.error or exc
        self._settle(batch)

    @staticmethod
    def _copy(writes: list[_Write]) -> None:
        newest = {write.copy: write for write in writes}  # batch order is link order
        for target, write in newest.items():
            assert target is not None
            try:
                replace_file(target, write.data)
            except (FileNotFoundError, NotADirectoryError):
                pass  # no folder for the copy: nothing to write
            except OSError as exc:
                for other in writes:
                    if other.copy == target:
                        other.copy_error = exc

    @staticmethod
    def _settle(batch: list[_Write]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[_Write]] = {}
        for write in batch:
            if write.loop is None:
                if write.future.done():
                    continue
                if write.error is None:
                    write.future.set_result(None)
                else:
                    write.future.set_exception(write.error)
            else:
                by_loop.setdefault(write.loop, []).append(write)
        for loop, writes in by_loop.items():
            try:
                loop.call_soon_threadsafe(_settle_on_loop, writes)
            except RuntimeError:  # that loop is closed: nobody is waiting any more
                pass


class FsyncCommit(_Commit):
    """Group commit with fsync(2): each file synced on its own, directory fsyncs shared.

    A few writer threads create each file (`_publish`: its own fsync, then the link); one syncer
    thread fsyncs each directory once for every file linked since its last pass, and only then
    completes the batch. N concurrent writes cost N file fsyncs and about one directory fsync,
    and nobody is told a write is done before its directory entry is on disk. The syncer then
    writes the batch's replaceable copies (the newest record per copy path; older ones would be
    overwritten at once) and wakes each waiting event loop once per batch, not once per write.
    Used where syncfs(2) is not available (not Linux) and in the tests of this path.
    """

    def __init__(self, writers: int = 4) -> None:
        self.writers = writers
        super().__init__()

    def _reset(self) -> None:
        super()._reset()
        self._linked: list[_Write] = []
        self._pool: ThreadPoolExecutor | None = None

    def _queue(self, write: _Write) -> None:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.writers, thread_name_prefix="pinup-store")
                threading.Thread(target=self._sync_loop, name="pinup-store-sync", daemon=True).start()
            pool = self._pool
        pool.submit(self._write, write)

    def _write(self, write: _Write) -> None:
        try:
            try:
                _publish(write.path, write.data, write.source)
            except FileNotFoundError:
                write.path.parent.mkdir(parents=True, exist_ok=True)  # a new board: once per folder
                _publish(write.path, write.data, write.source)
        except BaseException as exc:
            write.error = exc
            self._settle([write])
            return
        with self._lock:
            self._linked.append(write)
            self._lock.notify()

    def _sync_loop(self) -> None:
        while True:
            with self._lock:
                while not self._linked:
                    self._lock.wait()
                batch, self._linked = self._linked, []
            try:
                self._commit(batch)
            except BaseException as exc:  # never leave a waiter hanging, never lose the thread
                for write in batch:
                    write.error = write.error or exc
                self._settle(batch)

    def _commit(self, batch: list[_Write]) -> None:
        """fsync each directory of the batch once, take back what failed, copy, then tell."""
        failed: dict[Path, OSError] = {}
        for folder in {write.path.parent for write in batch}:
            try:
                fsync_dir(folder)
            except OSError as exc:
                failed[folder] = exc
        for write in batch:
            write.error = failed.get(write.path.parent)
            if write.error is not None:
                _take_back(write.path)
        self._finish(batch)


def _take_back(path: str | Path) -> None:
    """Remove a file that is not durable: not acknowledged -> not left behind."""
    try:
        os.unlink(path)
    except OSError:
        pass


def _load_syncfs() -> Callable[[int], int] | None:
    """libc's syncfs(2) (Linux), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        found: Any = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    found.argtypes, found.restype = [ctypes.c_int], ctypes.c_int
    return cast(Callable[[int], int], found)


def barrier(fds: list[int]) -> None:
    """Make everything written so far on the filesystem of `fds` durable: syncfs(2) on each, then
    one fsync.

    syncfs writes back every dirty file and the metadata (directory entries, inodes) of the
    filesystem and, since Linux 5.8, reports the writeback errors seen since that descriptor's
    last call (or its opening), so every descriptor that was open across a write is asked. The
    fsync of a directory after it issues the cache flush last, after all of those writes, which
    syncfs alone does not promise on every filesystem (ext4 without a journal flushes before it
    writes the metadata buffers).
    """
    for fd in fds:
        if _SYNCFS is None or _SYNCFS(fd) != 0:
            import ctypes

            code = ctypes.get_errno() if _SYNCFS is not None else errno.ENOSYS
            raise OSError(code, os.strerror(code))
    os.fsync(fds[-1])


def _stage(path: Path) -> Path:
    return path.with_name(temp_name(path.name))


class SyncfsCommit(_Commit):
    """Group commit with one barrier (`barrier`: syncfs + fsync) per filesystem per pass.

    One thread does everything, in passes. A pass writes the new files without their names
    (nameless `O_TMPFILE` files, or temp names; not synced), runs the barrier once, and then: the
    files linked in the previous pass are durable (their data and their names were written
    before this barrier) and are acknowledged; the files written in this pass are durable too,
    so they are linked to their final names
    (create-only: `link` fails if the name exists) and wait for the next pass's barrier. A name
    therefore only ever points at data already on disk, and nothing is acknowledged before the
    barrier that covers its name. Under load each barrier serves two batches at once, so N
    concurrent writes cost about one syncfs, instead of N file fsyncs and a directory fsync.

    Each pass opens one directory per filesystem before it writes anything there, and that
    descriptor stays open until its writes are acknowledged (two passes): its syncfs reports
    every writeback error from the first write to the last barrier, and no descriptor outlives
    its writes (a filesystem unmounted meanwhile is never synced through a stale one).
    """

    def _reset(self) -> None:
        for fd in getattr(self, "_held", ()):
            os.close(fd)
        super()._reset()
        self._pending: list[_Write] = []
        self._held: set[int] = set()  # the descriptors of the last pass: its writes await the next

    def _queue(self, write: _Write) -> None:
        with self._lock:
            self._pending.append(write)
            if not self._started:
                self._started = True
                threading.Thread(target=self._loop, name="pinup-store-sync", daemon=True).start()
            self._lock.notify()

    def _loop(self) -> None:
        linked: list[_Write] = []
        while True:
            with self._lock:
                while not self._pending and not linked:
                    self._lock.wait()
                new, self._pending = self._pending, []
            try:
                linked = self._pass(new, linked)
            except BaseException as exc:  # never leave a waiter hanging, never lose the thread
                for write in [*new, *linked]:
                    write.error = write.error or exc
                    _close_anonymous(write)
                self._settle([*new, *linked])
                linked = []
                for fd in self._held:
                    os.close(fd)
                self._held = set()

    def _pass(self, new: list[_Write], linked: list[_Write]) -> list[_Write]:
        done: list[_Write] = []
        staged: list[_Write] = []
        linked = list(linked)
        opened: dict[int, int] = {}  # this pass: st_dev -> a directory on it, opened before writing
        devs: dict[str, int] = {}
        anonymous = 0
        for write in new:
            try:
                dev = devs.get(write.folder)
                if dev is None:
                    dev = devs[write.folder] = _folder_dev(write.folder)
                if dev not in opened:
                    opened[dev] = os.open(write.folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
                write.dev, write.fd = dev, opened[dev]
                if write.source is None and anonymous < MAX_ANONYMOUS:  # nameless: no temp name to undo
                    write.anonymous = _open_anonymous(write.folder)
                if write.anonymous >= 0:
                    anonymous += 1
                    write_all(write.anonymous, write.data)
                elif write.source is None:  # a link to an existing file needs no temp file
                    write.tmp = _stage(write.path)
                    create_file(write.tmp, write.data)
                staged.append(write)
            except BaseException as exc:
                write.error = exc
                _close_anonymous(write)
                if write.tmp is not None:
                    _take_back(write.tmp)
                done.append(write)
        by_dev: dict[int, set[int]] = {}
        for write in [*linked, *staged]:
            by_dev.setdefault(write.dev, set()).add(write.fd)
        failed: dict[int, OSError] = {}
        for dev, fds in by_dev.items():
            try:
                barrier(sorted(fds))
            except OSError as exc:
                failed[dev] = exc
        for write in linked:
            write.error = failed.get(write.dev)
            if write.error is not None:
                _take_back(write.path)
            done.append(write)
        now_linked: list[_Write] = []
        for write in staged:
            if write.anonymous >= 0:
                write.error = failed.get(write.dev) or _link_anonymous(write.anonymous, write.path, write.data)
                _close_anonymous(write)
            else:
                source = write.tmp if write.tmp is not None else write.source
                assert source is not None
                write.error = failed.get(write.dev) or _link(source, write.path, write.data)
                if write.tmp is not None:
                    _take_back(write.tmp)
            (done if write.error is not None else now_linked).append(write)
        for fd in self._held - set(opened.values()):  # their writes are all settled now
            os.close(fd)
        self._held = set(opened.values())
        self._finish(done)
        return now_linked


def _folder_dev(folder: str) -> int:
    try:
        return os.stat(folder).st_dev
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)  # a new board: once per folder
        return os.stat(folder).st_dev


def create_whole(path: str, data: bytes) -> bool:
    """Create `path` holding `data`, create-only and whole: False when the name is taken.

    A reader never finds the file empty or cut short: its bytes are written to an anonymous file
    (`O_TMPFILE`) that is then linked to the name, or, where the filesystem has none, to a temp
    name linked the same way. With the syncfs commit nothing is synced here: its next barrier
    covers the whole filesystem, so anything created through it afterwards (a `submit` with this
    file as its `source`) is durable only after this is. The fsync commit syncs files and folders
    one by one, so the file and its folder are fsynced before returning.
    """
    sync = not isinstance(COMMIT, SyncfsCommit)
    folder = os.path.dirname(path)
    try:
        return _create_whole(folder, path, data, sync)
    except FileNotFoundError:
        if os.path.isdir(folder):
            raise
        os.makedirs(folder, exist_ok=True)  # a new board: once per folder
        return _create_whole(folder, path, data, sync)


def _create_whole(folder: str, path: str, data: bytes, sync: bool) -> bool:
    error = _create_anonymous(folder, path, data, sync)
    if error is _NOT_TRIED:
        tmp = os.path.join(folder, temp_name(os.path.basename(path)))
        try:
            create_file(tmp, data, sync=sync)
            error = _link(tmp, path, data, sync=sync)
        finally:
            _take_back(tmp)
    if isinstance(error, FileExistsError):
        return False
    if error is not None:
        raise error
    if sync:
        fsync_dir(Path(folder))
    return True


_NOT_TRIED = OSError("no anonymous file here")
_anonymous_ok = hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd")


def _create_anonymous(folder: str, path: str, data: bytes, sync: bool) -> OSError | None:
    """Write `data` to a nameless file in `folder`, then link it to `path`; `_NOT_TRIED` where
    this kernel or filesystem has no nameless files (the caller then uses a temp name)."""
    fd = _open_anonymous(folder)
    if fd < 0:
        return _NOT_TRIED
    try:
        write_all(fd, data, sync=sync)
        return _link_anonymous(fd, path, data, sync=sync)
    finally:
        os.close(fd)


#: nameless files one pass of the group commit holds open at most (each is a descriptor until its
#: link, after the barrier); the rest of a larger pass uses temp names
MAX_ANONYMOUS = 256


def _open_anonymous(folder: str) -> int:
    """A new nameless file (`O_TMPFILE`) in `folder`, open for writing; -1 where there is none.

    Nothing to unlink and no temp name for a crash to leave behind or for a watcher to hear of:
    until it is linked it exists only while open. Asked once: where this kernel or filesystem has
    none, every later call answers -1 at once.
    """
    global _anonymous_ok
    if not _anonymous_ok:
        return -1
    try:
        return os.open(folder, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOTSUP):
            raise
        _anonymous_ok = False
        return -1


def _link_anonymous(fd: int, path: str | Path, data: bytes, *, sync: bool = False) -> OSError | None:
    """Give the nameless file `fd` the name `path`, create-only (`_link`); the error, if any.

    linkat(2) follows /proc/self/fd/N only with AT_SYMLINK_FOLLOW, which os.link passes once a
    directory descriptor is given (ignored for an absolute path).
    """
    return _link(f"/proc/self/fd/{fd}", path, data, sync=sync, src_dir_fd=fd)


def _close_anonymous(write: _Write) -> None:
    """Close a write's nameless file: unlinked, it is gone with its descriptor."""
    if write.anonymous >= 0:
        os.close(write.anonymous)
        write.anonymous = -1


def _link(
    tmp: str | Path, path: str | Path, data: bytes, *, sync: bool = False, src_dir_fd: int | None = None
) -> OSError | None:
    """Publish a synced temp file under its final name, create-only; the error, if any."""
    try:
        if src_dir_fd is None:
            os.link(tmp, path)
        else:
            os.link(tmp, path, src_dir_fd=src_dir_fd, follow_symlinks=True)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            return exc
        try:  # no hard links here: O_EXCL on the final name is create-only too
            _write_direct(path, data, sync=sync)
        except OSError as direct:
            return direct
    return None


def _settle_on_loop(writes: list[_Write]) -> None:
    for write in writes:
        if write.future.done():  # cancelled: the request is gone (the record stays stored)
            continue
        if write.error is None:
            write.future.set_result(write.copy_error)
        else:
            write.future.set_exception(write.error)


_SYNCFS = _load_syncfs()
#: PINUP_STORE_SYNC=fsync picks the per-file fsync commit where syncfs exists too (to compare them:
#: bench/feedback_load.py --compare-fsync; or where other heavy writers share the filesystem).
COMMIT: _Commit = (
    SyncfsCommit() if _SYNCFS is not None and os.environ.get("PINUP_STORE_SYNC") != "fsync" else FsyncCommit()
)


_TEMP_NAME = re.compile(TEMP_PATTERN)


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
    it loses nothing; a temp whose writer is still alive is left alone. Walks every folder under
    each root (boards, claims and the item log, which sits three levels down), never following
    a symlink. Returns what it removed.
    """
    removed: list[Path] = []
    for root in roots:
        for folder, _dirs, names in os.walk(root, followlinks=False):
            for name in names:
                match = _TEMP_NAME.match(name)
                path = os.path.join(folder, name)
                if match and not os.path.islink(path) and not _pid_alive(int(match.group(1))):
                    try:
                        os.unlink(path)
                        removed.append(Path(path))
                    except OSError:
                        pass
    return removed
