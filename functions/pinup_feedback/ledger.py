"""The double-submit guard and idempotent replays (clientId is the idempotency key).

Local mode (one reviewer, one server session): one final submit per board and round. The same
clientId with the same body replays the original 200 and writes nothing; anything else is 409.
A reload (next round built) opens the board again.

The local receipts are rebuilt from the store when the server starts (`Ledger.rebuild`), so these
promises hold across restarts: the same clientId and body replays the stored id, a second final
for a round that already has one is 409, and a waiting regenerate request is still pending.

Hosted mode (many reviewers per board, many Lambda instances): the guard is per clientId and
round, made atomic across instances by a create-only claim object in the store that reserves one
record name. If that name is still free (an earlier attempt failed before it was acknowledged),
this request stores there; if it is taken, the same body replays the original 200 and a different
body is 409. Other reviewers are never blocked. Without a clientId there is nothing to key on,
so each submission is stored as its own record.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .store.base import FeedbackStore, RecordNotFound

META_FIELDS = ("id", "receivedAt", "kind", "clientHash")


def body_only(record: dict[str, Any]) -> dict[str, Any]:
    """A stored record without the fields the server added: what the client sent."""
    return {k: v for k, v in record.items() if k not in META_FIELDS}


def fingerprint(body: dict[str, Any]) -> str:
    """Content identity of a validated body (key order and whitespace do not matter)."""
    canon = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canon.encode()).hexdigest()


def claim_name(board: str, round_: int, client_id: str) -> str:
    """Store-relative name of the hosted claim for (board, round, clientId); the id is hashed."""
    digest = hashlib.sha256(client_id.encode()).hexdigest()[:40]
    return f"{board}/r{round_}/{digest}.json"


@dataclass(frozen=True)
class Receipt:
    id: str
    action: str
    fingerprint: str
    client_id: str | None


def guard_key(local: bool, kind: str, board: str, round_: int, client_id: str | None) -> tuple[str, ...] | None:
    """What must not run concurrently around check-and-store (None: nothing).

    Local finals: the whole board (one final per round, so exactly one of concurrent finals wins).
    Anything else with a clientId: that client's submissions to the round (a double-click waits
    for the first and replays it). Without a clientId nothing can be matched, so nothing waits:
    other reviewers and other requests never queue behind one another's writes.
    """
    if local and kind == "final":
        return ("final", board)
    if client_id is not None:
        return ("client", board, str(round_), client_id)
    return None


class _Guard:
    """What `Ledger.guard` returns: the lock of one key, shared with its other holders and waiters."""

    __slots__ = ("locks", "key", "entry")

    def __init__(self, locks: dict[tuple[str, ...], list[Any]], key: tuple[str, ...] | None) -> None:
        self.locks, self.key = locks, key
        self.entry: list[Any] | None = None

    async def __aenter__(self) -> None:
        if self.key is None:
            return
        entry = self.locks.get(self.key)
        if entry is None:
            entry = self.locks[self.key] = [asyncio.Lock(), 0]
        entry[1] += 1
        self.entry = entry
        try:
            await entry[0].acquire()
        except BaseException:  # cancelled while waiting: not a holder any more
            self._leave()
            raise

    async def __aexit__(self, *exc: object) -> None:
        if self.entry is not None:
            self.entry[0].release()
            self._leave()

    def _leave(self) -> None:
        entry, self.entry = self.entry, None
        assert entry is not None and self.key is not None
        entry[1] -= 1
        if entry[1] == 0 and self.locks.get(self.key) is entry:
            del self.locks[self.key]


class Ledger:
    """In-memory receipts for this process, with narrow locks around check-and-store (`guard`)."""

    def __init__(self) -> None:
        self._finals: dict[tuple[str, int], Receipt] = {}
        self._seen: dict[tuple[str, int, str, str], Receipt] = {}
        self._pending: dict[tuple[str, int], Receipt] = {}  # a regenerate request no round answered yet
        self._locks: dict[tuple[str, ...], list[Any]] = {}  # key -> [lock, holders and waiters]

    def guard(self, key: tuple[str, ...] | None) -> _Guard:
        """`async with`: hold the lock for `key` (none for None); a key's lock is dropped when
        nobody uses it. A class, not an @asynccontextmanager: that costs a generator per request."""
        return _Guard(self._locks, key)

    def final_for(self, board: str, round_: int) -> Receipt | None:
        return self._finals.get((board, round_))

    def replay(self, board: str, round_: int, client_id: str | None, fp: str) -> Receipt | None:
        if client_id is None:
            return None
        return self._seen.get((board, round_, client_id, fp))

    def pending_for(self, board: str, round_: int) -> Receipt | None:
        """The regenerate request waiting on this round (None once a final closed it or a reload)."""
        return self._pending.get((board, round_))

    def remember(self, board: str, round_: int, kind: str, receipt: Receipt) -> None:
        if kind == "final":
            self._finals.setdefault((board, round_), receipt)
            self._pending.pop((board, round_), None)
        elif (board, round_) not in self._finals:
            self._pending[(board, round_)] = receipt
        if receipt.client_id is not None:
            self._seen[(board, round_, receipt.client_id, receipt.fingerprint)] = receipt

    def reset_board(self, board: str) -> None:
        """A reload starts a new review session for the board."""
        for final in [k for k in self._finals if k[0] == board]:
            del self._finals[final]
        for seen in [k for k in self._seen if k[0] == board]:
            del self._seen[seen]
        for pending in [k for k in self._pending if k[0] == board]:
            del self._pending[pending]

    def rebuild_from(self, store: FeedbackStore) -> int:
        """`rebuild` from every readable record of a store, oldest first (local start-up)."""

        def records() -> Iterator[dict[str, Any]]:
            for item in store.list():
                try:
                    yield store.read(item.key)
                except (OSError, ValueError, RecordNotFound):
                    continue  # unreadable: it was never acknowledged as this name, or is damaged

        return self.rebuild(records())

    def rebuild(self, records: Iterable[dict[str, Any]]) -> int:
        """Remember stored records (oldest first), as if this process had acknowledged them.

        Records that do not look like ours (no board, round or id) are ignored. Returns how many
        were taken in.
        """
        count = 0
        for record in records:
            board, round_, rid, kind = record.get("board"), record.get("round"), record.get("id"), record.get("kind")
            if not (
                isinstance(board, str)
                and isinstance(round_, int)
                and isinstance(rid, str)
                and kind in ("final", "regenerate")
            ):
                continue
            client_id = record.get("clientId")
            cid = client_id if isinstance(client_id, str) else None
            receipt = Receipt(rid, str(kind), fingerprint(body_only(record)), cid)
            self.remember(board, round_, str(kind), receipt)
            count += 1
        return count
