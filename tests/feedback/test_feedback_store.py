"""The file store: create-only, durable (fsync file and directory) before acknowledging, concurrent-safe."""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pinup_feedback.store import durable as file_store
from pinup_feedback.store import open_store
from pinup_feedback.store.base import RecordExists, RecordNotFound, StoreError, iso_ts, new_id, now_utc, parse_name
from pinup_feedback.store.durable import FsyncCommit, SyncfsCommit, create_only
from pinup_feedback.store.file import FileStore


def record(board: str = "hero", kind: str = "final", **extra: Any) -> dict[str, Any]:
    return {
        "schemaVersion": 1,
        "board": board,
        "round": 1,
        "preferred": "A",
        "ratings": {},
        "comments": {},
        "id": new_id(),
        "receivedAt": iso_ts(now_utc()),
        "kind": kind,
        **extra,
    }


def test_save_names_and_reads_back(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    rec = record()
    key = store.save(rec)
    assert key.startswith("hero/") and key.endswith(f"-final-{rec['id']}.json")
    ts, kind, rid = parse_name(key.split("/")[1])
    assert kind == "final" and rid == rec["id"] and ts.endswith("Z") and ":" not in ts
    assert store.read(rec["id"]) == rec == store.read(key)
    [item] = store.list()
    assert (item.board, item.kind, item.id) == ("hero", "final", rec["id"])
    assert item.received_at == rec["receivedAt"]
    with pytest.raises(RecordNotFound):
        store.read("0" * 32)
    with pytest.raises(RecordNotFound):
        store.read("hero/../../etc/passwd")


def test_never_overwrites(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    rec = record()
    key = store.save(rec)
    before = (tmp_path / key).read_bytes()
    with pytest.raises(RecordExists):
        store.save({**rec, "preferred": "B"})
    assert (tmp_path / key).read_bytes() == before
    assert [p.name for p in (tmp_path / "hero").iterdir()] == [key.split("/")[1]]  # no tmp files left
    with pytest.raises(FileExistsError):
        create_only(tmp_path / key, b"other")


@pytest.fixture()
def fsync_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fsync(2) group commit (the one used without syncfs); test_feedback_store_syncfs.py has the other."""
    monkeypatch.setattr(file_store, "COMMIT", FsyncCommit())


def test_fsync_file_then_directory_before_ack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fsync_commit: None
) -> None:
    calls: list[str] = []
    real_fsync, real_link = os.fsync, os.link

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        calls.append("dir" if os.path.isdir(path) else f"file:{os.path.basename(path)}")
        real_fsync(fd)

    def link(src: Any, dst: Any, **kw: Any) -> None:
        calls.append("link")
        real_link(src, dst, **kw)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "link", link)
    FileStore(tmp_path).save(record())
    assert len(calls) == 3
    assert calls[0].startswith("file:.") and calls[0].endswith(".tmp")  # data synced under the tmp name
    assert calls[1:] == ["link", "dir"]  # then published by link, then the directory entry synced


def test_failing_fsync_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(StoreError):
        FileStore(tmp_path).save(record())
    assert list((tmp_path / "hero").iterdir()) == []


def test_failing_directory_fsync_unpublishes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.fsync

    def dir_broken(fd: int) -> None:
        if os.path.isdir(os.readlink(f"/proc/self/fd/{fd}")):
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fsync", dir_broken)
    with pytest.raises(StoreError):
        FileStore(tmp_path).save(record())
    assert list((tmp_path / "hero").iterdir()) == []


def test_concurrent_threads(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    ids: list[str] = []
    lock = threading.Lock()

    def worker(n: int) -> None:
        for i in range(25):
            rec = record(board="hero" if i % 2 else "cards", kind="final" if i % 3 else "regenerate", n=n)
            store.save(rec)
            with lock:
                ids.append(rec["id"])

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    listed = store.list()
    assert sorted(i.id for i in listed) == sorted(ids) and len(ids) == 200
    assert [i.timestamp for i in listed] == sorted(i.timestamp for i in listed)
    for item in listed:
        assert store.read(item.key)["id"] == item.id  # every file is complete JSON


def _process_worker(root: str, n: int, queue: Any) -> None:
    store = FileStore(root)
    out = []
    for _ in range(20):
        rec = record(proc=n)
        store.save(rec)
        out.append(rec["id"])
    queue.put(out)


def test_concurrent_processes(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_process_worker, args=(str(tmp_path), n, queue)) for n in range(4)]
    for p in procs:
        p.start()
    ids = [i for _ in procs for i in queue.get(timeout=60)]
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert sorted(i.id for i in FileStore(tmp_path).list("hero")) == sorted(ids) and len(ids) == 80


def test_list_ignores_strangers_and_claims(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    rec = record()
    store.save(rec)
    (tmp_path / "hero" / "notes.txt").write_text("x")
    (tmp_path / "hero" / ".x.json.tmp").write_text("x")
    assert store.claim("hero/r1/abc.json", {"id": "1"}) is None
    assert store.claim("hero/r1/abc.json", {"id": "2"}) == {"id": "1"}
    assert [i.id for i in store.list()] == [rec["id"]]


def test_manifest_from_site_boards(tmp_path: Path) -> None:
    boards = tmp_path / "site" / "boards"
    (boards / "hero").mkdir(parents=True)
    (boards / "hero" / "board.json").write_text(json.dumps({"board": "hero", "round": 2, "variants": ["A"]}))
    store = open_store(tmp_path / "store", manifests_dir=boards)
    manifest = store.read_manifest("hero")
    assert manifest is not None and manifest.round == 2 and manifest.variants == ["A"]
    assert store.read_manifest("cards") is None
    assert store.read_manifest("../hero") is None
    assert FileStore(tmp_path).read_manifest("hero") is None


@pytest.mark.parametrize("commit", [FsyncCommit, SyncfsCommit])
def test_without_hard_links_o_excl_keeps_it_create_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commit: type[file_store._Commit]
) -> None:
    import errno

    monkeypatch.setattr(file_store, "COMMIT", commit())

    def no_links(src: Any, dst: Any, **kw: Any) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    store = FileStore(tmp_path)
    rec = record()
    key = store.save(rec)
    assert store.read(key) == rec
    with pytest.raises(RecordExists):
        store.save(rec)
    assert [p.name for p in (tmp_path / "hero").iterdir()] == [key.split("/")[1]]


def test_group_commit_shares_directory_fsyncs_and_acks_only_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fsync_commit: None
) -> None:
    """Writes that arrive while a directory fsync runs share the next one; none is done before it."""
    real_fsync, real_link = os.fsync, os.link
    linked = threading.Semaphore(0)
    release = threading.Event()
    holding = threading.Event()  # the first directory fsync has begun: its batch is the first write alone
    dir_syncs: list[int] = []

    def link(src: Any, dst: Any, **kw: Any) -> None:
        real_link(src, dst, **kw)
        linked.release()

    def fsync(fd: int) -> None:
        if os.path.isdir(os.readlink(f"/proc/self/fd/{fd}")):
            dir_syncs.append(fd)
            if len(dir_syncs) == 1:
                holding.set()
                assert release.wait(30)  # hold the first directory fsync until all writes are linked
        real_fsync(fd)

    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "fsync", fsync)
    store = FileStore(tmp_path)
    first = store.submit(record())
    assert linked.acquire(timeout=30)
    # the syncer takes the first write as a batch of its own before the others come (on a busy
    # machine it could otherwise still be waiting to run and take some of them along)
    assert holding.wait(30)
    rest = [store.submit(record()) for _ in range(11)]
    for _ in rest:
        assert linked.acquire(timeout=30)
    # a writer reports its link to the syncer just after the link itself: wait until all eleven have,
    # or a late one would get a directory fsync of its own after the first is released
    commit = file_store.COMMIT
    deadline = time.monotonic() + 30
    while True:
        with commit._lock:
            if len(commit._linked) == len(rest):
                break
        assert time.monotonic() < deadline
        time.sleep(0.001)
    assert not first.done() and not any(f.done() for f in rest)  # linked, but not yet durable
    release.set()
    keys = [first.result(30)] + [f.result(30) for f in rest]
    assert len(dir_syncs) == 2  # the first write's, then one for the eleven that queued behind it
    assert sorted(p.name for p in (tmp_path / "hero").iterdir()) == sorted(k.split("/")[1] for k in keys)


def test_group_commit_failure_fails_the_whole_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.fsync

    def dir_broken(fd: int) -> None:
        if os.path.isdir(os.readlink(f"/proc/self/fd/{fd}")):
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fsync", dir_broken)
    store = FileStore(tmp_path)
    futures = [store.submit(record()) for _ in range(6)]
    for future in futures:
        with pytest.raises(StoreError):
            future.result(30)
    assert list((tmp_path / "hero").iterdir()) == []


def test_record_names_from_received_at() -> None:
    from pinup_feedback.store.base import record_name

    rec = {"receivedAt": "2026-02-28T23:59:59.000001Z", "kind": "final", "id": "abc"}
    assert record_name(rec) == "20260228T235959.000001Z-final-abc.json"
    for bad in ("2026-02-30T00:00:00.000000Z", "2026-02-28T24:00:00.000000Z", "yesterday"):
        with pytest.raises(ValueError):
            record_name({**rec, "receivedAt": bad})


@pytest.mark.anyio
async def test_save_async_writes_the_agent_copy_after_the_record(tmp_path: Path) -> None:
    import asyncio

    store = FileStore(tmp_path / "store")
    site = tmp_path / "site"
    site.mkdir()
    records = [record(kind="regenerate") for _ in range(8)]
    results = await asyncio.gather(*(store.save_async(r, site / "feedback-pending.json") for r in records))
    assert [error for _, error in results] == [None] * 8
    assert sorted(store.read(key)["id"] for key, _ in results) == sorted(r["id"] for r in records)
    copy = json.loads((site / "feedback-pending.json").read_text())
    assert copy in records  # one of them (the newest of its batch), complete
    assert [p.name for p in site.iterdir()] == ["feedback-pending.json"]  # no tmp left
    key, error = await store.save_async(record(), tmp_path / "no-such-folder" / "feedback.json")
    assert error is None and store.read(key) and not (tmp_path / "no-such-folder").exists()
    with pytest.raises(RecordExists):
        await store.save_async(records[0])


@pytest.mark.anyio
async def test_group_commit_survives_a_bug_in_a_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("bug")

    store = FileStore(tmp_path / "store")
    monkeypatch.setattr(file_store, "replace_file", broken)
    with pytest.raises(RuntimeError):
        await store.save_async(record(), tmp_path / "copy.json")
    monkeypatch.undo()
    key, error = await store.save_async(record(), tmp_path / "copy.json")  # the syncer thread is still there
    assert error is None and store.read(key) and (tmp_path / "copy.json").exists()
