"""`pinup wait`'s listener on the server's event stream, in-process against a real `pinup serve`.

The listener wakes `wait` the moment a record is stored, and it is gone for sure when `wait`
returns: a thread left reading a socket (or importing) while the interpreter shuts down can crash
the process after its output was printed, which an agent would read as a failed `pinup wait`.
"""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
from boards_helpers import Served, start_serve, wait_until

from pinup.serve import servefile
from pinup.serve.waiting import EXIT_REGENERATE, WaitResult, _EventListener, wait_for_feedback
from pinup.workspace import resolve

BOARD = "trail-home"


def _new_threads(before: set[threading.Thread], *mine: threading.Thread) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t not in before and t not in mine and t.is_alive()]


def _post(served: Served, **body: object) -> str:
    payload = {"schemaVersion": 1, "board": BOARD, "round": 1, **body}
    r = httpx.post(f"{served.base}/api/feedback", json=payload, timeout=10)
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def test_listener_wakes_on_a_record_and_closes_on_a_quiet_stream(served: Served) -> None:
    assert served.site is not None
    info = servefile.read(served.site / "serve.json")
    assert info is not None
    wake = threading.Event()
    listener = _EventListener(info, BOARD, wake)
    try:
        assert wake.wait(20)  # the stream's first message: the board's state, once subscribed
        assert listener._thread.is_alive()
        wake.clear()
        _post(served, preferred="A")
        assert wake.wait(20)
        assert listener._thread.is_alive()  # woken by an event, not by the stream ending
        wake.clear()
    finally:
        listener.close()  # the stream is quiet now: a read blocked on it has to be woken
    assert not listener._thread.is_alive()


def _start_waiting(served: Served, timeout: float) -> tuple[threading.Thread, list[WaitResult], set[threading.Thread]]:
    """`wait_for_feedback` on a thread of its own: the thread, where its result goes, the threads before it."""
    assert served.src is not None and served.site is not None
    ws = resolve(served.src, served.site, must_exist=False)
    results: list[WaitResult] = []
    before = set(threading.enumerate())
    waiter = threading.Thread(target=lambda: results.append(wait_for_feedback(ws, BOARD, timeout)))
    waiter.start()
    return waiter, results, before


def test_wait_leaves_no_listener_behind(served: Served) -> None:
    waiter, results, before = _start_waiting(served, 60)
    assert wait_until(lambda: bool(_new_threads(before, waiter)), timeout=20)  # nothing stored yet: it listens
    record_id = _post(served, regenerated=True, regenerateAction="more_like_B")
    waiter.join(timeout=60)
    assert not waiter.is_alive()
    [result] = results
    assert result.code == EXIT_REGENERATE and result.record is not None and result.record["id"] == record_id
    assert _new_threads(before) == []
    # a record already waiting is returned without listening at all
    record_id = _post(served, preferred="B")
    assert served.src is not None
    result = wait_for_feedback(resolve(served.src, served.site, must_exist=False), BOARD, 60)
    assert result.record is not None and result.record["id"] == record_id
    assert _new_threads(before) == []


def test_wait_listens_to_a_restarted_server(workspace: Path) -> None:
    """The server restarts while `wait` blocks: it listens to the new one, which then wakes it."""
    served = start_serve(workspace, "--timeout", "0")
    waiter, results, before = _start_waiting(served, 120)
    try:
        assert wait_until(lambda: bool(_new_threads(before, waiter)), timeout=20)
        [first] = _new_threads(before, waiter)
        served.stop()
        assert wait_until(lambda: not first.is_alive(), timeout=20)  # the stream ended with the server
        served = start_serve(workspace, "--timeout", "0")
        readers = served.readers  # the new server's output readers are not `wait`'s
        assert wait_until(lambda: bool(_new_threads(before, waiter, *readers)), timeout=20)  # listening again
        record_id = _post(served, preferred="C")
        waiter.join(timeout=60)
        assert not waiter.is_alive()
        [result] = results
        assert result.record is not None and result.record["id"] == record_id
        assert _new_threads(before, *readers) == []
    finally:
        served.stop()
        waiter.join(timeout=130)
