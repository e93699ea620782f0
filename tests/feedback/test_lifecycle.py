"""Items and their lifecycle: stable numbers, append-only events, one winner per race (disk and S3)."""

from __future__ import annotations

import json
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest

from pinup_feedback.lifecycle import ItemConflict, Lifecycle, LifecycleError, UnknownItem, item_specs
from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileStore

PIN = {
    "id": "p1",
    "variant": "B",
    "note": "Header too tight",
    "severity": "major",
    "box": {"x": 0.1, "y": 0.1, "w": 0.2, "h": 0.1},
    "selector": "#title",
    "text": "Hi",
    "html": "<h1>Hi</h1>",
}


def record(board: str = "hero", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "schemaVersion": 1,
        "board": board,
        "round": 1,
        "id": uuid.uuid4().hex,
        "receivedAt": iso_ts(now_utc()),
        "kind": "final",
        "clientHash": "0" * 16,
    }
    base.update(fields)
    return base


def v2_record(**fields: Any) -> dict[str, Any]:
    return record(
        schemaVersion=2,
        pins=[PIN, {**PIN, "id": "p2", "variant": "A", "severity": "nit"}],
        tweaks={},
        reopen=[],
        **fields,
    )


@pytest.fixture()
def store(tmp_path: Path) -> FileStore:
    return FileStore(tmp_path / "store")


def test_item_specs_cover_every_kind_in_order() -> None:
    rec = v2_record(
        comments={"A": "busy", "B": "  "},
        overall="ok",
        kind="regenerate",
        regenerated=True,
        regenerateAction="make it warmer",
    )
    assert [(s.key, s.kind, s.variant) for s in item_specs(rec)] == [
        ("pin:p1", "pin", "B"),
        ("pin:p2", "pin", "A"),
        ("comment:A", "comment", "A"),
        ("overall", "overall", None),
        ("regenerate", "regenerate", None),
    ]
    assert item_specs(record(comments={}, overall=None)) == []


def test_numbers_are_stable_and_never_renumbered(store: FileStore) -> None:
    life = Lifecycle(store)
    first = record(comments={"A": "too busy", "B": "nice"}, overall="B wins")  # a v1 record
    store.save(first)
    assert [(i.n, i.spec.key) for i in life.items("hero")] == [(1, "comment:A"), (2, "comment:B"), (3, "overall")]
    second = v2_record()
    store.save(second)
    assert [i.n for i in life.items("hero")] == [1, 2, 3, 4, 5]
    assert life.number(second) == {"pin:p1": 4, "pin:p2": 5}  # idempotent
    assert life.number(first) == {"comment:A": 1, "comment:B": 2, "overall": 3}
    again = Lifecycle(FileStore(store.root))  # another process would see the same numbers
    assert [(i.n, i.feedback_id) for i in again.items("hero")] == [(i.n, i.feedback_id) for i in life.items("hero")]
    assert life.items("cards") == []


def test_claim_resolve_reopen(store: FileStore) -> None:
    life = Lifecycle(store)
    store.save(v2_record())
    item = life.claim("hero", 1, actor="agent-a")
    assert item.status == "in_progress" and item.actor == "agent-a"
    with pytest.raises(ItemConflict, match="already claimed by agent-a"):
        life.claim("hero", 1, actor="agent-b")
    done = life.resolve("hero", 1, "resolved", "Added 8px of top padding", actor="agent-a")
    assert done.status == "resolved" and done.summary == "Added 8px of top padding"
    with pytest.raises(ItemConflict, match="already resolved"):
        life.resolve("hero", 1, "wont_fix", "no")
    with pytest.raises(ItemConflict, match="already resolved"):
        life.claim("hero", 1)
    reopened = life.reopen("hero", 1)
    assert reopened.status == "open" and reopened.summary == "Added 8px of top padding"
    assert [e["action"] for e in reopened.events] == ["claim", "resolve", "reopen"]
    assert life.reopen("hero", 2).status == "open"  # already open: unchanged, no event
    assert life.item("hero", 2).events == []
    asked = life.resolve("hero", 2, "needs_clarification", "Which header?")
    assert life.claim("hero", 2).status == "in_progress" and asked.status == "needs_clarification"
    assert [i.n for i in life.items("hero", "in_progress")] == [2]
    with pytest.raises(UnknownItem, match="no item #9"):
        life.claim("hero", 9)
    with pytest.raises(LifecycleError, match="status must be"):
        life.resolve("hero", 2, "done", "x")
    with pytest.raises(LifecycleError, match="summary is required"):
        life.resolve("hero", 2, "resolved", "  ")
    public = life.item("hero", 1).public()
    assert set(public) == {
        "n",
        "kind",
        "round",
        "variant",
        "text",
        "severity",
        "pin",
        "status",
        "summary",
        "feedbackId",
        "updatedAt",
        "commit",
        "pr",
        "evidence",
    }
    assert public["pin"]["selector"] == "#title" and public["kind"] == "pin" and public["severity"] == "major"


