"""An index of one board's records and items with their latest state, kept beside the item log.

Why: the log's documents are the truth (records, numbers, state changes, all create-only), but
reading every one of them on each `pinup feedback items` made an agent's loop slow down with the
store. The index is a cache of what they say (SQLite, in the standard library), so a read costs
the new documents and the page it returns, not the board's history. It also keeps how many records
and items (per status) it holds, in `counts`, kept by triggers in the transaction of each change: a
`count(*)` walks every row, and the totals some answers carry would grow with the board.

It can never lose or invent state, because it only ever folds in documents it has read, keyed by
name, and finds new ones without trusting itself:

- records: the store's listing of the board, against the record keys it holds (names only);
- numbers: `f/<id>.json` of each record it holds without numbers (until the record is numbered);
- state changes: the log's journal (`EventLog.read_journal`) from the offset the index covers. A
  writer journals an event's name before it creates the event, so a crash between the two leaves a
  name without a document: that name stays pending (looked at again on each read) and is folded in
  once the document exists. An index with no offset (new, or deleted) walks every event once.

Delete the index file at any time: the next read builds it again from the documents.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from .store.base import EventLog, FeedbackStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    key TEXT PRIMARY KEY, id TEXT NOT NULL, received_at TEXT NOT NULL, row TEXT NOT NULL,
    specs TEXT NOT NULL, numbered INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS records_unnumbered ON records (numbered) WHERE numbered = 0;
DROP INDEX IF EXISTS records_received;
CREATE INDEX IF NOT EXISTS records_newest ON records (received_at, key);
CREATE TABLE IF NOT EXISTS items (
    n INTEGER PRIMARY KEY, feedback_id TEXT NOT NULL, spec TEXT NOT NULL, round INTEGER,
    created_at TEXT NOT NULL, reviewer TEXT, status TEXT NOT NULL DEFAULT 'open', summary TEXT,
    actor TEXT, updated_at TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS items_status ON items (status, created_at);
CREATE INDEX IF NOT EXISTS items_newest ON items (created_at, n);
CREATE TABLE IF NOT EXISTS events (name TEXT PRIMARY KEY, n INTEGER NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_n ON events (n, seq);
CREATE TABLE IF NOT EXISTS pending (name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS counts (key TEXT PRIMARY KEY, total INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS records_added AFTER INSERT ON records BEGIN
    INSERT INTO counts (key, total) VALUES ('records', 1) ON CONFLICT (key) DO UPDATE SET total = total + 1;
END;
CREATE TRIGGER IF NOT EXISTS records_removed AFTER DELETE ON records BEGIN
    UPDATE counts SET total = total - 1 WHERE key = 'records';
END;
CREATE TRIGGER IF NOT EXISTS items_added AFTER INSERT ON items BEGIN
    INSERT INTO counts (key, total) VALUES ('status:' || NEW.status, 1)
        ON CONFLICT (key) DO UPDATE SET total = total + 1;
END;
CREATE TRIGGER IF NOT EXISTS items_removed AFTER DELETE ON items BEGIN
    UPDATE counts SET total = total - 1 WHERE key = 'status:' || OLD.status;
END;
CREATE TRIGGER IF NOT EXISTS items_moved AFTER UPDATE OF status ON items WHEN OLD.status IS NOT NEW.status BEGIN
    UPDATE counts SET total = total - 1 WHERE key = 'status:' || OLD.status;
    INSERT INTO counts (key, total) VALUES ('status:' || NEW.status, 1)
        ON CONFLICT (key) DO UPDATE SET total = total + 1;
END;
"""

CLOSED_STATUSES = ("resolved", "wont_fix")
CLOSED_OUT = "status NOT IN ('resolved', 'wont_fix')"
CLOSED_IN = "status IN ('resolved', 'wont_fix')"
ITEM_COLUMNS = "n, feedback_id, spec, round, created_at, reviewer, status, summary, actor, updated_at, seq"


