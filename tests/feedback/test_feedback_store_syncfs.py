"""The syncfs group commit: data synced before any link, names synced before any acknowledgement.

`barrier` (syncfs + fsync of a directory) is watched, not replaced: every test runs the real one on
the real filesystem of tmp_path, and records where it fell between the writes, links and acks.
"""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from pinup_feedback.store import durable as file_store
from pinup_feedback.store.base import RecordExists, StoreError, iso_ts, new_id, now_utc
from pinup_feedback.store.durable import SyncfsCommit, barrier
from pinup_feedback.store.file import FileStore


def record(board: str = "hero") -> dict[str, Any]:
    return {
        "schemaVersion": 1,
        "board": board,
        "round": 1,
        "id": new_id(),
        "receivedAt": iso_ts(now_utc()),
        "kind": "final",
    }


@pytest.fixture(params=["nameless", "temp-name"])
def events(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> list[str]:
    """A fresh SyncfsCommit whose barriers and links are logged (and still really done), writing
    through nameless files (O_TMPFILE) or, as where the filesystem has none, temp names. No name
    is ever created in a board's folder but by a link: a reader never opens a file being written."""
    log: list[str] = []
    real_barrier, real_link, real_open = file_store.barrier, os.link, os.open
    nameless = request.param == "nameless"

    def logged_barrier(fds: list[int]) -> None:
        real_barrier(fds)
        log.append("barrier")

    def logged_link(src: Any, dst: Any, **kw: Any) -> None:
        assert Path(src).read_bytes(), "a file is linked only once written"
        if Path(src).parent.name != "n":  # a record (a numbers document links its slot instead)
            assert str(src).startswith("/proc/self/fd/") if nameless else str(src).endswith(".tmp"), src
        real_link(src, dst, **kw)
        log.append(f"link:{Path(dst).name}")

    def watched_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if flags & os.O_CREAT:
            assert str(path).endswith(".tmp") and not nameless, f"{path} created by name"
        return real_open(path, flags, *args, **kw)

    monkeypatch.setattr(file_store, "_anonymous_ok", nameless)
    monkeypatch.setattr(file_store, "COMMIT", SyncfsCommit())
    monkeypatch.setattr(file_store, "barrier", logged_barrier)
    monkeypatch.setattr(os, "link", logged_link)
    monkeypatch.setattr(os, "open", watched_open)
    return log


def test_the_process_uses_syncfs_on_linux() -> None:
    assert isinstance(file_store.COMMIT, SyncfsCommit)


def test_barrier_runs_syncfs_and_reports_its_errors(tmp_path: Path) -> None:
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        barrier([fd])  # a real syncfs + fsync of the directory
    finally:
        os.close(fd)
    with pytest.raises(OSError) as failed:
        barrier([fd])  # closed: syncfs itself refuses it, and the error comes through
    assert failed.value.errno == errno.EBADF


def test_a_write_is_linked_after_one_barrier_and_acknowledged_after_the_next(tmp_path: Path, events: list[str]) -> None:
    rec = record()
    store = FileStore(tmp_path)
    done = store.submit(rec)
    key = done.result(30)
    events.append("ack")
    name = key.split("/")[1]
    assert events == ["barrier", f"link:{name}", "barrier", "ack"]
    assert store.read(key) == rec
    assert sorted(p.name for p in (tmp_path / "hero").iterdir()) == [name]  # no temp file left
    with pytest.raises(RecordExists):
        store.save(rec)  # create-only: the link refuses a taken name
    assert store.read(key) == rec


def test_writes_that_queue_during_a_barrier_share_the_next_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, events: list[str]
) -> None:
    held = threading.Event()
    release = threading.Event()
    logged = file_store.barrier

    def slow_first(fds: list[int]) -> None:
        if not held.is_set():
            held.set()
            assert release.wait(30)  # hold the first barrier until the others are queued
        logged(fds)

    monkeypatch.setattr(file_store, "barrier", slow_first)
    store = FileStore(tmp_path)
    first = store.submit(record())
    assert held.wait(30)
    rest = [store.submit(record()) for _ in range(11)]
    assert not first.done() and not any(f.done() for f in rest)
    release.set()
    keys = [first.result(30)] + [f.result(30) for f in rest]
    assert events.count("barrier") <= 4  # 12 writes: two barriers for the first, about two for the rest
    for key in keys:  # each name was linked, then a barrier ran, before its future ended
        assert events.index(f"link:{key.split('/')[1]}") < len(events) - 1
    assert events[-1] == "barrier"
    assert len(list((tmp_path / "hero").iterdir())) == 12


