"""`pinup wait`: block until a board's next feedback record lands in the store.

"Next" is decided by a cursor per board (the last record `wait` returned, kept in
`<workspace>/.pinup/wait/`) and by the running server's start time, so a record that
arrived before `wait` started is still returned once, and never twice. While a server
runs (one started or restarted while we wait too), its SSE stream wakes us the moment a
record is stored; the store is also checked about once a second, which covers a server that
is not (or no longer) running.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from pinup.serve import servefile
from pinup.serve.workspace import Workspace
from pinup_feedback.atomicfile import replace_file

EXIT_FINAL = 0
EXIT_REGENERATE = 10
EXIT_TIMEOUT = 2
_TS = re.compile(r"^(\d{8}T\d{6}\.\d{6}Z)-")


@dataclass(frozen=True)
class WaitResult:
    code: int
    record: dict[str, Any] | None


def _iso_to_ts(iso: str) -> str:
    """2026-11-30T00:15:00.123456Z -> 20261130T001500.123456Z (the store's file-name stamp)."""
    digits = iso.replace("-", "").replace(":", "")
    return digits if "." in digits else digits.replace("Z", ".000000Z")


class Cursor:
    """The key of the last record `wait` returned for a board (or for all boards)."""

    def __init__(self, ws: Workspace, board: str | None) -> None:
        self.path = ws.src / ".pinup" / "wait" / f"{board or '_all'}.cursor"

    def get(self) -> str:
        try:
            return self.path.read_text(encoding="utf-8").strip()
        except OSError:
            return ""

    def set(self, key: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(self.path, key + "\n")


def _list(store_root: Path, board: str | None) -> list[tuple[str, str, Path]]:
    """(timestamp, key, path) for every record, oldest first."""
    folders = [store_root / board] if board else [p for p in store_root.glob("*") if p.is_dir()]
    out = []
    for folder in folders:
        if not folder.is_dir() or folder.name.startswith(("_", ".")):
            continue
        for path in folder.glob("*.json"):
            match = _TS.match(path.name)
            if match:
                out.append((match.group(1), f"{folder.name}/{path.name}", path))
    return sorted(out)


class _EventListener:
    """Sets `wake` on every SSE event from the running server, on a thread of its own.

    `close` ends it for sure before `pinup wait` returns: it shuts the socket down, which wakes a
    read blocked on a quiet stream, and joins the thread. A daemon thread left reading (or still
    importing) while the interpreter shuts down can crash the process after its output was
    written, so the listener is stdlib only and never outlives `wait_for_feedback`.
    """

    def __init__(self, info: servefile.ServeInfo, board: str, wake: threading.Event) -> None:
        self.info = info
        parts = urlsplit(info.base_url)
        factory = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        self._conn = factory(parts.hostname or "127.0.0.1", parts.port, timeout=5.0)
        self._path = "/api/events?" + urlencode({"board": board})
        self._wake = wake
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="pinup-wait-events", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            with self._lock:
                if self._closed:
                    return
                self._conn.connect()  # under the lock: `close` sees either no socket or this one
            self._conn.request("GET", self._path, headers={"Accept": "text/event-stream"})
            response = self._conn.getresponse()
            if response.status != 200:
                return
            if self._conn.sock is not None:
                self._conn.sock.settimeout(None)  # a quiet stream is normal; `close` ends the read
            for line in response:
                if line.startswith(b"data:"):
                    self._wake.set()
        except (OSError, http.client.HTTPException, ValueError):
            return  # the server went away, or `close` shut the socket: the store poll carries on
        finally:
            self._wake.set()

    @property
    def alive(self) -> bool:
        """Still reading the stream (False once the server went away or refused it)."""
        return self._thread.is_alive()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            sock = self._conn.sock
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self._thread.join(timeout=5.0)
        self._conn.close()


def _process_started() -> float:
    """When this process started (epoch seconds), so a record stored while `pinup wait` was still
    importing counts as "next"; the current time where /proc is not available."""
    try:
        stat = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        boot = next(
            float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines() if line.startswith("btime ")
        )
        return boot + int(stat[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return time.time()


def wait_for_feedback(
    ws: Workspace,
    board: str | None,
    timeout: float,
    *,
    store: Path | None = None,
    cancel: threading.Event | None = None,
) -> WaitResult:
    """Return the board's next record (exit 0 final / 10 regenerate) or time out (exit 2).

    `cancel` (the MCP server's, when its client goes away) ends the wait early, as a timeout.
    """
    started = time.monotonic()
    deadline = started + timeout if timeout > 0 else None
    info = servefile.read_live(ws.serve_json)
    board = board or (info.board if info else None)
    store_root = Path(store) if store else (Path(info.store) if info and info.store else ws.store)
    cursor = Cursor(ws, board)
    floor = cursor.get()  # "<ts> <key>" of the last record returned, or ""
    floor_ts, _, floor_key = floor.partition(" ")
    if info is not None:
        since_ts = _iso_to_ts(info.startedAt)
    elif floor_ts:
        since_ts = floor_ts
    else:
        since_ts = _iso_to_ts(time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(_process_started())) + ".000000Z")

    wake = threading.Event()
    listener: _EventListener | None = None
    try:
        while True:
            for ts, key, path in _list(store_root, board):
                if ts < since_ts or (floor_ts and (ts, key) <= (floor_ts, floor_key)):
                    continue
                try:
                    record = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue  # a file being renamed into place; the next pass reads it
                cursor.set(f"{ts} {key}")
                code = EXIT_REGENERATE if record.get("kind") == "regenerate" else EXIT_FINAL
                return WaitResult(code, record)
            remaining = None if deadline is None else deadline - time.monotonic()
            if (remaining is not None and remaining <= 0) or (cancel is not None and cancel.is_set()):
                return WaitResult(EXIT_TIMEOUT, None)
            if board and (listener is None or not listener.alive):
                # only once the store had nothing new; again when a (re)started server takes over
                current = servefile.read_live(ws.serve_json)
                if current is not None and (listener is None or current != listener.info):
                    if listener is not None:
                        listener.close()
                    listener = _EventListener(current, board, wake)
            wake.wait(1.0 if remaining is None else min(1.0, remaining))
            wake.clear()
    finally:
        if listener is not None:
            listener.close()
