"""Per-board review state (serving -> regenerating -> serving -> done) and its SSE subscribers.

A board may also carry `error`: why the last `pinup serve --generate` round failed. It is kept
while the board is back at "serving" (so a board that polls /api/progress sees it, not only
the SSE stream) and cleared when the board starts regenerating, is done, or reloads.

Site pages without a board listen on the `SITE` channel. After `pinup serve` rebuilds the site
(its watcher), `rebuilt` or `build_failed` sends one event to every stream, board or site:
`{"type": "rebuilt", "version": id, "pages": [...]}` or `{"type": "build_error", "message": ...}`.
A page that polls instead (no EventSource, or the stream gave up) names the version it shows
(`since_version`) and gets the same `rebuilt` event, made of the rebuilds it missed: the last
`REBUILDS_KEPT` are remembered, so it swaps styles in place just as a streaming page does.

Thread-safe on purpose: `pinup serve --generate` publishes progress from a worker thread while
the event loop streams it to browsers, and `pinup serve` may block on `wait_for` in another thread.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal

Status = Literal["serving", "regenerating", "done"]
STATUSES: tuple[Status, ...] = ("serving", "regenerating", "done")
CLOSED: dict[str, Any] = {"_closed": True}
#: the channel of site pages (never a board slug: slugs cannot contain "*")
SITE = "*"
#: how many rebuilds a polling page may fall behind and still take their changes in place
REBUILDS_KEPT = 32


@dataclass
class BoardState:
    status: Status = "serving"
    message: str | None = None
    progress: Any = None
    error: str | None = None
    version: int = 0

    def snapshot(self, board: str) -> dict[str, Any]:
        event: dict[str, Any] = {"board": board, "status": self.status}
        if self.message is not None:
            event["message"] = self.message
        if self.progress is not None:
            event["progress"] = self.progress
        if self.error is not None:
            event["error"] = self.error
        return event


class Subscriber:
    """One SSE stream: a queue owned by the event loop that created it."""

    def __init__(self, board: str, loop: asyncio.AbstractEventLoop) -> None:
        self.board = board
        self.loop = loop
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=256)

    def push(self, event: dict[str, Any]) -> None:
        """Called from any thread."""

        def put() -> None:
            if self.queue.full():  # a stalled reader loses old progress, never the newest state
                self.queue.get_nowait()
            self.queue.put_nowait(event)

        try:
            self.loop.call_soon_threadsafe(put)
        except RuntimeError:  # loop closed: the stream is gone
            pass


class BoardStates:
    """All boards served by one app. `status`, `set_status`, `publish`, `reload`, `wait_for`."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._states: dict[str, BoardState] = {}
        self._subs: dict[str, set[Subscriber]] = {}
        self._reload_listeners: list[Callable[[str], None]] = []
        self._closed = False
        self.site_version = ""  # the build id of what is served ("" before the first build is known)
        self.build_error: str | None = None  # why the last rebuild failed (the last good build is served)
        #: the last rebuilds, oldest first: (version before, its `rebuilt` event)
        self._rebuilds: deque[tuple[str, dict[str, Any]]] = deque(maxlen=REBUILDS_KEPT)

    # --- reading -------------------------------------------------------------------------
    def status(self, board: str) -> Status:
        with self._lock:
            return self._states.get(board, BoardState()).status

    def snapshot(self, board: str) -> dict[str, Any]:
        with self._lock:
            return self._states.get(board, BoardState()).snapshot(board)

    def site_snapshot(self) -> dict[str, Any]:
        """The site channel's state: the served build's id, and the last rebuild's error if it failed."""
        with self._lock:
            event: dict[str, Any] = {"status": "serving", "version": self.site_version}
            if self.build_error is not None:
                event["buildError"] = self.build_error
            return event

    def since_version(self, version: str) -> dict[str, Any] | None:
        """The `rebuilt` event a page showing build `version` missed: None when it shows the served
        build (or does not know which it shows); without `pages` (a reload) when the rebuilds since
        are not all remembered."""
        with self._lock:
            current = self.site_version
            if not version or not current or version == current:
                return None
            chain = list(self._rebuilds)
        starts = [i for i, (before, _event) in enumerate(chain) if before == version]
        if not starts:
            return {"type": "rebuilt", "version": current}
        missed = [event for _before, event in chain[starts[-1] :]]
        pages = list(dict.fromkeys(p for event in missed for p in event["pages"]))
        event: dict[str, Any] = {"type": "rebuilt", "version": current, "pages": pages}
        if all("restyled" in e for e in missed):
            # in place only when every rebuild that changed it took it in place
            taken = dict.fromkeys(name for e in missed for name in e["restyled"])
            event["restyled"] = [n for n in taken if all(n in e["restyled"] or n not in e["pages"] for e in missed)]
        return event

    def boards(self) -> list[str]:
        with self._lock:
            return sorted(self._states)

    # --- changing ------------------------------------------------------------------------
    def set_status(
        self, board: str, status: Status, message: str | None = None, progress: Any = None, *, error: str | None = None
    ) -> None:
        """Change a board's state and tell every subscriber.

        `error` records a failed generation (shown by polling boards too). Without one, a move to
        "regenerating" or "done" clears the old error; a plain "serving" keeps it.
        """
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        with self._lock:
            state = self._states.setdefault(board, BoardState())
            state.status, state.message, state.progress = status, message, progress
            if error is not None:
                state.error = str(error)
            elif status != "serving":
                state.error = None
            state.version += 1
            event = state.snapshot(board)
            self._lock.notify_all()
        self._fan_out(board, event)

    def publish(self, board: str, event: dict[str, Any]) -> None:
        """Send an event to the board's SSE subscribers; `board` and `status` are filled in."""
        with self._lock:
            state = self._states.setdefault(board, BoardState())
            if "progress" in event:
                state.progress = event["progress"]
            if "message" in event:
                state.message = event["message"]
            if event.get("error"):
                state.error = str(event["error"])
            full = {**state.snapshot(board), **event, "board": board}
        self._fan_out(board, full)

    def reload(self, board: str, build: str | None = None) -> None:
        """The next round is built: back to serving, and every open board page reloads itself.

        `build` (the manifest's digest of the built board) lets a page that already shows that
        build skip the reload: one `pinup build` plus an agent's own reload is still one reload."""
        for listener in list(self._reload_listeners):
            listener(board)
        with self._lock:
            state = self._states.setdefault(board, BoardState())
            state.status, state.message, state.progress, state.error = "serving", None, None, None
            state.version += 1
            event = {**state.snapshot(board), "reload": True}
            if build:
                event["build"] = build
            self._lock.notify_all()
        self._fan_out(board, event)

    def rebuilt(self, version: str, pages: list[str], restyled: list[str] | None = None) -> None:
        """The site was rebuilt: every open page (site or board) hears it once; `restyled` names the
        changes a page takes in place (stylesheets, pages whose styles alone changed)."""
        event: dict[str, Any] = {"type": "rebuilt", "version": version, "pages": pages}
        if restyled is not None:
            event["restyled"] = restyled
        with self._lock:
            if version != self.site_version:
                self._rebuilds.append((self.site_version, event))
            self.site_version, self.build_error = version, None
        self._broadcast(event)

    def build_failed(self, message: str) -> None:
        """A rebuild failed: pages show `message`; the last good build keeps being served."""
        with self._lock:
            self.build_error = message
        self._broadcast({"type": "build_error", "message": message})

    def on_reload(self, listener: Callable[[str], None]) -> None:
        self._reload_listeners.append(listener)

    def wait_for(
        self, board: str, status: Status | tuple[Status, ...] | None = None, timeout: float | None = None
    ) -> Status:
        """Block (any thread) until the board changes state, or reaches `status`; returns it.

        Raises TimeoutError when `timeout` seconds pass first.
        """
        wanted = (status,) if isinstance(status, str) else status
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            start = self._states.get(board, BoardState()).version
            while True:
                state = self._states.get(board, BoardState())
                if wanted is None and state.version != start:
                    return state.status
                if wanted is not None and state.status in wanted:
                    return state.status
                if self._closed:
                    raise TimeoutError("board states closed")
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError(f"board {board} did not change in {timeout}s")
                self._lock.wait(remaining)

    # --- subscribers ---------------------------------------------------------------------
    def subscribe(self, board: str) -> Subscriber:
        sub = Subscriber(board, asyncio.get_running_loop())
        with self._lock:
            self._subs.setdefault(board, set()).add(sub)
            if self._closed:
                sub.push(CLOSED)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            self._subs.get(sub.board, set()).discard(sub)

    async def events(
        self, board: str, heartbeat: float, first: dict[str, Any] | None = None
    ) -> AsyncIterator[dict[str, Any] | None]:
        """`first` (default: the board's current state), then each change; None means "send a heartbeat"."""
        sub = self.subscribe(board)
        try:
            if first is not None:
                yield first
            else:
                yield self.site_snapshot() if board == SITE else self.snapshot(board)
            while True:
                try:
                    event = await asyncio.wait_for(sub.queue.get(), timeout=heartbeat)
                except TimeoutError:
                    yield None
                    continue
                if event is CLOSED:
                    return
                yield event
        finally:
            self.unsubscribe(sub)

    def close(self) -> None:
        """Shutdown: end every SSE stream cleanly and wake every waiter."""
        with self._lock:
            self._closed = True
            subs = [s for group in self._subs.values() for s in group]
            self._lock.notify_all()
        for sub in subs:
            sub.push(CLOSED)

    def _broadcast(self, event: dict[str, Any]) -> None:
        with self._lock:
            subs = [s for group in self._subs.values() for s in group]
        for sub in subs:
            sub.push(event)

    def _fan_out(self, board: str, event: dict[str, Any]) -> None:
        with self._lock:
            subs = list(self._subs.get(board, ()))
        for sub in subs:
            sub.push(event)