def test_events_are_create_only_files(store: FileStore) -> None:
    life = Lifecycle(store)
    store.save(v2_record())
    life.claim("hero", 1)
    life.resolve("hero", 1, "wont_fix", "out of scope")
    events = sorted((store.root / "_items" / "hero" / "e" / f"{1:010d}").glob("*.json"))
    assert [p.name for p in events] == ["000001.json", "000002.json"]
    assert [json.loads(p.read_text())["status"] for p in events] == ["in_progress", "wont_fix"]
    assert store.list("hero")[0].board == "hero"  # the item log is invisible to record listings
    assert len(store.list()) == 1


def test_a_v2_record_reopens_earlier_items(store: FileStore) -> None:
    life = Lifecycle(store)
    store.save(v2_record())
    life.resolve("hero", 1, "resolved", "fixed")
    life.resolve("hero", 2, "resolved", "fixed too")
    store.save(record(schemaVersion=2, round=2, pins=[], tweaks={}, reopen=[2, 77], comments={"A": "still off"}))
    items = life.items("hero")
    assert [(i.n, i.status) for i in items] == [(1, "resolved"), (2, "open"), (3, "open")]
    assert items[1].events[-1]["source"].startswith("feedback:")


def test_concurrent_claims_in_threads_have_one_winner(store: FileStore) -> None:
    store.save(v2_record())
    Lifecycle(store).items("hero")
    results: list[str] = []
    barrier = threading.Barrier(8)

    def attempt(n: int) -> None:
        life = Lifecycle(FileStore(store.root))  # separate instances: no shared lock
        barrier.wait()
        try:
            life.claim("hero", 1, actor=f"agent-{n}")
            results.append("won")
        except ItemConflict:
            results.append("lost")

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["lost"] * 7 + ["won"]
    assert len(Lifecycle(store).item("hero", 1).events) == 1


def test_concurrent_numbering_never_repeats_a_number(store: FileStore) -> None:
    recs = [record(comments={"A": f"note {n}", "B": "x"}) for n in range(6)]
    for rec in recs:
        store.save(rec)
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def number_all() -> None:
        life = Lifecycle(FileStore(store.root))
        barrier.wait()
        try:
            life.sync("hero")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=number_all) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    items = Lifecycle(store).items("hero")
    assert len(items) == 12 and len({i.n for i in items}) == 12
    assert {(i.feedback_id, i.spec.key) for i in items} == {
        (r["id"], k) for r in recs for k in ("comment:A", "comment:B")
    }
    slots = {int(p.stem): json.loads(p.read_text()) for p in (store.root / "_items" / "hero" / "n").glob("*.json")}
    assert all(n == min(slot["items"].values()) for n, slot in slots.items())  # each slot is named by its run
    taken = [n for slot in slots.values() for n in slot["items"].values()]
    assert len(taken) == len(set(taken))  # runs never overlap, even those of numberings that lost a race
    assert {i.n for i in items} <= set(taken)  # every number a reader sees was taken in a create-only slot