@pytest.mark.parametrize("failing", [1, 2])
def test_a_failed_barrier_acknowledges_nothing_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, events: list[str], failing: int
) -> None:
    """The first barrier (before the link) or the second (before the ack) fails: StoreError, empty folder."""
    logged = file_store.barrier
    calls: list[int] = []

    def broken(fds: list[int]) -> None:
        calls.append(len(fds))
        if len(calls) == failing:
            raise OSError(errno.EIO, "Input/output error")
        logged(fds)

    monkeypatch.setattr(file_store, "barrier", broken)
    store = FileStore(tmp_path)
    with pytest.raises(StoreError):
        store.save(record())
    assert list((tmp_path / "hero").iterdir()) == []
    monkeypatch.setattr(file_store, "barrier", logged)
    key = store.save(record())  # the disk is back: the same thread goes on
    assert store.read(key)["board"] == "hero"


def test_a_forked_child_gets_its_own_thread(tmp_path: Path, events: list[str]) -> None:
    store = FileStore(tmp_path)
    store.save(record())  # the parent's thread and descriptors exist
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit code
        try:
            store.save(record())
            os._exit(0)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert len(list((tmp_path / "hero").iterdir())) == 2


def test_descriptors_live_only_as_long_as_their_writes(tmp_path: Path, events: list[str]) -> None:
    """Each pass opens one directory per filesystem; it is closed once that pass's writes are settled."""
    store = FileStore(tmp_path)
    before = set(os.listdir("/proc/self/fd"))
    for _ in range(3):
        store.save(record())
    commit = file_store.COMMIT
    assert isinstance(commit, SyncfsCommit)
    with commit._lock:  # the thread is idle: the last pass had no new writes
        held = set(commit._held)
    assert held == set() and set(os.listdir("/proc/self/fd")) <= before | {str(fd) for fd in held}


def test_pinup_store_sync_fsync_picks_the_fsync_commit() -> None:
    import subprocess
    import sys

    code = "from pinup_feedback.store import durable; print(type(durable.COMMIT).__name__)"
    env = {**os.environ, "PINUP_STORE_SYNC": "fsync"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "FsyncCommit"


def test_a_records_numbers_are_linked_after_a_barrier_that_follows_its_slots(tmp_path: Path, events: list[str]) -> None:
    """The numbers document (what readers trust) is a link of the slot file made only after a barrier
    that came after every slot link, and the numbering is done only after the barrier after it."""
    from pinup_feedback.lifecycle import Lifecycle

    store = FileStore(tmp_path)
    rec = {**record(), "comments": {"A": "busy", "B": "calm"}}
    store.save(rec)
    del events[:]
    assert Lifecycle(store).number(rec) == {"comment:A": 1, "comment:B": 2}
    events.append("numbered")
    doc = f"{rec['id']}.json"
    # the slot of the run 1-2 is linked whole (from a nameless file), then the numbers are a link of it
    assert events == ["link:0000000001.json", "barrier", f"link:{doc}", "barrier", "numbered"]
    board = tmp_path / "_items" / "hero"
    assert os.stat(board / "f" / doc).st_nlink == 2
    assert os.stat(board / "f" / doc).st_ino == os.stat(board / "n" / "0000000001.json").st_ino