class BoardIndex:
    """The index of one board: `refresh` folds in what the log and the store added since."""

    def __init__(self, store: FeedbackStore, log: EventLog, board: str, specs: Callable[[dict[str, Any]], list[Any]]):
        self.store = store
        self.log = log
        self.board = board
        self._specs = specs
        self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        where = self.log.index_location(self.board)
        try:
            db = _connect(where)
            db.execute("SELECT count(*) FROM meta").fetchone()
        except sqlite3.DatabaseError:  # a damaged cache: it is rebuilt from the documents
            _remove(where)
            db = _connect(where)
        return db

    def close(self) -> None:
        self.db.close()

    # --- catching up ----------------------------------------------------------------------
    def refresh(self) -> None:
        """Fold in new records, numbers and state changes (one transaction: all or nothing)."""
        try:
            self._refresh()
        except sqlite3.DatabaseError:  # damaged underneath us: start again from the documents
            self.db.close()
            _remove(self.log.index_location(self.board))
            self.db = _connect(self.log.index_location(self.board))
            self._refresh()

    def _refresh(self) -> None:
        db = self.db
        with _transaction(db):
            self._add_records()
            touched = self._add_numbers()
            touched |= self._add_events()
            for n in touched:
                self._recompute(n)

    def _add_records(self) -> None:
        stamp = self.store.records_stamp(self.board)
        seen = self.db.execute("SELECT value FROM meta WHERE key = 'records'").fetchone()
        if stamp is not None and seen is not None and seen[0] == stamp:
            return  # no record since the last listing
        known = {key for (key,) in self.db.execute("SELECT key FROM records")}
        for stored in self.store.list(self.board):
            if stored.key in known:
                continue
            record = self.store.read(stored.key)
            specs = [_spec_doc(spec) for spec in self._specs(record)]
            row = {k: record.get(k) for k in ("round", "reviewer", "receivedAt")}
            self.db.execute(
                "INSERT INTO records (key, id, received_at, row, specs) VALUES (?, ?, ?, ?, ?)",
                (stored.key, stored.id, str(record.get("receivedAt") or ""), _dump(row), _dump(specs)),
            )
        if stamp is not None:  # taken before the listing: a record added during it changes the stamp
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('records', ?)", (stamp,))

    def _add_numbers(self) -> set[int]:
        touched: set[int] = set()
        waiting = self.db.execute("SELECT key, id, row, specs FROM records WHERE numbered = 0").fetchall()
        for key, rid, row_text, specs_text in waiting:
            doc = self.log.read(f"{self.board}/f/{rid}.json")
            if doc is None:
                continue
            row, specs = json.loads(row_text), {s["key"]: s for s in json.loads(specs_text)}
            for spec_key, n in (doc.get("items") or {}).items():
                spec = specs.get(str(spec_key))
                if spec is None:
                    continue
                self.db.execute(
                    "INSERT OR REPLACE INTO items (n, feedback_id, spec, round, created_at, reviewer)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (int(n), rid, _dump(spec), row.get("round"), str(row.get("receivedAt") or ""), row.get("reviewer")),
                )
                touched.add(int(n))
            self.db.execute("UPDATE records SET numbered = 1 WHERE key = ?", (key,))
        return touched

    def _add_events(self) -> set[int]:
        db = self.db
        offset_row = db.execute("SELECT value FROM meta WHERE key = 'journal'").fetchone()
        offset = int(offset_row[0]) if offset_row else None
        names, end = self.log.read_journal(self.board, offset)
        pending = [name for (name,) in db.execute("SELECT name FROM pending")]
        touched: set[int] = set()
        for name in dict.fromkeys([*pending, *names]):  # each looked up: the board's events are many
            if db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone() is not None:
                db.execute("DELETE FROM pending WHERE name = ?", (name,))
                continue
            doc = self.log.read(name)
            if doc is None:  # journaled, not created (yet, or ever: a writer that crashed)
                db.execute("INSERT OR IGNORE INTO pending (name) VALUES (?)", (name,))
                continue
            db.execute("DELETE FROM pending WHERE name = ?", (name,))
            db.execute(
                "INSERT OR IGNORE INTO events (name, n, seq, doc) VALUES (?, ?, ?, ?)",
                (name, int(doc["n"]), int(doc["seq"]), _dump(doc)),
            )
            touched.add(int(doc["n"]))
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('journal', ?)", (str(end),))
        return touched

    def _recompute(self, n: int) -> None:
        """An item's state from all its events, in seq order (the last event wins; a summary stays
        until another replaces it)."""
        status, summary, actor, updated, seq = "open", None, None, None, 0
        for (text,) in self.db.execute("SELECT doc FROM events WHERE n = ? ORDER BY seq", (n,)):
            event = json.loads(text)
            seq, status, actor = int(event["seq"]), event["status"], event.get("actor")
            updated = str(event.get("at") or updated or "")
            if event.get("summary"):
                summary = str(event["summary"])
        self.db.execute(
            "UPDATE items SET status = ?, summary = ?, actor = ?, updated_at = ?, seq = ? WHERE n = ?",
            (status, summary, actor, updated or "", seq, n),
        )

    # --- reading --------------------------------------------------------------------------
    def unnumbered(self) -> list[str]:
        """Keys of records the index holds without numbers, oldest first."""
        rows = self.db.execute("SELECT key FROM records WHERE numbered = 0 ORDER BY received_at, key")
        return [key for (key,) in rows]

    def items(
        self,
        status: str | None = None,
        *,
        only: int | None = None,
        since: str | None = None,
        limit: int | None = None,
        newest_first: bool = False,
        still_open: bool = False,
    ) -> list[tuple[Any, ...]]:
        """Item rows (`ITEM_COLUMNS`) by number, or newest first; filtered and paged in SQLite.
        `still_open`: only items that are not closed (resolved or won't fix)."""
        where: list[str] = [CLOSED_OUT] if still_open else []
        args: list[Any] = []
        if only is not None:
            where.append("n = ?")
            args.append(only)
        if status is not None:
            where.append("status = ?")
            args.append(status)
        if since is not None:
            where.append("created_at >= ?")
            args.append(since)
        if newest_first and not still_open and status is None:
            # the open ones (anything not closed) first, then the closed ones: two walks down the
            # (created_at, n) index, each stopping at the page's end
            first = self.items(since=since, limit=limit, newest_first=True, still_open=True)
            left = None if limit is None else limit - len(first)
            if left == 0:
                return first
            return first + self._select([*where, CLOSED_IN], args, True, left)
        return self._select(where, args, newest_first, limit)

    def _select(
        self, where: list[str], args: list[Any], newest_first: bool, limit: int | None
    ) -> list[tuple[Any, ...]]:
        sql = f"SELECT {ITEM_COLUMNS} FROM items"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY created_at DESC, n DESC" if newest_first else " ORDER BY n"
        if limit is not None:
            sql += " LIMIT ?"
            args = [*args, limit]
        return self.db.execute(sql, args).fetchall()

    def events(self, numbers: list[int]) -> dict[int, list[dict[str, Any]]]:
        """The state changes of these items, each item's in seq order."""
        found: dict[int, list[dict[str, Any]]] = {}
        if not numbers:
            return found
        rows: Iterable[tuple[int, str]]
        if len(numbers) <= 500:
            marks = ",".join("?" * len(numbers))
            rows = self.db.execute(f"SELECT n, doc FROM events WHERE n IN ({marks}) ORDER BY n, seq", numbers)
        else:  # a long listing: one pass over the table beats a long IN list
            wanted = set(numbers)
            rows = (row for row in self.db.execute("SELECT n, doc FROM events ORDER BY n, seq") if row[0] in wanted)
        for n, doc in rows:
            found.setdefault(n, []).append(json.loads(doc))
        return found

    def cites(self, file: str) -> bool:
        """True when a state change of the board names `file` as its evidence."""
        sql = "SELECT 1 FROM events WHERE json_extract(doc, '$.evidence.file') = ? LIMIT 1"
        return self.db.execute(sql, (file,)).fetchone() is not None

    def count(self, status: str | None = None, since: str | None = None, still_open: bool = False) -> int:
        if since is None:  # the kept totals; a `since` walks only the items received since then
            totals = self._totals()
            statuses = [status] if status is not None else [k[7:] for k in totals if k.startswith("status:")]
            closed = CLOSED_STATUSES if still_open else ()
            return sum(totals.get(f"status:{s}", 0) for s in statuses if s not in closed)
        where: list[str] = [CLOSED_OUT] if still_open else []
        args: list[Any] = []
        if status is not None:
            where.append("status = ?")
            args.append(status)
        where.append("created_at >= ?")
        args.append(since)
        found: int = self.db.execute("SELECT count(*) FROM items WHERE " + " AND ".join(where), args).fetchone()[0]
        return found

    def record_count(self, since: str | None = None) -> int:
        """How many records the board has (received since `since`)."""
        if since is None:
            return self._totals().get("records", 0)
        sql = "SELECT count(*) FROM records WHERE received_at >= ?"
        found: int = self.db.execute(sql, (since,)).fetchone()[0]
        return found

    def _totals(self) -> dict[str, int]:
        """The kept totals: `records`, and `status:<status>` for each status's items."""
        return {str(key): int(total) for key, total in self.db.execute("SELECT key, total FROM counts")}

    def records(self, *, since: str | None = None, limit: int | None = None) -> list[tuple[str, str]]:
        """(received at, key) of the board's records, newest first."""
        sql, args = "SELECT received_at, key FROM records", list[Any]()
        if since is not None:
            sql += " WHERE received_at >= ?"
            args.append(since)
        sql += " ORDER BY received_at DESC, key DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [(str(at), str(key)) for at, key in self.db.execute(sql, args)]


