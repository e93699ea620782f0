"""Batched numbering with a cached next number: still one number per slot across processes."""

from __future__ import annotations

import json
import multiprocessing
import uuid
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest

from pinup_feedback.lifecycle import Lifecycle
from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileLog, FileStore


def record(**fields: Any) -> dict[str, Any]:
    return {
        "schemaVersion": 1,
        "board": "hero",
        "round": 1,
        "id": uuid.uuid4().hex,
        "receivedAt": iso_ts(now_utc()),
        "kind": "final",
        "clientHash": "0" * 16,
        "comments": {"A": "too busy", "B": "calm"},
        **fields,
    }


def slots(root: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in (root / "_items" / "hero" / "n").glob("*.json")]


def slot_numbers(root: Path) -> list[int]:
    """Every number taken in a slot: each slot holds its record's run of numbers, named by the first."""
    return [n for slot in slots(root) for n in slot["items"].values()]


def _number_in_a_process(root: str, start: Any, out: Any) -> None:
    store = FileStore(root)
    life = Lifecycle(store)
    life.number(store.read(store.save(record())))  # fills this process's cache early
    start.wait(60)
    numbers = []
    for _ in range(10):
        numbers += life.number(store.read(store.save(record()))).values()
    out.put(numbers)


def test_four_processes_with_stale_caches_never_share_a_number(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_number_in_a_process, args=(str(tmp_path), start, out)) for _ in range(4)]
    for proc in procs:
        proc.start()
    start.set()
    given = [n for _ in procs for n in out.get(timeout=120)]
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    assert len(given) == 80 and len(set(given)) == 80
    for path in (tmp_path / "_items" / "hero" / "n").glob("*.json"):  # each slot names its record and run
        slot = json.loads(path.read_text())
        assert slot["feedbackId"] and min(slot["items"].values()) == int(path.stem)
    assert len(slot_numbers(tmp_path)) == len(set(slot_numbers(tmp_path))) == 88  # no two runs overlap
    items = Lifecycle(FileStore(tmp_path)).items("hero")
    assert len(items) == 88 and len({i.n for i in items}) == 88  # with the 4 numbered before the start


