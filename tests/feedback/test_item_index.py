"""The items' index (`pinup_feedback.itemindex`): a cache of the log that never loses or invents state."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pinup.cli import cli
from pinup_feedback.lifecycle import Lifecycle
from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileLog, FileStore

BOARD = "hero"


def save(store: FileStore, received_at: str | None = None, **fields: Any) -> dict[str, Any]:
    rec = {
        "schemaVersion": 1,
        "board": BOARD,
        "round": 1,
        "id": uuid.uuid4().hex,
        "receivedAt": received_at or iso_ts(now_utc()),
        "kind": "final",
        "clientHash": "0" * 16,
        "comments": {"A": "too busy", "B": "good"},
        **fields,
    }
    store.save(rec)
    return rec


def states(life: Lifecycle) -> list[tuple[int, str, str | None]]:
    return [(i.n, i.status, i.summary) for i in life.items(BOARD)]


def index_file(store: FileStore) -> Path:
    return store.root / "_items" / BOARD / "index.sqlite3"


def test_a_second_read_reads_no_document_when_nothing_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = FileStore(tmp_path)
    for _ in range(5):
        save(store)
    life = Lifecycle(store)
    assert len(life.items(BOARD)) == 10
    life.claim(BOARD, 3, actor="codex")
    assert life.item(BOARD, 3).status == "in_progress"  # this read folds the claim into the index
    reads: list[str] = []
    real_log, real_store = FileLog.read, FileStore.read
    monkeypatch.setattr(FileLog, "read", lambda self, name: reads.append(name) or real_log(self, name))
    monkeypatch.setattr(FileStore, "read", lambda self, key: reads.append(key) or real_store(self, key))
    again = Lifecycle(FileStore(tmp_path))  # another process: the index on disk is what it has
    assert [i.status for i in again.items(BOARD)][:4] == ["open", "open", "in_progress", "open"]
    assert reads == []  # the index on disk already has everything
    old = {item.key for item in store.list(BOARD)} | {f"{BOARD}/e/0000000003/000001.json"}
    new = save(store)
    assert len(again.items(BOARD)) == 12
    assert any(new["id"] in name for name in reads)
    assert old.isdisjoint(reads)  # only the new record and its numbering: nothing read before


def test_the_index_is_rebuilt_after_deletion_or_damage(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    save(store)
    save(store)
    life = Lifecycle(store)
    life.claim(BOARD, 1, actor="codex")
    life.resolve(BOARD, 2, "wont_fix", "by design")
    life.resolve(BOARD, 4, "resolved", "done")
    life.reopen(BOARD, 4)
    before = states(life)
    assert before == [(1, "in_progress", None), (2, "wont_fix", "by design"), (3, "open", None), (4, "open", "done")]
    life.close()
    index_file(store).unlink()
    assert states(Lifecycle(FileStore(tmp_path))) == before
    index_file(store).write_bytes(b"not a database at all" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{index_file(store)}{suffix}").unlink(missing_ok=True)
    assert states(Lifecycle(FileStore(tmp_path))) == before


def test_a_crash_after_the_journal_and_before_the_event_invents_nothing(tmp_path: Path) -> None:
    """The writer journals a change's name, then crashes before creating it: the index keeps the
    name pending and shows the item as it was; once the name is created (the next writer takes the
    same seq), the index folds it in."""
    store = FileStore(tmp_path)
    save(store)
    life = Lifecycle(store)
    assert states(life)[0] == (1, "open", None)
    log = store.item_log()
    log.journal(BOARD, [f"{BOARD}/e/0000000001/000001.json"])  # ... and the process died here
    assert states(life)[0] == (1, "open", None)
    assert states(Lifecycle(FileStore(tmp_path)))[0] == (1, "open", None)
    claimed = Lifecycle(FileStore(tmp_path)).claim(BOARD, 1, actor="codex")  # takes seq 1 for real
    assert claimed.seq == 1
    assert states(life)[0] == (1, "in_progress", None)


def test_a_crash_after_the_event_and_before_the_index_loses_nothing(tmp_path: Path) -> None:
    """The writer journals and creates a change, then dies before any index is updated: the next
    read finds it through the journal."""
    store = FileStore(tmp_path)
    save(store)
    life = Lifecycle(store)
    assert states(life)[1] == (2, "open", None)
    name = f"{BOARD}/e/0000000002/000001.json"
    event = {"n": 2, "seq": 1, "action": "resolve", "status": "resolved", "summary": "fixed", "actor": "x"}
    log = store.item_log()
    log.journal(BOARD, [name])
    assert log.create(name, {**event, "source": "cli", "at": iso_ts(now_utc())})
    assert states(life)[1] == (2, "resolved", "fixed")


def test_a_failed_catch_up_leaves_the_index_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = FileStore(tmp_path)
    save(store)
    life = Lifecycle(store)
    life.items(BOARD)
    other = Lifecycle(FileStore(tmp_path))
    other.claim(BOARD, 1, actor="a")
    other.claim(BOARD, 2, actor="b")
    calls = {"n": 0}

    def dies(self: FileLog, name: str) -> Any:
        calls["n"] += 1
        raise OSError("the disk went away")

    monkeypatch.setattr(FileLog, "read", dies)
    with pytest.raises(OSError):
        life.items(BOARD)
    monkeypatch.undo()
    assert calls["n"] == 1  # the other process's index had folded in the first claim already
    assert [s for _n, s, _summary in states(life)] == ["in_progress", "in_progress"]


def test_a_torn_journal_line_does_not_hide_the_next_one(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    save(store)
    life = Lifecycle(store)
    life.items(BOARD)
    journal = tmp_path / "_items" / BOARD / "journal"
    with journal.open("a") as file:
        file.write("\ne/00000")  # a line a crash cut short
    life.claim(BOARD, 2, actor="codex")
    assert states(Lifecycle(FileStore(tmp_path)))[1] == (2, "in_progress", None)
    assert states(life)[1] == (2, "in_progress", None)


# --- paging ------------------------------------------------------------------------------------
def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["feedback", *args], catch_exceptions=False)


@pytest.fixture
def paged(tmp_path: Path) -> list[str]:
    store = FileStore(tmp_path / "store")
    for day in range(1, 7):
        save(store, received_at=f"2026-12-0{day}T10:00:00.000000Z", reviewer=f"r{day}")
    Lifecycle(store).resolve(BOARD, 12, "resolved", "done")  # the newest record's second item
    return ["--store", str(store.root)]


def test_items_page_newest_open_first(paged: list[str]) -> None:
    r = run("items", "--format", "json", "--limit", "3", *paged)
    assert [(i["n"], i["status"]) for i in json.loads(r.output)["items"]] == [(11, "open"), (10, "open"), (9, "open")]
    r = run("items", "--format", "json", "--since", "2026-12-05", *paged)
    assert [i["n"] for i in json.loads(r.output)["items"]] == [11, 10, 9, 12]  # closed ones last
    r = run("items", "--format", "json", "--all", *paged)
    assert [i["n"] for i in json.loads(r.output)["items"]] == list(range(1, 13))
    r = run("items", "--limit", "2", *paged)
    assert r.exit_code == 0 and "showing the newest 2 of 12 items" in r.output
    r = run("items", "--since", "yesterday", *paged)
    assert r.exit_code == 2 and "not an ISO date or time" in r.output


def test_list_pages_newest_first(paged: list[str]) -> None:
    r = run("list", "--format", "json", "--limit", "2", *paged)
    assert [row["reviewer"] for row in json.loads(r.output)] == ["r6", "r5"]
    r = run("list", "--format", "json", "--since", "2026-12-04T12:00", *paged)
    assert [row["reviewer"] for row in json.loads(r.output)] == ["r6", "r5"]
    r = run("list", "--format", "json", "--all", *paged)
    assert [row["reviewer"] for row in json.loads(r.output)] == [f"r{day}" for day in range(1, 7)]
    r = run("list", "--limit", "4", *paged)
    assert r.exit_code == 0 and "showing the newest 4 of 6 records" in r.output


def test_a_bad_board_name_makes_no_folder(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    save(store)
    for args in (["items", "--board", "../../escape"], ["list", "--board", "../escape"], ["show", "latest"]):
        r = run(*args, "--store", str(store.root))
        assert r.exit_code in (0, 1), r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]
    with pytest.raises(ValueError):
        Lifecycle(store).items("../escape")


def recount(life: Lifecycle) -> dict[str, int]:
    """What the index's rows say, counted row by row (as the counts were before they were kept)."""
    db = life.sync(BOARD).db
    found = {"records": db.execute("SELECT count(*) FROM records").fetchone()[0]}
    for status, total in db.execute("SELECT status, count(*) FROM items GROUP BY status"):
        found[f"status:{status}"] = total
    found["still open"] = db.execute(
        "SELECT count(*) FROM items WHERE status NOT IN ('resolved', 'wont_fix')"
    ).fetchone()[0]
    found["items"] = db.execute("SELECT count(*) FROM items").fetchone()[0]
    return found