def _reader_arrives_between_slots_and_numbers(store: Any, other: Any) -> None:
    """A server took a record's slots; before it cites them, another process reads the board."""
    server = Lifecycle(store)
    first, second = record(comments={"A": "busy", "B": "calm"}, overall="B"), record(comments={"A": "later"})
    store.save(first)
    taken = server._claim_slots([first])
    assert taken[first["id"]][1]["items"] == {"comment:A": 1, "comment:B": 2, "overall": 3}
    reader = Lifecycle(other)
    assert [(i.n, i.spec.key) for i in reader.items("hero")] == [(1, "comment:A"), (2, "comment:B"), (3, "overall")]
    assert server._number_all([first]) == [{"comment:A": 1, "comment:B": 2, "overall": 3}]  # the server agrees
    store.save(second)
    assert [i.n for i in reader.items("hero")] == [1, 2, 3, 4]  # no gap left behind


def test_a_reader_finishes_a_numbering_in_flight_instead_of_leaving_a_gap(store: FileStore) -> None:
    _reader_arrives_between_slots_and_numbers(store, FileStore(store.root))


def test_a_partly_taken_set_of_slots_is_never_adopted(store: FileStore) -> None:
    rec = record(comments={"A": "busy", "B": "calm"})
    store.save(rec)
    folder = store.root / "_items" / "hero" / "n"
    folder.mkdir(parents=True)
    doc = {"feedbackId": rec["id"], "items": {"comment:A": 1, "comment:B": 2}, "at": iso_ts(now_utc())}
    (folder / f"{1:010d}.json").write_text(json.dumps(doc))  # slot 2 was never taken by this set
    (folder / f"{2:010d}.json").write_text(json.dumps({**doc, "feedbackId": "someone-else"}))
    items = Lifecycle(FileStore(store.root)).items("hero")
    assert [i.n for i in items] == [3, 4]  # fresh numbers: 1 and 2 stay a gap, never given twice


def _old_slots(store: FileStore, rec: dict[str, Any], numbers: dict[str, int], *, cited: bool = True) -> None:
    """What a store written before runs holds: one slot per number, each the record's whole set."""
    board = store.root / "_items" / "hero"
    doc = {"feedbackId": rec["id"], "items": numbers, "at": iso_ts(now_utc())}
    for n in numbers.values():
        (board / "n").mkdir(parents=True, exist_ok=True)
        (board / "n" / f"{n:010d}.json").write_text(json.dumps(doc))
    if cited:
        (board / "f").mkdir(parents=True, exist_ok=True)
        (board / "f" / f"{rec['id']}.json").write_text(json.dumps(doc))


def test_a_store_from_before_runs_keeps_its_numbers_and_numbers_on_after_them(store: FileStore) -> None:
    """Slots of one number each (the layout before runs) read as runs: a numbered record keeps its
    numbers, a set of slots left uncited is finished, and new runs start after the last number."""
    old = record(comments={"A": "busy", "B": "calm"}, overall="B")
    store.save(old)
    _old_slots(store, old, {"comment:A": 1, "comment:B": 2, "overall": 3})
    uncited = record(comments={"A": "later", "B": "fine"})
    store.save(uncited)
    _old_slots(store, uncited, {"comment:A": 4, "comment:B": 5}, cited=False)
    new = record(comments={"A": "new"}, overall="ok")
    store.save(new)
    items = Lifecycle(FileStore(store.root)).items("hero")
    assert [(i.n, i.feedback_id) for i in items] == [
        (1, old["id"]),
        (2, old["id"]),
        (3, old["id"]),
        (4, uncited["id"]),  # adopted, not numbered again
        (5, uncited["id"]),
        (6, new["id"]),
        (7, new["id"]),
    ]
    assert sorted(p.name for p in (store.root / "_items" / "hero" / "n").iterdir())[-1] == f"{6:010d}.json"