def test_a_cache_behind_the_log_moves_past_the_taken_numbers(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    ours, theirs = Lifecycle(store), Lifecycle(FileStore(tmp_path))
    assert ours.number(store.read(store.save(record()))) == {"comment:A": 1, "comment:B": 2}
    assert theirs.number(store.read(store.save(record()))) == {"comment:A": 3, "comment:B": 4}
    # ours still guesses 3: the slot is taken, so it reads the log again and takes 5 and 6
    assert ours.number(store.read(store.save(record()))) == {"comment:A": 5, "comment:B": 6}
    assert [i.n for i in ours.items("hero")] == [1, 2, 3, 4, 5, 6]


class CountingLog(FileLog):
    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.batches: list[int] = []
        self.slots: list[int] = []

    def cite_many(self, docs: list[tuple[str, str | None, dict[str, Any]]]) -> list[bool]:
        self.batches.append(len(docs))
        return super().cite_many(docs)

    def take(self, name: str, payload: dict[str, Any]) -> bool:
        self.slots.append(len(payload["items"]))
        return super().take(name, payload)


def test_records_queued_while_a_batch_runs_are_numbered_together(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    log = CountingLog(tmp_path / "_items")
    life = Lifecycle(store, log)
    errors: list[Exception] = []
    records = [store.read(store.save(record())) for _ in range(12)]
    with life._lock:  # a batch is "running": what the worker has not taken yet waits for the next one
        for rec in records:
            life.number_soon(rec, errors.append)
    worker = life._worker
    assert worker is not None
    worker.join(60)
    assert errors == [] and life._worker is None
    # the worker took what was queued when it started (how many depends on the scheduler) before it
    # waited; everything queued after that went in one batch: each batch is one cite_many of
    # record numbers, after creating each record's slot (one per record, for its 2 numbers)
    assert len(log.batches) in (1, 2) and sum(log.batches) == 12
    assert log.slots == [2] * 12
    assert sorted(n for r in records for n in life.number(r).values()) == list(range(1, 25))


def test_numbering_in_threads_and_on_read_agree(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    life = Lifecycle(store)
    records = [store.read(store.save(record())) for _ in range(6)]
    errors: list[Exception] = []
    for rec in records[:3]:
        life.number_soon(rec, errors.append)
    items = life.items("hero")  # numbers what the queue has not reached yet
    assert errors == [] and len(items) == 12 and len({i.n for i in items}) == 12
    assert {i.feedback_id for i in items} == {r["id"] for r in records}


@pytest.mark.parametrize("anonymous", [True, False], ids=["o_tmpfile", "temp-name"])
def test_a_slot_appears_whole_and_stays_create_only(tmp_path: Path, monkeypatch: Any, anonymous: bool) -> None:
    """A slot is never seen empty or cut short (its run's end is read from it), with or without O_TMPFILE;
    the fsync commit syncs it and its folder; a taken name keeps its content; no temp file is left."""
    import os

    from pinup_feedback.store import durable as file_store

    synced: list[str] = []
    created: list[str] = []
    real_sync, real_open = file_store.fsync_dir, os.open

    def watching_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT:  # a name created (O_TMPFILE creates none)
            created.append(os.path.basename(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(file_store, "_anonymous_ok", anonymous)
    monkeypatch.setattr(file_store, "COMMIT", file_store.FsyncCommit())  # syncs folder by folder
    monkeypatch.setattr(file_store, "fsync_dir", lambda path: (synced.append(Path(path).name), real_sync(path)))
    monkeypatch.setattr(file_store.os, "open", watching_open)
    slot = str(tmp_path / "n" / "0000000001.json")
    assert file_store.create_whole(slot, b'{"items": {"a": 1, "b": 2}}') is True
    assert file_store.create_whole(slot, b"{}") is False
    assert Path(slot).read_bytes() == b'{"items": {"a": 1, "b": 2}}'  # a taken name keeps its content
    assert synced == ["n"] and sorted(os.listdir(tmp_path / "n")) == ["0000000001.json"]
    # never created under its own name (which a reader could open empty): anonymously or as a temp name
    assert "0000000001.json" not in created
    assert (created == []) if anonymous else all(name.endswith(".tmp") for name in created)


def test_a_stopping_server_waits_for_queued_numbering(tmp_path: Path) -> None:
    """`wait_idle` (called by `pinup serve` on a graceful stop) returns once every queued record
    is numbered, leaving no staged temp file behind."""
    store = FileStore(str(tmp_path))
    life = Lifecycle(store)
    failures: list[Exception] = []
    stored = [store.read(store.save(record())) for _ in range(40)]
    for one in stored:
        life.number_soon(one, failures.append)
    assert life.wait_idle(60.0)
    assert failures == []
    numbered = {p.stem for p in (tmp_path / "_items" / "hero" / "f").glob("*.json")}
    assert numbered == {one["id"] for one in stored}
    assert sorted(slot_numbers(tmp_path)) == list(range(1, 81))
    assert len(list((tmp_path / "_items" / "hero" / "n").iterdir())) == 40  # one slot per record
    assert list(tmp_path.rglob(".*.tmp")) == []


@pytest.mark.parametrize("commit", ["syncfs", "fsync"])
def test_a_records_numbers_are_one_more_link_of_its_slot_file(tmp_path: Path, monkeypatch: Any, commit: str) -> None:
    """No inode and no write for the numbers document: it is the slot file, linked once more (and
    create-only: a second numbering of the record keeps the first numbers), with either commit."""
    import os

    from pinup_feedback.store import durable as file_store

    if commit == "fsync":
        monkeypatch.setattr(file_store, "COMMIT", file_store.FsyncCommit())
    store = FileStore(tmp_path)
    life = Lifecycle(store)
    rec = store.read(store.save(record()))
    assert life.number(rec) == {"comment:A": 1, "comment:B": 2}
    board = tmp_path / "_items" / "hero"
    doc = board / "f" / f"{rec['id']}.json"
    inodes = {os.stat(p).st_ino for p in [doc, *(board / "n").glob("*.json")]}
    assert len(inodes) == 1 and os.stat(doc).st_nlink == 2
    assert json.loads(doc.read_text()) == {
        "feedbackId": rec["id"],
        "items": {"comment:A": 1, "comment:B": 2},
        "at": ANY,
    }
    assert Lifecycle(FileStore(tmp_path)).number(rec) == {"comment:A": 1, "comment:B": 2}
    assert sorted(p.name for p in (board / "n").iterdir()) == ["0000000001.json"]  # the run 1-2


def test_a_record_without_items_gets_a_numbers_document_of_its_own(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    rec = store.read(store.save(record(comments={})))
    assert Lifecycle(store).number(rec) == {}
    doc = tmp_path / "_items" / "hero" / "f" / f"{rec['id']}.json"
    assert json.loads(doc.read_text())["items"] == {} and not (doc.parent.parent / "n").exists()


def test_numbering_does_not_list_the_log_once_it_knows_the_board(tmp_path: Path, monkeypatch: Any) -> None:
    """The server numbers each batch with a few reads, not a listing of every slot of the board
    (which made each submission cost as much as the board's history); a writer that got ahead in
    another process is still found, by probing upward from the cached number."""
    store = FileStore(tmp_path)
    life = Lifecycle(store)
    listed: list[str] = []
    real = FileLog.names
    monkeypatch.setattr(FileLog, "names", lambda self, prefix: listed.append(prefix) or real(self, prefix))
    for _ in range(30):
        life.number(store.read(store.save(record())))
    assert len(listed) == 1 and listed[0].endswith("/n/"), listed  # the first batch reads where the board is
    other = Lifecycle(store)  # another process, numbering one record meanwhile
    other.number(store.read(store.save(record())))
    listed.clear()
    mine = life.number(store.read(store.save(record())))
    assert listed == []
    assert min(mine.values()) == 63 and sorted(slot_numbers(tmp_path)) == list(range(1, 65))


def test_a_cache_far_behind_jumps_ahead_with_one_listing(tmp_path: Path, monkeypatch: Any) -> None:
    """A warm process (a Lambda) whose cached number is far behind does not probe slot by slot."""
    store = FileStore(tmp_path)
    ours, theirs = Lifecycle(store), Lifecycle(store)
    ours.number(store.read(store.save(record())))
    for _ in range(20):
        theirs.number(store.read(store.save(record())))
    reads: list[str] = []
    real = FileLog.read
    monkeypatch.setattr(FileLog, "read", lambda self, name: reads.append(name) or real(self, name))
    assert min(ours.number(store.read(store.save(record()))).values()) == 43
    assert len([name for name in reads if "/n/" in name]) < 16, reads