def _connect(where: str) -> sqlite3.Connection:
    db = sqlite3.connect(where, timeout=30.0, isolation_level=None, check_same_thread=False)
    if where != ":memory:":  # a power cut may cost the last catch-up (done again), never the file
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA recursive_triggers = ON")  # a row INSERT OR REPLACE replaces is counted out
    db.executescript(SCHEMA)
    _count_once(db)
    return db


def _count_once(db: sqlite3.Connection) -> None:
    """Count the rows of an index made before it kept counts (once: the triggers keep them since)."""
    if db.execute("SELECT 1 FROM meta WHERE key = 'counts'").fetchone() is not None:
        return
    with _transaction(db):
        if db.execute("SELECT 1 FROM meta WHERE key = 'counts'").fetchone() is not None:
            return  # another process counted first
        db.execute("DELETE FROM counts")
        db.execute("INSERT INTO counts (key, total) SELECT 'records', count(*) FROM records")
        db.execute("INSERT INTO counts (key, total) SELECT 'status:' || status, count(*) FROM items GROUP BY status")
        db.execute("INSERT INTO meta (key, value) VALUES ('counts', '1')")


class _transaction:
    """BEGIN IMMEDIATE … COMMIT (ROLLBACK on error): one writer of the index at a time, across
    processes; a crash mid-way leaves the index as it was."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute("ROLLBACK" if kind is not None else "COMMIT")


def _remove(where: str) -> None:
    if where == ":memory:":
        return
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:
            os.unlink(where + suffix)
        except FileNotFoundError:
            pass


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _spec_doc(spec: Any) -> dict[str, Any]:
    return {
        "key": spec.key,
        "kind": spec.kind,
        "variant": spec.variant,
        "text": spec.text,
        "severity": spec.severity,
        "pin": spec.pin,
        **({"attachments": spec.attachments} if spec.attachments else {}),
    }
