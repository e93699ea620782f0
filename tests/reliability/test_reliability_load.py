"""Load and crash against a real `pinup serve`: nothing acknowledged is lost, nothing stored twice."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from pathlib import Path

from reliability_helpers import BOARD, drive, regenerate_body, start_serve, stored_ids, temp_files

N = int(os.environ.get("PINUP_LOAD_N", "2000"))
CONCURRENCY = int(os.environ.get("PINUP_LOAD_CONCURRENCY", "64"))


def test_concurrent_submissions_are_each_stored_once(built_in_memory: tuple[Path, Path]) -> None:
    src, site = built_in_memory
    served = start_serve(src, site)
    try:
        bodies = [regenerate_body(site) for _ in range(N)]
        result = asyncio.run(drive(served.base, bodies, CONCURRENCY))
        print("\n" + result.summary(f"load N={N} concurrency={CONCURRENCY}"))
    finally:
        assert served.stop() == 0 or served.proc.returncode is not None
    assert not any(status >= 500 for status in result.statuses), result.statuses
    assert result.statuses == {200: N} and result.errors == 0
    ids = stored_ids(served.store)
    assert len(ids) == N, f"{len(ids)} files for {N} acknowledged submissions"
    assert sorted(ids) == sorted(result.acked) and len(set(ids)) == N
    assert temp_files(served.store, site / "boards") == []


def test_kill_9_mid_load_loses_no_acknowledged_submission(built_in_memory: tuple[Path, Path]) -> None:
    src, site = built_in_memory
    served = start_serve(src, site)
    bodies = [regenerate_body(site) for _ in range(N)]
    holder: dict[str, object] = {}

    def load() -> None:
        holder["result"] = asyncio.run(drive(served.base, bodies, CONCURRENCY))

    thread = threading.Thread(target=load)
    thread.start()
    deadline = time.monotonic() + 60
    while len(served.stdout_lines) < N // 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    served.kill9()
    thread.join(timeout=120)
    result = holder["result"]
    print("\n" + result.summary("crash: kill -9 after a quarter"))  # type: ignore[attr-defined]
    acked = set(result.acked)  # type: ignore[attr-defined]
    assert acked, "the server was killed before anything was acknowledged"
    assert len(acked) < N, "the kill came too late to test anything"

    restarted = start_serve(src, site)  # start-up sweeps the temp files the kill left
    try:
        ids = stored_ids(restarted.store)  # every file parses
        assert acked <= set(ids), f"{len(acked - set(ids))} acknowledged submissions are missing"
        assert len(ids) == len(set(ids))
        assert temp_files(restarted.store, site / "boards") == []
        # replaying what was acknowledged (a browser retrying) stores nothing new and answers 200
        by_client = {b["clientId"]: b for b in bodies}
        records = {json.loads(p.read_text())["clientId"]: p for p in (restarted.store / BOARD).glob("*.json")}
        replay = [by_client[c] for c in list(records)[:50]]
        again = asyncio.run(drive(restarted.base, replay, 8))
        assert again.statuses == {200: len(replay)}
        # the idempotency ledger is rebuilt from the store at start-up: a replay answers with the
        # original id and writes nothing
        after = stored_ids(restarted.store)
        assert sorted(after) == sorted(ids), "a replay after the restart stored a second record"
        originals = {json.loads(p.read_text())["clientId"]: json.loads(p.read_text())["id"] for p in records.values()}
        assert {originals[b["clientId"]] for b in replay} <= set(again.acked)  # type: ignore[attr-defined]
    finally:
        restarted.stop()
