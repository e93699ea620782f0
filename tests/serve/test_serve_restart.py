"""Promises that survive a restart of `pinup serve`: the ledger, closed/pending state, and the address."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
from serve_helpers import BOARD, start, stored

FINAL = {
    "schemaVersion": 1,
    "board": BOARD,
    "round": 1,
    "clientId": "reviewer-tab-1",
    "preferred": "B",
    "ratings": {"B": 5},
    "overall": "B reads best",
}
REGENERATE = {
    "schemaVersion": 1,
    "board": BOARD,
    "round": 1,
    "clientId": "reviewer-tab-2",
    "regenerated": True,
    "regenerateAction": "different",
}


def progress(base: str) -> dict:
    r = httpx.get(f"{base}/api/progress", params={"board": BOARD}, timeout=10)
    assert r.status_code == 200
    return r.json()


def post(base: str, body: dict) -> httpx.Response:
    return httpx.post(f"{base}/api/feedback", json=body, timeout=10)


def test_ledger_pending_and_closed_survive_restarts(checkout: Path) -> None:
    ws = checkout / "site_src"
    first = start(checkout, "--no-open", "--timeout", "0")
    try:
        assert "closed" not in progress(first.base) and "pending" not in progress(first.base)
        asked = post(first.base, REGENERATE)
        assert asked.status_code == 200 and asked.json()["action"] == "regenerate"
        assert progress(first.base)["pending"] is True
    finally:
        first.stop()

    second = start(checkout, "--no-open", "--timeout", "0")
    try:
        assert second.port == first.port and not second.has("SERVE_PORT_TAKEN")  # same address again
        state = progress(second.base)
        assert state["pending"] is True and state["status"] == "regenerating"  # never silently dropped
        again = post(second.base, REGENERATE)  # the same request replayed: same id, nothing written
        assert again.status_code == 200 and again.json()["id"] == asked.json()["id"]
        final = post(second.base, FINAL)
        assert final.status_code == 200
        assert progress(second.base)["closed"] is True and "pending" not in progress(second.base)
    finally:
        second.stop()
    before = stored(ws)
    assert len(before) == 2

    third = start(checkout, "--no-open", "--timeout", "0")
    try:
        state = progress(third.base)
        assert state["closed"] is True and state["status"] == "done"
        replay = post(third.base, FINAL)
        assert replay.status_code == 200 and replay.json() == final.json()
        changed = post(third.base, {**FINAL, "preferred": "A"})
        assert changed.status_code == 409
        other = post(third.base, {**FINAL, "clientId": "someone-else"})
        assert other.status_code == 409 and other.json()["error"] == "already_submitted"
        assert stored(ws) == before  # nothing was written by the replay or the refusals
    finally:
        third.stop()


def test_a_taken_port_falls_back_to_a_free_one_and_says_so(checkout: Path) -> None:
    first = start(checkout, "--no-open", "--timeout", "0")
    first.stop()
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", first.port))
        squatter.listen()
        second = start(checkout, "--no-open", "--timeout", "0")
        try:
            assert second.port != first.port
            notes = second.has("SERVE_PORT_TAKEN:")
            assert len(notes) == 1 and f"port {first.port}" in notes[0] and "free port" in notes[0]
            assert httpx.get(f"{second.base}/healthz", timeout=10).json()["ok"] is True
        finally:
            second.stop()