def test_a_writer_whose_slot_was_taken_starts_right_after_the_newest_run(store: FileStore) -> None:
    """A taken slot sends the writer to the end of the newest run, never past it: a hole there would
    let a writer with an older cache start a run inside the next one (found by the state machine in
    test_lifecycle_runs_property.py)."""
    ours, theirs = Lifecycle(store), Lifecycle(FileStore(store.root))
    first, second = record(comments={"A": "a"}), record(comments={"A": "b"})
    for rec in (first, second):
        store.save(rec)
    assert ours.number(first) == {"comment:A": 1}  # ours now guesses 2
    assert theirs.number(second) == {"comment:A": 2}  # theirs guesses 3
    late = record(comments={"A": "c", "B": "d"})
    store.save(late)
    taken = ours._claim_slots([late])  # slot 2 is taken: ours reads where the board is
    assert taken[late["id"]][1]["items"] == {"comment:A": 3, "comment:B": 4}
    other = record(comments={"A": "e", "B": "f"})
    store.save(other)
    assert theirs.number(other) == {"comment:A": 5, "comment:B": 6}  # moved past the run 3-4, not into it
    # the run 3-4 was never cited and a newer run is: it stays a gap (numbers skip, never repeat)
    assert ours.number(late) == {"comment:A": 7, "comment:B": 8}
    assert [i.n for i in Lifecycle(store).items("hero")] == [1, 2, 5, 6, 7, 8]


def test_a_slot_cut_short_by_a_crash_gives_up_only_its_own_number(store: FileStore) -> None:
    """A slot that cannot be read (its data lost in a crash before anything cited it) ends the log:
    the next run starts right after its name, and nothing is numbered from it."""
    first = record(comments={"A": "busy", "B": "calm"})
    store.save(first)
    assert Lifecycle(store).number(first) == {"comment:A": 1, "comment:B": 2}
    (store.root / "_items" / "hero" / "n" / f"{3:010d}.json").write_bytes(b"")
    later = record(comments={"A": "later"})
    store.save(later)
    assert Lifecycle(FileStore(store.root)).number(later) == {"comment:A": 4}
    assert [i.n for i in Lifecycle(store).items("hero")] == [1, 2, 4]


# --- S3 (moto server): conditional writes ---------------------------------------------------
@pytest.fixture()
def s3_store(moto_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    import boto3

    from pinup_feedback.store.s3 import S3Store

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    bucket = f"pinup-items-{uuid.uuid4().hex[:10]}"
    boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1").create_bucket(Bucket=bucket)
    return S3Store(bucket, "team", endpoint_url=moto_endpoint)


def test_lifecycle_on_s3_with_conditional_writes(s3_store: Any) -> None:
    life = Lifecycle(s3_store)
    s3_store.save(v2_record(comments={"A": "busy"}))
    assert [i.n for i in life.items("hero")] == [1, 2, 3]
    assert len(s3_store.list()) == 1  # item documents are not records
    results: list[str] = []
    barrier = threading.Barrier(4)

    def attempt(n: int) -> None:
        other = Lifecycle(type(s3_store)(s3_store.bucket, "team", endpoint_url=s3_store.endpoint_url))
        barrier.wait()
        try:
            other.claim("hero", 2, actor=f"agent-{n}")
            results.append("won")
        except ItemConflict:
            results.append("lost")

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["lost", "lost", "lost", "won"]
    done = life.resolve("hero", 2, "resolved", "done")
    assert done.status == "resolved" and done.seq == 2
    keys = [o["Key"] for o in s3_store.client.list_objects_v2(Bucket=s3_store.bucket)["Contents"]]
    assert "team/feedback/_items/hero/e/0000000002/000002.json" in keys
    with pytest.raises(ItemConflict):
        life.claim("hero", 2)


def test_on_s3_a_reader_finishes_a_numbering_in_flight(s3_store: Any) -> None:
    other = type(s3_store)(s3_store.bucket, "team", endpoint_url=s3_store.endpoint_url)
    _reader_arrives_between_slots_and_numbers(s3_store, other)
