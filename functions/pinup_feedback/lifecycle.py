"""Items: every actionable point of the feedback (pin, comment, overall, regenerate) with a number.

Why append-only: agents and reviewers change an item's state from different processes (the CLI,
the MCP server, the board through the API, a Lambda). Every change is a new create-only file
(O_EXCL on disk, If-None-Match in S3), so two agents claiming the same item race for the same
event name and exactly one wins. Nothing is ever rewritten.

Layout (under `<store>/_items/` on disk, `<prefix>/feedback/_items/` in S3), per board:

- `n/<first>.json`: the slot of one record's numbers, `first` to `first + k - 1` for its k items
  (create-only: a number is never given twice). Numbers are taken in runs that follow each
  other with no overlap: a writer starts a run only right after the end of the newest run it
  has read, so any other run starting inside it would have to start at `first`, whose name is
  taken. Stores written before numbers were written in runs hold one slot per number; both read alike: the slot
  named `n` covers `n` up to the largest number in it;
- `f/<feedbackId>.json`: the numbers of one record's items (what readers trust; slots that no
  record claims are skipped, so numbers may skip but never repeat or change); on disk one more
  link of the slot file, made only once the slot is durable; a reader that finds a record's
  slot without this document finishes the numbering with it;
- `e/<n>/<seq>.json`: the item's state changes, seq 1, 2, ... (create-only: one writer per seq);
- on disk, `journal`: each state change's name, appended before the change is created, and
  `index.sqlite3`, the board's index (`itemindex.py`), which every read brings up to date.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .evidence import TYPES as EVIDENCE_TYPES
from .evidence import Evidence, check, event_fields, latest
from .records import BOARD_SLUG, record_attachments, regenerate_request
from .store.base import EventLog, FeedbackStore, iso_ts, now_utc

if TYPE_CHECKING:  # pragma: no cover
    from .itemindex import BoardIndex

Status = Literal["open", "in_progress", "resolved", "wont_fix", "needs_clarification"]
STATUSES: tuple[Status, ...] = ("open", "in_progress", "resolved", "wont_fix", "needs_clarification")
RESOLUTIONS: tuple[Status, ...] = ("resolved", "wont_fix", "needs_clarification")
CLOSED: tuple[Status, ...] = ("resolved", "wont_fix")
MAX_SUMMARY = 2000
MAX_ACTOR = 100


class LifecycleError(Exception):
    """A refused change, with a code for the API and a sentence for a person."""

    code = "lifecycle_error"


class UnknownItem(LifecycleError):
    code = "unknown_item"


class ItemConflict(LifecycleError):
    """The item's state does not allow the change (already claimed, already resolved)."""

    code = "item_conflict"


# --- items -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ItemSpec:
    """One actionable point of a record, before it has a number."""

    key: str
    kind: Literal["pin", "comment", "overall", "regenerate"]
    variant: str | None
    text: str
    severity: str | None = None
    pin: dict[str, Any] | None = None
    #: the images attached to this point (`records.record_attachments`): name, file, ...
    attachments: list[dict[str, Any]] | None = None


def item_specs(record: dict[str, Any]) -> list[ItemSpec]:
    """The record's items in a fixed order: pins, per-variant comments, overall, regenerate.

    An image goes with the point it was attached to: its pin, the comment on its variant, or the
    overall note (which becomes an item of its own when only images were attached to it)."""
    images = record_attachments(record)

    def attached(key: str, value: str | None) -> list[dict[str, Any]] | None:
        found: list[dict[str, Any]] = [
            {"name": str(a.get("name") or a["file"]), "file": a["file"]} for a in images if _target(a) == (key, value)
        ]
        return found or None

    specs = []
    for pin in record.get("pins") or []:
        specs.append(
            ItemSpec(
                f"pin:{pin['id']}",
                "pin",
                pin.get("variant"),
                str(pin.get("note") or ""),
                pin.get("severity"),
                {k: pin.get(k) for k in ("box", "selector", "text", "html")}
                | {k: pin[k] for k in ("path", "viewport") if pin.get(k) is not None},
                attached("pin", pin.get("id")),
            )
        )
    comments = record.get("comments") or {}
    for variant, text in comments.items():
        if isinstance(text, str) and text.strip():
            specs.append(
                ItemSpec(f"comment:{variant}", "comment", variant, text, attachments=attached("variant", variant))
            )
    for variant in sorted({a["variant"] for a in images if _target(a)[0] == "variant"} - set(comments)):
        specs.append(ItemSpec(f"comment:{variant}", "comment", variant, "", attachments=attached("variant", variant)))
    overall = record.get("overall")
    loose = attached("overall", None)
    if (isinstance(overall, str) and overall.strip()) or loose:
        specs.append(
            ItemSpec("overall", "overall", None, overall if isinstance(overall, str) else "", attachments=loose)
        )
    request = regenerate_request(record)
    if record.get("kind") == "regenerate" and request:
        specs.append(ItemSpec("regenerate", "regenerate", None, request))
    return specs