def kept(life: Lifecycle) -> dict[str, int]:
    """The same totals, as `count` and `count_records` answer them (after a read: they answer for
    what the index holds)."""
    life.sync(BOARD)
    return counted(life)


def counted(life: Lifecycle) -> dict[str, int]:
    statuses = ("open", "in_progress", "resolved", "wont_fix", "needs_clarification")
    found = {"records": life.count_records(BOARD)}
    found |= {f"status:{s}": life.count(BOARD, s) for s in statuses if life.count(BOARD, s)}
    found["still open"] = life.count(BOARD, still_open=True)
    found["items"] = life.count(BOARD)
    return found


def test_the_kept_counts_match_a_recount_after_every_kind_of_change_and_a_rebuild(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    life = Lifecycle(store)
    for _ in range(4):
        save(store)
    assert kept(life) == recount(life) == {"records": 4, "status:open": 8, "still open": 8, "items": 8}
    life.claim(BOARD, 1, actor="codex")
    life.resolve(BOARD, 2, "resolved", "done")
    life.resolve(BOARD, 3, "wont_fix", "by design")
    life.resolve(BOARD, 4, "resolved", "done")
    life.reopen(BOARD, 4)
    life.claim(BOARD, 4, actor="codex")
    save(store)
    expected = {
        "records": 5,
        "status:open": 6,
        "status:in_progress": 2,
        "status:resolved": 1,
        "status:wont_fix": 1,
        "still open": 8,
        "items": 10,
    }
    assert kept(life) == recount(life) == expected
    other = Lifecycle(FileStore(tmp_path))  # another process changes the board: this one folds it in
    other.resolve(BOARD, 1, "resolved", "done")
    life.sync(BOARD)
    expected |= {"status:in_progress": 1, "status:resolved": 2, "still open": 7}
    assert kept(life) == recount(life) == expected
    life.close()
    other.close()
    index_file(store).unlink()  # rebuilt from the documents: the counts with it
    again = Lifecycle(FileStore(tmp_path))
    assert kept(again) == recount(again) == expected
    assert again.count(BOARD, "open", since="2000-01-01T00:00:00Z") == 6


def test_an_index_made_before_it_kept_counts_is_counted_once(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    for _ in range(3):
        save(store)
    life = Lifecycle(store)
    life.resolve(BOARD, 2, "resolved", "done")
    expected = recount(life)
    db = life.sync(BOARD).db
    db.execute("DELETE FROM counts")
    db.execute("DELETE FROM meta WHERE key = 'counts'")
    life.close()
    again = Lifecycle(FileStore(tmp_path))
    assert kept(again) == recount(again) == expected


def test_counting_walks_no_row_of_the_board(tmp_path: Path) -> None:
    """The totals an answer carries (open items, records) cost the same on any board: SQLite's own
    plan for each statement `count` and `count_records` run names neither the items nor the records."""
    store = FileStore(tmp_path)
    for _ in range(3):
        save(store)
    life = Lifecycle(store)
    life.claim(BOARD, 1, actor="codex")
    db = life.sync(BOARD).db
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    counted(life)
    db.set_trace_callback(None)
    assert statements
    plans = [" / ".join(row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}")) for sql in statements]
    walked = [plan for plan in plans if " items" in plan or " records" in plan]
    assert walked == [], walked


def test_a_row_the_index_replaces_is_counted_out(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    save(store)
    life = Lifecycle(store)
    life.claim(BOARD, 1, actor="codex")
    db = life.sync(BOARD).db
    # what folding in an item's numbers does when the index already holds the item: a fresh row
    db.execute(
        "INSERT OR REPLACE INTO items (n, feedback_id, spec, created_at)"
        " SELECT n, feedback_id, spec, created_at FROM items WHERE n = 1"
    )
    assert counted(life) == recount(life) == {"records": 1, "status:open": 2, "still open": 2, "items": 2}


def test_folding_in_a_state_change_walks_no_row_of_the_board(tmp_path: Path) -> None:
    """What a claim or resolve costs the next read: SQLite's plan for each statement of the catch-up
    looks up rows by key, never walks the board's records, items or events."""
    store = FileStore(tmp_path)
    for _ in range(3):
        save(store)
    os.utime(store.root / BOARD, (1.7e9, 1.7e9))  # no record for a while: the folder's stamp holds
    life = Lifecycle(store)
    life.resolve(BOARD, 2, "resolved", "done")
    db = life.sync(BOARD).db
    life.claim(BOARD, 1, actor="codex")
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    assert life.item(BOARD, 1).status == "in_progress"
    db.set_trace_callback(None)
    plans = [" / ".join(row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}")) for sql in statements]
    assert any("SEARCH events" in plan for plan in plans), plans
    walked = [plan for plan in plans if any(f"SCAN {table}" in plan for table in ("items", "records", "events"))]
    assert walked == [], walked


def test_the_newest_records_are_read_in_index_order(tmp_path: Path) -> None:
    """`list`, `show latest` and the hand-off ask for the newest records: SQLite walks an index from
    its end and stops at the page, instead of sorting every record of the board."""
    store = FileStore(tmp_path)
    for _ in range(3):
        save(store)
    life = Lifecycle(store)
    db = life.sync(BOARD).db
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    assert len(life.records(BOARD, limit=1)) == 1
    assert len(life.records(BOARD, since="2000-01-01T00:00:00Z", limit=2)) == 2
    db.set_trace_callback(None)
    listing = [sql for sql in statements if sql.startswith("SELECT received_at, key FROM records")]
    plans = [" / ".join(row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}")) for sql in listing]
    assert len(plans) == 2 and not any("TEMP B-TREE" in plan for plan in plans), plans
