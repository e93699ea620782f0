"""Runs of item numbers under any interleaving: never a number given twice, never a record numbered twice.

Three writers share one store folder, each with its own cache of the next number, as three processes
would (`pinup serve`, the CLI, the MCP server). Hypothesis interleaves submissions of any size, writers
that die between their slot and their numbers document, slots cut short by a crash, sets of slots
from a store written before runs, and reads (which number whatever is left).
"""

from __future__ import annotations

import json
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from pinup_feedback.lifecycle import Lifecycle, item_specs
from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileStore

BOARD = "hero"
VARIANTS = ("A", "B", "C", "D")


def record(items: int) -> dict[str, Any]:
    """A record with `items` items: comments on the first variants, then an overall note."""
    comments = {v: f"note on {v}" for v in VARIANTS[: min(items, len(VARIANTS))]}
    rec: dict[str, Any] = {
        "schemaVersion": 1,
        "board": BOARD,
        "round": 1,
        "id": uuid.uuid4().hex,
        "receivedAt": iso_ts(now_utc()),
        "kind": "regenerate",
        "clientHash": "0" * 16,
        "comments": comments,
    }
    if items > len(VARIANTS):
        rec["overall"] = "overall note"
    return rec


class Numbering(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="pinup-runs-"))
        self.writers = [Lifecycle(FileStore(self.root)) for _ in range(3)]
        self.store = FileStore(self.root)
        self.records: dict[str, dict[str, Any]] = {}

    def teardown(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def _save(self, items: int) -> dict[str, Any]:
        rec = record(items)
        self.store.save(rec)
        self.records[rec["id"]] = rec
        return rec

    def _log(self) -> Path:
        return self.root / "_items" / BOARD

    def _next_free(self) -> int:
        return Lifecycle(FileStore(self.root))._scan(BOARD)

    @rule(writer=st.integers(0, 2), items=st.integers(0, 5))
    def submit(self, writer: int, items: int) -> None:
        rec = self._save(items)
        numbers = self.writers[writer].number(rec)
        assert sorted(numbers) == sorted(spec.key for spec in item_specs(rec))

    @rule(writer=st.integers(0, 2), items=st.integers(1, 5))
    def dies_after_its_slot(self, writer: int, items: int) -> None:
        """The slot is taken, the numbers document never written (a reader must finish it)."""
        self.writers[writer]._claim_slots([self._save(items)])

    @rule()
    def crash_cuts_a_slot(self) -> None:
        """A slot whose bytes a crash lost: it exists, empty, and nothing cites it."""
        folder = self._log() / "n"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{self._next_free():010d}.json").write_bytes(b"")

    @rule(items=st.integers(1, 5), cited=st.booleans())
    def old_layout_set(self, items: int, cited: bool) -> None:
        """A record numbered by a version before runs: one slot per number, each its whole set."""
        rec = self._save(items)
        first = self._next_free()
        doc = {
            "feedbackId": rec["id"],
            "items": {spec.key: first + k for k, spec in enumerate(item_specs(rec))},
            "at": iso_ts(now_utc()),
        }
        for n in doc["items"].values():
            (self._log() / "n").mkdir(parents=True, exist_ok=True)
            (self._log() / "n" / f"{n:010d}.json").write_text(json.dumps(doc))
        if cited:
            (self._log() / "f").mkdir(parents=True, exist_ok=True)
            (self._log() / "f" / f"{rec['id']}.json").write_text(json.dumps(doc))

    @rule(writer=st.integers(0, 2))
    def read(self, writer: int) -> None:
        items = self.writers[writer].items(BOARD)
        expected = {(rid, spec.key) for rid, rec in self.records.items() for spec in item_specs(rec)}
        assert {(i.feedback_id, i.spec.key) for i in items} == expected  # every item numbered, once
        other = self.writers[(writer + 1) % 3].items(BOARD)
        assert [(i.n, i.feedback_id, i.spec.key) for i in other] == [(i.n, i.feedback_id, i.spec.key) for i in items]

    @invariant()
    def no_number_is_given_twice(self) -> None:
        folder = self._log() / "f"
        given: list[int] = []
        for path in folder.glob("*.json") if folder.is_dir() else []:
            given += json.loads(path.read_text())["items"].values()
        assert len(given) == len(set(given)), sorted(given)


Numbering.TestCase.settings = settings(max_examples=150, stateful_step_count=30, deadline=None)
test_runs_of_numbers_under_any_interleaving = Numbering.TestCase