def _target(attachment: dict[str, Any]) -> tuple[str, str | None]:
    if isinstance(attachment.get("pin"), str):
        return "pin", attachment["pin"]
    if isinstance(attachment.get("variant"), str):
        return "variant", attachment["variant"]
    return "overall", None


@dataclass
class Item:
    """An item with its number and current state (the last event wins)."""

    n: int
    board: str
    spec: ItemSpec
    round: int | None
    feedback_id: str
    created_at: str
    reviewer: str | None = None
    status: Status = "open"
    summary: str | None = None
    actor: str | None = None
    updated_at: str = ""
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def evidence(self) -> dict[str, Any]:
        """The commit, PR and evidence file of the latest resolve (`evidence.latest`)."""
        return latest(self.events)

    def public(self) -> dict[str, Any]:
        """The Item of the API (GET /api/items), as docs/feedback-api.md describes it."""
        proof = self.evidence
        return {
            "n": self.n,
            "kind": self.spec.kind,
            "round": self.round,
            "variant": self.spec.variant,
            "text": self.spec.text,
            "severity": self.spec.severity,
            "pin": self.spec.pin,
            **({"attachments": self.spec.attachments} if self.spec.attachments else {}),
            "status": self.status,
            "summary": self.summary,
            "feedbackId": self.feedback_id,
            "updatedAt": self.updated_at or self.created_at,
            "commit": proof.get("commit"),
            "pr": proof.get("pr"),
            "evidence": proof.get("evidence"),
        }


def _fold(item: Item, events: list[dict[str, Any]]) -> Item:
    for event in events:
        item.seq = int(event["seq"])
        item.status = event["status"]
        item.actor = event.get("actor")
        item.updated_at = str(event.get("at") or item.updated_at)
        if event.get("summary"):
            item.summary = str(event["summary"])
    item.events = events
    return item


