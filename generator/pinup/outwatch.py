"""Knows, without a `stat` per file, that an output folder is as this process's last build left it.

Why: an incremental rebuild keeps every unchanged part of the site, and made sure each kept file
was still the one it wrote with a `stat` per file, a cost that grows with the site while the
rebuild itself does not. The kernel can tell instead (Linux inotify, through
`inotify_simple`): after a build, every folder holding its files is watched, and at the next build
a file is untouched when no event named it, nor any folder on its way down from the output folder,
and the output folder is still the same folder. A file an event named is written again, even when
a `stat` would not tell it apart (an edit of the same size whose mtime was put back); when the
watches cannot tell (none yet, events lost), each file is checked with a `stat` as before.

At the end of a build the queue holds the events of the build's own writes. They are read then:
an event naming one of the build's files is checked against the stamp the writer took right after
writing it, so another program's write that came in between is not mistaken for the build's. A
folder watched for the first time has its files checked once after the watch is in place. A
folder whose watch goes away (deleted, moved, unmounted) or a queue that overflowed makes its files
(or all of them) be checked again.

Only a process that builds more than once arms watches (tests, the benchmark: from their second
build on; `pinup serve` says it will rebuild, so from its first): a one-shot `pinup build` never
imports inotify. A process watches its last
few output folders; a forked child uses none of its parent's watches.

The watches are the process's (one inotify instance), so their state here is process-wide on
purpose; a folder's watches answer only a build that starts from the stamps of the build that armed
them (the same `BuildCache`), never one with another view of the folder.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import Any

from pinup.stamps import stamp

#: output folders a process keeps watching (the oldest is dropped), and the most folders one may have
#: (watches count against the user's limit, which editors and `pinup serve`'s own watcher share)
MAX_FOLDERS = 4
MAX_DIRS = 1024

_lock = threading.Lock()
_builds = 0  # builds this process finished: watches are armed from the second on
_inotify: Any = None
_pid = 0
#: watch descriptor -> (output folder, folder path relative to it, "" for the output folder itself)
_wds: dict[int, tuple[str, str]] = {}


class _Folder:
    """The watches of one output folder, and what has been touched since they were armed."""

    def __init__(self, identity: tuple[int, int]) -> None:
        self.identity = identity
        self.watched: dict[str, int] = {}  # folder path relative to the output folder -> watch descriptor
        self.dirty: set[str] = set()  # paths relative to the output folder: touched, to be checked
        self.all_dirty = False  # events were lost: check everything
        self.files: set[str] = set()  # the files of the last build armed, and their folders
        self.dirs: set[str] = set()
        #: the stamps that build left (its build cache keeps the same dict): the watches answer only
        #: a build that starts from them, not one with another cache's view of the folder
        self.stamps: dict[str, list[int]] | None = None


_folders: dict[str, _Folder] = {}


def _mask() -> int:
    from inotify_simple import flags

    return int(
        flags.MODIFY
        | flags.ATTRIB
        | flags.CLOSE_WRITE
        | flags.MOVED_FROM
        | flags.MOVED_TO
        | flags.CREATE
        | flags.DELETE
        | flags.DELETE_SELF
        | flags.MOVE_SELF
        | flags.ONLYDIR
        | flags.DONT_FOLLOW
    )


# event bits (inotify.h): a watched folder itself went away or moved, the queue overflowed,
# the watch was removed, the name is a folder
_SELF = 0x400 | 0x800 | 0x2000  # DELETE_SELF | MOVE_SELF | UNMOUNT
_OVERFLOW = 0x4000
_IGNORED = 0x8000
_ISDIR = 0x40000000
_CREATE = 0x100


def _identity(folder: str) -> tuple[int, int] | None:
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _drain() -> None:
    """Read every queued event: mark what it names as touched, and drop the watches of folders
    that went away or moved (with their sub-folders': their watches follow the moved folders),
    so the next build watches the folders now at those paths and checks their files."""
    if _inotify is None:
        return
    while True:
        try:
            events = _inotify.read(timeout=0)
        except OSError:
            events = None
        if events is None or any(event.mask & _OVERFLOW for event in events):
            for each in _folders.values():
                each.all_dirty = True
            if events is None:
                return
        if not events:
            return
        for event in events:
            where = _wds.get(event.wd)
            if where is None:
                continue
            folder, rel = where
            found = _folders.get(folder)
            if found is None:
                continue
            state = found
            name = event.name
            path = f"{rel}/{name}" if rel and name else (name or rel)
            state.dirty.add(path)
            if event.mask & (_SELF | _IGNORED) and not name:
                _drop(state, rel)
            elif event.mask & _ISDIR and not event.mask & _CREATE:  # a sub-folder moved or deleted
                _drop(state, path)


def _drop(state: _Folder, rel: str) -> None:
    """Forget the watches of folder `rel` and of every folder below it."""
    below = f"{rel}/" if rel else ""
    for path in [p for p in state.watched if p == rel or p.startswith(below)]:
        _unwatch(state, path)


def _unwatch(state: _Folder, rel: str) -> None:
    wd = state.watched.pop(rel)
    _wds.pop(wd, None)
    try:
        _inotify.rm_watch(wd)
    except OSError:  # already gone with its folder
        pass


def _current() -> bool:
    """Whether this process has the watches (a forked child must not read its parent's queue)."""
    global _inotify, _pid
    if _inotify is not None and _pid != os.getpid():
        _inotify.close()  # this process's copy of the parent's descriptor
        _inotify = None
        _wds.clear()
        _folders.clear()
    return _inotify is not None


def begin(out_dir: str) -> None:
    """A build of `out_dir` starts: read what the kernel saw since the last one, and make sure
    `out_dir` is still the folder it watched. `check` answers from that for the whole build (one
    read and one `stat` per build, not per group of files); whatever happens to the files during
    the build is read when it ends (`after_build`), and a file whose stamp it changed is written
    by the next build."""
    with _lock:
        if not _current():
            return
        state = _folders.get(out_dir)
        if state is None:
            return
        _drain()
        if not state.all_dirty and _identity(out_dir) != state.identity:
            state.all_dirty = True


def check(out_dir: str, files: list[str], stamps: dict[str, list[int]]) -> bool | None:
    """What the kernel saw of `files` (paths relative to `out_dir`) between the build that armed
    `out_dir`'s watches and the start of this one (`begin`): True when nothing touched them or
    their folders, False when something did (even an edit a stat cannot see: the same size, the
    mtime put back), None when it cannot say (no watches, events lost, `out_dir` is another
    folder now, or the build asking starts from other `stamps` than the one that armed them):
    then look at each file."""
    with _lock:
        if not _current():
            return None
        state = _folders.get(out_dir)
        if state is None or state.all_dirty or state.stamps is not stamps:
            return None
        dirty, watched = state.dirty, state.watched
        if dirty and "" in dirty:  # the output folder itself
            return False
        for rel in files:
            parent = rel.rpartition("/")[0]
            if dirty:
                path = rel
                while path:
                    if path in dirty:
                        return False
                    path = path.rpartition("/")[0]
            if parent not in watched:
                return None
        return True


def untouched(out_dir: str, folders: frozenset[str], stamps: dict[str, list[int]]) -> bool:
    """True when nothing at all was touched in `out_dir` since its watches were armed (`begin`) by
    the build that left `stamps`, and every one of `folders` (relative to it) is watched: then no
    file in them was touched either. False means: ask `check` (a set comparison, not a step per
    file: a rebuild keeps hundreds)."""
    with _lock:
        if not _current():
            return False
        state = _folders.get(out_dir)
        if state is None or state.all_dirty or state.dirty or state.stamps is not stamps:
            return False
        return folders <= state.watched.keys()


def expect_rebuilds() -> None:
    """The process will build the same folders again (`pinup serve`): arm from its first build on."""
    global _builds
    with _lock:
        _builds = max(_builds, 1)


def after_build(out_dir: str, stamps: dict[str, list[int]]) -> None:
    """A build of `out_dir` finished, its files having `stamps`: from the second build of a process
    on, watch their folders so that the next build can tell which files nobody touched."""
    global _builds
    with _lock:
        _builds += 1
        if _builds < 2 or not sys.platform.startswith("linux"):
            return
        try:
            _arm(out_dir, stamps)
        except OSError:  # no inotify (a container without it, the user's watch limit): stat as before
            _forget(out_dir)


def _arm(out_dir: str, stamps: dict[str, list[int]]) -> None:
    global _inotify, _pid
    if not _current():
        from inotify_simple import INotify

        _inotify, _pid = INotify(nonblocking=True), os.getpid()
        atexit.register(_close)
    _drain()  # this build's own writes, and what came in meanwhile
    identity = _identity(out_dir)
    state = _folders.get(out_dir)
    if identity is None or state is None or state.identity != identity or state.all_dirty:
        _forget(out_dir)
        if identity is None:
            return
        state = _folders[out_dir] = _Folder(identity)
    _folders[out_dir] = _folders.pop(out_dir)  # most recently armed last
    while len(_folders) > MAX_FOLDERS:
        _forget(next(iter(_folders)))
    if state.files == stamps.keys():  # the same files as last time (a rebuild): the same folders
        dirs = state.dirs
    else:
        dirs = {rel.rpartition("/")[0] for rel in stamps}
        for rel in list(dirs):  # and every folder on the way down to them
            while rel:
                rel = rel.rpartition("/")[0]
                dirs.add(rel)
        state.files, state.dirs = set(stamps), dirs
    if len(dirs) > MAX_DIRS:
        _forget(out_dir)
        return
    for rel in [path for path in state.watched if path not in dirs]:  # no file of this build is there now
        _unwatch(state, rel)
    # a file an event named since the last arm is untouched only if it is as this build left it
    touched = {path for path in state.dirty if path in stamps and stamp(f"{out_dir}/{path}") != stamps[path]}
    fresh: set[str] = set()
    mask = _mask()
    for rel in sorted(dirs):
        if rel not in state.watched:
            wd = _inotify.add_watch(f"{out_dir}/{rel}" if rel else out_dir, mask)
            state.watched[rel] = wd
            _wds[wd] = (out_dir, rel)
            fresh.add(rel)
    if fresh:  # written before their folder was watched: check them once, now that it is
        for rel, expected in stamps.items():
            if rel.rpartition("/")[0] in fresh and stamp(f"{out_dir}/{rel}") != expected:
                touched.add(rel)
    state.dirty = touched
    state.stamps = stamps


def _close() -> None:
    """At exit: the watches go with the descriptor."""
    global _inotify
    with _lock:
        if _inotify is not None and _pid == os.getpid():
            _inotify.close()
            _inotify = None
            _wds.clear()
            _folders.clear()


def _forget(out_dir: str) -> None:
    """Stop watching `out_dir` (its files are checked with a stat again)."""
    state = _folders.pop(out_dir, None)
    if state is None:
        return
    for rel in list(state.watched):
        _unwatch(state, rel)
