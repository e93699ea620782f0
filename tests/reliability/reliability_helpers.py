"""Helpers for the reliability battery: the example workspace built once, a real `pinup serve`
subprocess (tests/serve_process.py), feedback bodies, and a concurrent load driver that reports latencies."""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import serve_process
from serve_process import BOARD, PINUP, Served

__all__ = ["BOARD", "Served"]  # re-exported for the tests and bench/soak.py


def copy_built_workspace(template: Path, dest: Path) -> tuple[Path, Path]:
    """A copy of a built workspace (src + site), so each test has its own store."""
    src, site = dest / "ws", dest / "site"
    shutil.copytree(template / "ws", src, symlinks=True)
    shutil.copytree(template / "site", site, symlinks=True)
    return src, site


def build_workspace(dest: Path) -> Path:
    """Copy the bundled example and build it once (`pinup build`); returns the folder holding ws/ and site/."""
    src = serve_process.copy_example(dest / "ws")
    subprocess.run(
        [*PINUP, "build", str(src), "--out", str(dest / "site")], check=True, capture_output=True, timeout=300
    )
    return dest


def start_serve(src: Path, site: Path, *args: str, startup: float = 120) -> Served:
    """`pinup serve SRC --out SITE --no-open --port 0 --timeout 0 ARGS`, once it says SERVE_STARTED."""
    cmd = ["serve", str(src), "--out", str(site), "--no-open", "--port", "0", "--timeout", "0", *args]
    return serve_process.start(
        cmd, cwd=src.parent, env={"PYTHONUNBUFFERED": "1"}, src=src, site=site, startup=startup, stop_timeout=30
    )


def manifest(site: Path, board: str = BOARD) -> dict[str, Any]:
    return json.loads((site / "boards" / board / "board.json").read_text())  # type: ignore[no-any-return]


def regenerate_body(site: Path, board: str = BOARD, **overrides: Any) -> dict[str, Any]:
    """A valid regenerate request (any number may be stored per round; finals are one per round)."""
    m = manifest(site, board)
    body: dict[str, Any] = {
        "schemaVersion": 1,
        "board": board,
        "round": m["round"],
        "clientId": str(uuid.uuid4()),
        "reviewer": "Load",
        "preferred": m["variants"][0],
        "ratings": {m["variants"][0]: 4},
        "comments": {m["variants"][0]: "fine"},
        "overall": "again please",
        "regenerated": True,
        "regenerateAction": "different",
        "remixSpec": None,
        "website": "",
    }
    body.update(overrides)
    return body


@dataclass
class LoadResult:
    acked: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: int = 0  # connection failures (no HTTP status)
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0

    def summary(self, label: str) -> str:
        return (
            f"{label}: {len(self.acked)} acked of {sum(self.statuses.values()) + self.errors} sent in "
            f"{self.seconds:.1f}s, statuses {dict(sorted(self.statuses.items()))}, connection errors "
            f"{self.errors}, p50 {self.percentile(50) * 1000:.1f} ms, p99 {self.percentile(99) * 1000:.1f} ms"
        )


async def drive(base: str, bodies: list[dict[str, Any]], concurrency: int, timeout: float = 60.0) -> LoadResult:
    """POST every body with `concurrency` requests in flight (`timeout`: seconds per request).

    Each of the `concurrency` workers has its own keep-alive client and takes the next body when
    its last answer came: one shared httpx pool of that many connections cost the test process
    about 8 ms of CPU per request (its pool bookkeeping grows with the requests waiting on it),
    three times what the server spends, so the test measured httpx more than pinup.
    """
    result = LoadResult()
    todo = iter(bodies)
    started = time.perf_counter()

    # The server is plain HTTP, but each httpx client loads the CA bundle into a TLS context of its
    # own unless given one: 20 ms of CPU per worker, 64 workers per load. One context serves all.
    tls = ssl.create_default_context()

    async def worker() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=timeout, verify=tls) as client:
            for body in todo:  # one iterator shared by every worker: each body is sent once
                t0 = time.perf_counter()
                try:
                    r = await client.post("/api/feedback", json=body, headers={"Origin": base})
                except httpx.HTTPError:
                    result.errors += 1
                    continue
                result.latencies.append(time.perf_counter() - t0)
                result.statuses[r.status_code] = result.statuses.get(r.status_code, 0) + 1
                if r.status_code == 200 and r.json().get("received") is True:
                    result.acked.append(r.json()["id"])

    await asyncio.gather(*(worker() for _ in range(min(concurrency, len(bodies)))))
    result.seconds = time.perf_counter() - started
    return result


def stored_ids(store: Path, board: str = BOARD) -> list[str]:
    """Ids of every record file of the board, each parsed (a half-written file fails here)."""
    folder = store / board
    return [json.loads(p.read_text())["id"] for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []


def temp_files(*roots: Path) -> list[Path]:
    return [p for root in roots if root.exists() for p in root.rglob(".*.tmp")]
