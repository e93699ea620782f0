"""How `pinup serve` runs once started: its start-up heap is frozen before the first request, and a
local client's X-Forwarded-For is not taken as its address (nothing sits in front of a local server)."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import httpx
import pytest
from serve_helpers import BOARD, stored

import pinup_feedback.heap
from pinup.serve.server import ServeOptions, ServeSession
from pinup.serve.workspace import build, resolve

REGENERATE = {
    "schemaVersion": 1,
    "board": BOARD,
    "round": 1,
    "regenerated": True,
    "regenerateAction": "different",
}


def test_heap_frozen_before_serving_and_forwarded_for_ignored(checkout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    frozen: list[float] = []
    monkeypatch.setattr(pinup_feedback.heap, "freeze_startup_heap", lambda: frozen.append(time.monotonic()))
    ws = resolve(checkout / "site_src")
    build(ws)
    session = ServeSession(
        ws, ServeOptions(open_browser=False, timeout=0, watch=False), stdout=io.StringIO(), stderr=io.StringIO()
    )
    thread = threading.Thread(target=session.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while session.info is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert session.info is not None
        assert len(frozen) == 1  # once, and before the server said where it listens
        base = f"http://127.0.0.1:{session.info.port}"
        plain = httpx.post(f"{base}/api/feedback", json={**REGENERATE, "clientId": "tab-1"}, timeout=10)
        spoofed = httpx.post(
            f"{base}/api/feedback",
            json={**REGENERATE, "clientId": "tab-2"},
            headers={"X-Forwarded-For": "203.0.113.9"},
            timeout=10,
        )
        assert plain.status_code == spoofed.status_code == 200
        hashes = {record["clientHash"] for record in stored(ws.src)}
        assert len(hashes) == 1  # both from 127.0.0.1: the header changed nothing
    finally:
        session.stop(0)
        thread.join(15)
    assert len(frozen) == 1