class Lifecycle:
    """Numbers records' items and records their state changes in the store's item log.

    The next free number of each board is kept in memory (read from the log the first time) and
    numbering is done in batches, so a submission costs no listing and its slot files share the
    group commit's syncs. The cache is only a guess: every slot is still a create-only file, so
    several processes never share a number; a taken slot makes the board's number be read again.
    """

    def __init__(self, store: FeedbackStore, log: EventLog | None = None) -> None:
        self.store = store
        self.log = log if log is not None else store.item_log()
        self._lock = threading.Lock()
        self._next: dict[str, int] = {}
        self._queued: list[dict[str, Any]] = []
        self._queue_lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._indexes: dict[str, BoardIndex] = {}
        self._index_lock = threading.Lock()

    # numbering ---------------------------------------------------------------------------
    def number(self, record: dict[str, Any]) -> dict[str, int]:
        """Give the record's items their numbers (idempotent: a numbered record keeps its own)."""
        with self._lock:
            return self._number_all([record])[0]

    def number_soon(self, record: dict[str, Any], failed: Callable[[Exception], None]) -> None:
        """Number a just-stored record off the request path: one thread numbers what has queued.

        Records that arrive while a batch is being numbered form the next batch, so under load
        many records share one round of syncs. `failed` hears of an error (the record is stored;
        the next read numbers it).
        """
        with self._queue_lock:
            self._queued.append(record)
            if self._worker is None:
                self._worker = threading.Thread(target=self._drain, args=(failed,), name="pinup-items", daemon=True)
                self._worker.start()

    def _drain(self, failed: Callable[[Exception], None]) -> None:
        while True:
            with self._queue_lock:
                batch, self._queued = self._queued, []
                if not batch:
                    self._worker = None
                    return
            try:
                with self._lock:
                    self._number_all(batch)
            except Exception as exc:
                failed(exc)

    def wait_idle(self, timeout: float) -> bool:
        """Wait (at most `timeout` s) until queued records are numbered; True when nothing is left.

        A stopping server calls it, so a graceful stop never cuts a batch of slot files short.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._queue_lock:
                worker = self._worker
            if worker is None:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            worker.join(left)

    def _number_all(self, records: list[dict[str, Any]]) -> list[dict[str, int]]:
        """Number records in one batch: every slot, then every record's numbers (what readers trust)."""
        mappings: dict[str, dict[str, int]] = {}
        todo: list[dict[str, Any]] = []
        seen: set[str] = set()
        for record in records:
            done = self.log.read(f"{record['board']}/f/{record['id']}.json")
            if done is not None:
                mappings[record["id"]] = {str(k): int(v) for k, v in done["items"].items()}
            elif record["id"] not in seen:
                seen.add(record["id"])
                todo.append(record)
        claimed = self._adopt(todo)
        claimed.update(self._claim_slots([r for r in todo if r["id"] not in claimed]))
        for record in todo:  # before the record counts as numbered: never lost
            for number in record.get("reopen") or []:
                self._reopen_quietly(record["board"], int(number), source=f"feedback:{record['id']}")
        docs = [(f"{r['board']}/f/{r['id']}.json", *claimed[r["id"]]) for r in todo]
        for record, created in zip(todo, self.log.cite_many(docs), strict=True):
            if created:
                mappings[record["id"]] = claimed[record["id"]][1]["items"]
            else:  # numbered meanwhile by another process: its numbers stand
                other = self.log.read(f"{record['board']}/f/{record['id']}.json") or claimed[record["id"]][1]
                mappings[record["id"]] = {str(k): int(v) for k, v in other["items"].items()}
        return [mappings[r["id"]] for r in records]

    def _adopt(self, records: list[dict[str, Any]]) -> dict[str, tuple[str | None, dict[str, Any]]]:
        """Slots another writer has taken for these records but not cited yet: finish its numbering.

        A reader (the CLI, the MCP server) can arrive between a server's slots and its numbers
        document. Taking fresh slots then would give the record a second set of numbers and leave the
        first as a gap, so item #1 of a new board could be missing. A slot counts only when it is
        complete (`_complete`: create-only, so nobody can take its numbers any more). Slots are read
        from the newest down and the walk stops at the newest one a numbers document cites.
        """
        adopted: dict[str, tuple[str | None, dict[str, Any]]] = {}
        for board in {r["board"] for r in records}:
            wanted = {r["id"] for r in records if r["board"] == board}
            cited: dict[str, dict[str, Any] | None] = {}
            for name in self._slots_newest_first(board):
                doc = self._peek(name)
                fid = doc.get("feedbackId") if doc else None
                if doc is None or not isinstance(fid, str):
                    continue
                if fid not in cited:
                    cited[fid] = self._peek(f"{board}/f/{fid}.json")
                if cited[fid] is not None:
                    if cited[fid] == doc:
                        break  # the newest numbered record: the slots below it are settled
                    continue  # a set its record did not keep
                if fid in wanted and fid not in adopted and self._complete(board, doc):
                    first = min(int(n) for n in doc["items"].values())
                    adopted[fid] = (_slot(board, first), doc)
        if adopted:
            self.log.settle([slot for slot, _doc in adopted.values() if slot is not None])
        return adopted

    def _slots_newest_first(self, board: str) -> Iterator[str]:
        """The names a slot of the board can have, from the newest number down, without a listing.

        Runs of numbers follow each other from 1 with no holes, so the next free number is the
        cached one, moved past each run found starting there (one missing read when this process
        took the last run; a listing when it is far behind, as a warm Lambda can be), and the walk
        reads down from it. Listing every slot instead made each batch cost as much as the board's
        history.
        """
        following = self._next.get(board) or self._scan(board)
        probes = 0
        while (end := self._end(board, following)) is not None:  # another writer took a run there
            following, probes = end + 1, probes + 1
            if probes == 8:  # far behind (other processes numbered a lot): one listing jumps ahead
                following = max(following, self._scan(board))
        self._next[board] = following
        for n in range(following - 1, 0, -1):
            yield _slot(board, n)

    def _end(self, board: str, n: int) -> int | None:
        """The last number of the run whose slot is named `n`; None when there is no such slot.

        A slot appears whole (`EventLog.take`), so one that cannot be read was cut short by a crash
        before anything cited it: its run is nobody's, and it covers no more than its own name.
        """
        try:
            doc = self.log.read(_slot(board, n))
        except ValueError:
            return n
        if doc is None:
            return None
        numbers = doc.get("items")
        found = [v for v in numbers.values() if isinstance(v, int)] if isinstance(numbers, dict) else []
        return max([n, *found])

    def _complete(self, board: str, doc: dict[str, Any]) -> bool:
        """The slot of the run's first number holds `doc`, and no other slot lies inside the run.

        In a store written before runs each number had a slot: there every one of them must hold
        `doc` too, so a set another writer cut into (a number of it taken) is never adopted.
        """
        numbers = doc.get("items")
        if not isinstance(numbers, dict) or not numbers:
            return False
        first, *rest = sorted(int(n) for n in numbers.values())
        if self._peek(_slot(board, first)) != doc:
            return False
        return all(self._peek(_slot(board, n)) in (None, doc) for n in rest)

    def _peek(self, name: str) -> dict[str, Any] | None:
        """A slot as it is now: None when it is missing or cannot be read (see `_end`)."""
        try:
            return self.log.read(name)
        except ValueError:
            return None

    def _claim_slots(self, records: list[dict[str, Any]]) -> dict[str, tuple[str | None, dict[str, Any]]]:
        """Create the slot of every record's run of numbers; a record whose slot is taken starts again.

        One create per record, whatever its number of items. Gives each record's slot (None without
        items) and the document it holds, which is also the record's numbers document.
        """
        claimed: dict[str, tuple[str | None, dict[str, Any]]] = {}
        for _ in range(50):
            if not records:
                return claimed
            retry = []
            for record in records:
                board, specs = record["board"], item_specs(record)
                first = self._next.get(board) or self._scan(board)
                mapping = {spec.key: first + k for k, spec in enumerate(specs)}
                doc = {"feedbackId": record["id"], "items": mapping, "at": iso_ts(now_utc())}
                if not specs:
                    claimed[record["id"]] = (None, doc)
                elif self.log.take(_slot(board, first), doc):
                    claimed[record["id"]] = (_slot(board, first), doc)
                    self._next[board] = first + len(specs)
                else:  # another writer's run starts there: go on right after the newest run, no hole
                    self._next[board] = self._scan(board)
                    retry.append(record)
            records = retry
        raise ItemConflict("item numbers keep being taken by other writers; try again")

    def _scan(self, board: str) -> int:
        """The board's next number: past the run of its newest slot in the log."""
        slots = self.log.names(f"{board}/n/")
        if not slots:
            return 1
        newest = max(int(name.rsplit("/", 1)[1][:-5]) for name in slots)
        return (self._end(board, newest) or newest) + 1

    def sync(self, board: str) -> BoardIndex:
        """Bring the board's index up to date, numbering every record that has no numbers yet
        (oldest first); returns the index."""
        with self._index_lock:
            index = self._index(board)
            index.refresh()
            missing = index.unnumbered()
        if missing:
            with self._lock:
                self._number_all([self.store.read(key) for key in missing])
            with self._index_lock:
                index.refresh()
        return index

    def _index(self, board: str) -> BoardIndex:
        """The board's index, opened once per Lifecycle (callers hold `_index_lock`)."""
        index = self._indexes.get(board)
        if index is None:
            from .itemindex import BoardIndex

            if not BOARD_SLUG.match(board):  # it names a folder: never one outside the log
                raise ValueError(f"bad board slug {board!r}")

            index = self._indexes[board] = BoardIndex(self.store, self.log, board, item_specs)
        return index

    def close(self) -> None:
        """Close the boards' indexes (a long-lived process that is done with this store)."""
        with self._index_lock:
            for index in self._indexes.values():
                index.close()
            self._indexes.clear()

    # reading -----------------------------------------------------------------------------
    def items(
        self,
        board: str,
        status: str | None = None,
        *,
        since: str | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Item]:
        """The board's items (after numbering new records): by number, or the newest first;
        `status` filters, `since` (an ISO time) keeps those received then or later, `limit` pages."""
        index = self.sync(board)
        with self._index_lock:
            rows = index.items(status, since=since, limit=limit, newest_first=newest_first)
            return _items(board, rows, index)

    def count(self, board: str, status: str | None = None, since: str | None = None, still_open: bool = False) -> int:
        """How many items the board has (with `status`, received since `since`, not closed), as the
        index has them after the last read."""
        with self._index_lock:
            return self._index(board).count(status, since, still_open)

    def count_records(self, board: str, since: str | None = None) -> int:
        """How many records the board has (received since `since`), as the index has them after
        the last read."""
        with self._index_lock:
            return self._index(board).record_count(since)

    def open_items(self, board: str, limit: int) -> tuple[list[Item], int]:
        """The newest `limit` items that are not closed, by number, and how many there are in all."""
        index = self.sync(board)
        with self._index_lock:
            rows = sorted(index.items(limit=limit, newest_first=True, still_open=True))
            return _items(board, rows, index), index.count(still_open=True)

    def records(self, board: str, *, since: str | None = None, limit: int | None = None) -> list[tuple[str, str]]:
        """(received at, key) of the board's records, newest first, from the index (nothing is
        numbered: listing records writes nothing)."""
        with self._index_lock:
            index = self._index(board)
            index.refresh()
            return index.records(since=since, limit=limit)

    def item(self, board: str, n: int) -> Item:
        self.sync(board)
        for item in self._load(board, only=n):
            return item
        raise UnknownItem(f"board {board} has no item #{n}")

    def _load(self, board: str, only: int) -> list[Item]:
        """Item `only` as the index has it, after folding in new state changes (no numbering)."""
        with self._index_lock:
            index = self._index(board)
            index.refresh()
            return _items(board, index.items(only=only), index)

    # changing ----------------------------------------------------------------------------
    def claim(self, board: str, n: int, *, actor: str | None = None) -> Item:
        """open or needs_clarification -> in_progress; a second claimer gets ItemConflict."""

        def decide(item: Item) -> Status:
            if item.status == "in_progress":
                who = f" by {item.actor}" if item.actor else ""
                raise ItemConflict(f"item #{n} is already claimed{who} (in_progress since {item.updated_at})")
            if item.status in CLOSED:
                raise ItemConflict(f"item #{n} is already {item.status}; the reviewer can reopen it")
            return "in_progress"

        return self._change(board, n, "claim", decide, actor=actor)

    def resolve(
        self,
        board: str,
        n: int,
        status: str,
        summary: str,
        *,
        actor: str | None = None,
        evidence: Evidence | None = None,
    ) -> Item:
        """open, in_progress or needs_clarification -> resolved, wont_fix or needs_clarification.

        `evidence` (a commit, a PR, a file) is checked before anything is written; its file is
        stored only once the item's state allows the resolve, just before the event that cites it.
        """
        if status not in RESOLUTIONS:
            raise LifecycleError(f"status must be one of: {', '.join(RESOLUTIONS)}")
        if not summary.strip():
            raise LifecycleError("a summary is required: say what was done (or why not)")
        proof = check(evidence) if evidence is not None else Evidence()

        def decide(item: Item) -> Status:
            if item.status in CLOSED:
                raise ItemConflict(f"item #{n} is already {item.status}; the reviewer can reopen it")
            return status

        def keep_file(item: Item) -> Status:
            status = decide(item)
            if proof.file is not None:
                self.log.put_file(f"{board}/{proof.file.file}", proof.file.data, EVIDENCE_TYPES[proof.file.ext])
            return status

        return self._change(
            board, n, "resolve", keep_file, actor=actor, summary=summary[:MAX_SUMMARY], extra=event_fields(proof)
        )

    def evidence_file(self, board: str, file: str) -> tuple[bytes, str] | None:
        """An evidence file's bytes and content type, only when a resolve event of the board cites
        it (a name is never turned into a path on trust); None otherwise."""
        from .evidence import is_evidence_file
        from .records import BOARD_SLUG

        if not BOARD_SLUG.fullmatch(board) or not is_evidence_file(file):
            return None
        with self._index_lock:
            index = self._index(board)
            index.refresh()
            cited = index.cites(file)
        if not cited:
            return None
        data = self.log.read_file(f"{board}/{file}")
        return None if data is None else (data, EVIDENCE_TYPES[file.rsplit(".", 1)[1]])

    def reopen(self, board: str, n: int, *, actor: str | None = "reviewer", source: str = "api") -> Item:
        """A reviewer reopens a resolved, wont_fix or needs_clarification item (open ones stay as they are)."""

        def decide(item: Item) -> Status | None:
            return "open" if item.status in RESOLUTIONS else None

        return self._change(board, n, "reopen", decide, actor=actor, source=source)

    def _reopen_quietly(self, board: str, n: int, *, source: str) -> None:
        try:
            self._change(
                board,
                n,
                "reopen",
                lambda i: "open" if i.status in RESOLUTIONS else None,
                actor="reviewer",
                source=source,
                numbered=True,
            )
        except UnknownItem:
            pass  # a number the board never had: nothing to reopen

    def _change(
        self,
        board: str,
        n: int,
        action: str,
        decide: Callable[[Item], Status | None],
        *,
        actor: str | None,
        summary: str | None = None,
        source: str = "cli",
        numbered: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> Item:
        """Append one event; if another writer took the seq first, re-read and decide again."""
        actor = actor[:MAX_ACTOR] if actor else None
        for _ in range(50):
            found = self._load(board, only=n) if numbered else [self.item(board, n)]
            if not found:
                raise UnknownItem(f"board {board} has no item #{n}")
            item = found[0]
            status = decide(item)
            if status is None:
                return item
            event = {
                "n": n,
                "seq": item.seq + 1,
                "action": action,
                "status": status,
                "summary": summary,
                "actor": actor,
                "source": source,
                "at": iso_ts(now_utc()),
                **(extra or {}),
            }
            name = f"{board}/e/{n:010d}/{item.seq + 1:06d}.json"
            self.log.journal(board, [name])  # first: the index must find every state change
            if self.log.create(name, event):
                return _fold(item, [*item.events, event])
        raise ItemConflict(f"item #{n} keeps changing under us; try again")


def _items(board: str, rows: list[tuple[Any, ...]], index: BoardIndex) -> list[Item]:
    """Items from their rows in the index, each with its state changes."""
    events = index.events([row[0] for row in rows])
    items = [_item(board, row) for row in rows]
    for item in items:
        item.events = events.get(item.n, [])
    return items


def _item(board: str, row: tuple[Any, ...]) -> Item:
    """An item from its row in the index (`itemindex.ITEM_COLUMNS`)."""
    n, feedback_id, spec, round_, created_at, reviewer, status, summary, actor, updated_at, seq = row
    return Item(
        n=n,
        board=board,
        spec=ItemSpec(**json.loads(spec)),
        round=round_,
        feedback_id=feedback_id,
        created_at=created_at,
        reviewer=reviewer,
        status=status,
        summary=summary,
        actor=actor,
        updated_at=updated_at,
        seq=seq,
    )


def _slot(board: str, n: int) -> str:
    """The name of the slot whose run starts at number `n`."""
    return f"{board}/n/{n:010d}.json"
